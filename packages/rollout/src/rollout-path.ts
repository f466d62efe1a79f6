// Where thread files live under a home directory, and what their names say:
// `<home>/sessions/YYYY/MM/DD/rollout-YYYY-MM-DDTHH-MM-SS-<thread id>.jsonl`, archived threads flat
// under `<home>/archived_sessions/`.
import path from 'node:path';
import { RolloutError } from './rollout-error.js';

/** The folder of live threads under a home directory. */
export const SESSIONS_DIR = 'sessions';
/** The folder of archived threads under a home directory (no date folders). */
export const ARCHIVED_SESSIONS_DIR = 'archived_sessions';

const FILE_NAME = /^rollout-(\d{4})-(\d{2})-(\d{2})T(\d{2})-(\d{2})-(\d{2})-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

/** What a rollout file name holds. */
export interface RolloutFileName {
  /** The thread id at the end of the name. */
  readonly threadId: string;
  /** The creation time in the name (second precision, UTC). */
  readonly createdAt: Date;
}

/**
 * The file name of a thread created at `createdAt`. Times are UTC (Codex uses local time; on the
 * machines we run on that is UTC, and UTC keeps names independent of the host's zone).
 */
export function rolloutFileName(threadId: string, createdAt: Date): string {
  const stamp = createdAt.toISOString().slice(0, 19).replaceAll(':', '-');
  return `rollout-${stamp}-${threadId}.jsonl`;
}

/** Parses a rollout file name (a base name); undefined when it is not one. */
export function parseRolloutFileName(name: string): RolloutFileName | undefined {
  const match = FILE_NAME.exec(name);
  if (match === null) return undefined;
  const [, year, month, day, hour, minute, second, threadId] = match;
  const createdAt = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}.000Z`);
  if (Number.isNaN(createdAt.getTime()) || threadId === undefined) return undefined;
  return { threadId: threadId.toLowerCase(), createdAt };
}

/** Like `parseRolloutFileName` for a path, throwing `InvalidRolloutPath` when the name is not a rollout's. */
export function requireRolloutFileName(filePath: string): RolloutFileName {
  const parsed = parseRolloutFileName(path.basename(filePath));
  if (parsed === undefined) {
    throw new RolloutError('InvalidRolloutPath', `'${path.basename(filePath)}' is not a rollout file name (rollout-<YYYY-MM-DDTHH-MM-SS>-<uuid>.jsonl)`, filePath);
  }
  return parsed;
}

/** The path of a live thread's file: `<home>/sessions/YYYY/MM/DD/<name>`, dated by its creation time. */
export function liveRolloutPath(home: string, threadId: string, createdAt: Date): string {
  return path.join(liveRolloutDir(home, createdAt), rolloutFileName(threadId, createdAt));
}

/** The date folder a thread created at `createdAt` lives in. */
export function liveRolloutDir(home: string, createdAt: Date): string {
  const iso = createdAt.toISOString();
  return path.join(home, SESSIONS_DIR, iso.slice(0, 4), iso.slice(5, 7), iso.slice(8, 10));
}

/** The path an archived thread's file moves to. */
export function archivedRolloutPath(home: string, fileName: string): string {
  return path.join(home, ARCHIVED_SESSIONS_DIR, fileName);
}
