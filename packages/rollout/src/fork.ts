// Forking: a new thread file holding the source thread's lines up to a given turn, with a header
// naming the source (`forked_from_id`). The copy is self-contained: it stays readable if the source
// is archived or deleted.
import { newThreadId, randomUuidV7, type ThreadId, type UuidV7Source } from '@skein/protocol';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { rolloutTimestamp, systemClock, type Clock } from './clock.js';
import type { RolloutLine } from './lines/rollout-line.js';
import { serializeRolloutLine } from './lines/rollout-line.js';
import type { SessionMeta } from './lines/session-meta.js';
import { openFile, type OpenFile } from './open-file.js';
import { forEachThreadLine, type ThreadPathResolver } from './reconstruct/load-thread.js';
import { ThreadReconstructor } from './reconstruct/thread-reconstructor.js';
import type { ContextFragmentOptions } from './user-turn.js';
import type { RolloutProblem } from './read/rollout-problem.js';
import { RolloutError } from './rollout-error.js';
import { liveRolloutPath } from './rollout-path.js';

/** Where a fork ends: after a given turn, or after the first `userTurns` user turns. */
export type ForkPoint = { readonly turnId: string } | { readonly userTurns: number };

/** Options of `forkRollout`. */
export interface ForkRolloutOptions extends ContextFragmentOptions {
  readonly home: string;
  /** The source thread's file. */
  readonly sourcePath: string;
  /** Where the fork's history ends; the whole source when absent. */
  readonly upTo?: ForkPoint;
  /** The fork's id; minted from `uuid` when absent. */
  readonly threadId?: ThreadId;
  readonly uuid?: UuidV7Source;
  readonly clock?: Clock;
  /** Header fields to change in the fork (a new `cwd`, `source`, …). */
  readonly meta?: Readonly<Record<string, unknown>>;
  /** Needed when the source itself references its parent's history. */
  readonly resolveThreadPath?: ThreadPathResolver;
  /** How files are opened; default the real filesystem's `open`. */
  readonly openFile?: OpenFile;
}

/** What `forkRollout` made. */
export interface ForkedRollout {
  readonly path: string;
  readonly threadId: ThreadId;
  readonly meta: SessionMeta;
  /** Lines copied from the source (the header not counted). */
  readonly copiedLines: number;
  /** What reading the source met (damaged lines are not copied). */
  readonly problems: readonly RolloutProblem[];
}

/**
 * Writes a new thread whose history is the source's up to `upTo`: the source's lines (timestamps
 * kept, ordinals renumbered) under a header with a new id, `session_id` = the new id and
 * `forked_from_id` = the source's. Throws `TurnNotFound` for a turn the source does not have.
 */
export async function forkRollout(options: ForkRolloutOptions): Promise<ForkedRollout> {
  const lines: RolloutLine[] = [];
  const { meta: sourceMeta, problems } = await forEachThreadLine(
    options.sourcePath,
    (line) => {
      if (line.type !== 'session_meta') lines.push(line);
    },
    {
      ...(options.resolveThreadPath === undefined ? {} : { resolveThreadPath: options.resolveThreadPath }),
      ...(options.openFile === undefined ? {} : { openFile: options.openFile }),
    },
  );
  const createdAt = (options.clock ?? systemClock).now();
  const fork = forkLines({ ...options, sourceMeta, lines, createdAt, where: options.sourcePath });
  const filePath = liveRolloutPath(options.home, fork.threadId, createdAt);
  await mkdir(path.dirname(filePath), { recursive: true });
  const handle = await (options.openFile ?? openFile)(filePath, 'ax').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EEXIST') throw new RolloutError('AlreadyExists', `${filePath} already exists`, filePath, undefined, { cause: error });
    throw error;
  });
  try {
    await handle.writeFile(`${fork.lines.join('\n')}\n`, 'utf8');
    await handle.datasync();
  } finally {
    await handle.close();
  }
  return { path: filePath, threadId: fork.threadId, meta: fork.meta, copiedLines: fork.lines.length - 1, problems };
}

/** What `forkLines` is given: the source's header and lines (headers left out), and the fork's settings. */
export interface ForkLinesOptions extends ContextFragmentOptions {
  readonly sourceMeta: SessionMeta;
  readonly lines: readonly RolloutLine[];
  readonly upTo?: ForkPoint;
  readonly threadId?: ThreadId;
  readonly uuid?: UuidV7Source;
  readonly createdAt: Date;
  readonly meta?: Readonly<Record<string, unknown>>;
  /** Named in errors (the source's file, or its id). */
  readonly where: string;
}

/**
 * A fork's lines, whatever stores them: the new header (new id, `session_id` = the new id,
 * `forked_from_id` = the source's), then the source's lines up to `upTo`, timestamps kept and
 * ordinals renumbered. Throws `TurnNotFound` for a turn the source does not have.
 */
export function forkLines(options: ForkLinesOptions): { readonly threadId: ThreadId; readonly meta: SessionMeta; readonly lines: readonly string[] } {
  const reconstructor = new ThreadReconstructor(options);
  // Positions in `lines` stand in for line numbers, so turns map straight onto the copy.
  options.lines.forEach((line, index) => reconstructor.push(line, index));
  const cut = cutIndex(reconstructor, options.lines.length, options.upTo, options.where);
  const threadId = options.threadId ?? newThreadId(options.uuid ?? randomUuidV7);
  const { history_base: _base, forked_from_ordinal_exclusive: _ordinal, ...inherited } = options.sourceMeta;
  const meta: SessionMeta = {
    ...inherited,
    session_id: threadId,
    id: threadId,
    forked_from_id: options.sourceMeta.id,
    timestamp: rolloutTimestamp(options.createdAt),
    history_mode: 'paginated',
    ...options.meta,
  };
  const text = [serializeRolloutLine({ timestamp: rolloutTimestamp(options.createdAt), ordinal: 0 }, { type: 'session_meta', payload: meta })];
  for (let index = 0; index < cut; index += 1) {
    const line = options.lines[index] as RolloutLine;
    text.push(serializeRolloutLine({ timestamp: line.timestamp, ordinal: index + 1 }, line));
  }
  return { threadId, meta, lines: text };
}

function cutIndex(reconstructor: ThreadReconstructor, lineCount: number, upTo: ForkPoint | undefined, where: string): number {
  if (upTo === undefined) return lineCount;
  const { turns } = reconstructor.finish();
  if ('turnId' in upTo) {
    const turn = turns.find((candidate) => candidate.turnId === upTo.turnId);
    if (turn === undefined) throw new RolloutError('TurnNotFound', `the thread in ${where} has no surviving turn ${upTo.turnId}`, where);
    return turn.lastLine + 1;
  }
  if (!Number.isInteger(upTo.userTurns) || upTo.userTurns < 0) {
    throw new RolloutError('InvalidArgument', `userTurns must be a non-negative integer, got ${upTo.userTurns}`, where);
  }
  const userTurns = turns.filter((turn) => turn.userTurn);
  const next = userTurns[upTo.userTurns];
  return next === undefined ? lineCount : next.firstLine;
}
