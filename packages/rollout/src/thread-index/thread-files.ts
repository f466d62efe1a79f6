// Finding every thread file under a home directory: `sessions/YYYY/MM/DD/rollout-*.jsonl` and
// `archived_sessions/rollout-*.jsonl`.
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { mapConcurrently } from '../internal/map-concurrently.js';
import { ARCHIVED_SESSIONS_DIR, SESSIONS_DIR, parseRolloutFileName } from '../rollout-path.js';

/** How many `stat` calls a scan keeps in flight. */
export const FILE_SCAN_CONCURRENCY = 32;

/** A thread file found on disk. */
export interface ThreadFile {
  readonly path: string;
  readonly threadId: string;
  readonly archived: boolean;
  readonly size: number;
  readonly mtimeMs: number;
}

/** Every rollout file under `home`, live ones first. Folders that do not exist are skipped. */
export async function listThreadFiles(home: string): Promise<ThreadFile[]> {
  const files: ThreadFile[] = [];
  await collect(path.join(home, SESSIONS_DIR), false, 3, files);
  await collect(path.join(home, ARCHIVED_SESSIONS_DIR), true, 0, files);
  return files;
}

/** The path of a thread's file found by scanning (when the index does not know it). */
export async function findThreadFile(home: string, threadId: string): Promise<ThreadFile | undefined> {
  const files = await listThreadFiles(home);
  return files.find((file) => file.threadId === threadId.toLowerCase());
}

async function collect(directory: string, archived: boolean, depth: number, out: ThreadFile[]): Promise<void> {
  let entries;
  try {
    entries = await readdir(directory, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  // By code unit: the names are ASCII digits and ids, and a locale collator costs ICU's start-up (issue #18).
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (depth > 0) {
    for (const entry of entries) if (entry.isDirectory()) await collect(path.join(directory, entry.name), archived, depth - 1, out);
    return;
  }
  const rollouts = entries.flatMap((entry) => {
    const named = entry.isFile() ? parseRolloutFileName(entry.name) : undefined;
    return named === undefined ? [] : [{ entryPath: path.join(directory, entry.name), threadId: named.threadId }];
  });
  const found = await mapConcurrently(rollouts, FILE_SCAN_CONCURRENCY, async ({ entryPath, threadId }) => {
    // A file may vanish between the listing and the stat (archived or deleted meanwhile).
    const info = await stat(entryPath).catch(() => undefined);
    return info === undefined ? undefined : { path: entryPath, threadId, archived, size: info.size, mtimeMs: info.mtimeMs };
  });
  for (const file of found) if (file !== undefined) out.push(file);
}
