// Loads a thread for resume in one pass over its file: for a fork that references its parent's
// history (Codex 0.171.0's `history_base`), the parent's inherited lines are replayed first.
import type { RolloutLine } from '../lines/rollout-line.js';
import type { SessionMeta } from '../lines/session-meta.js';
import { readRolloutHead } from '../read/tail-reader.js';
import { scanRolloutFile, type RolloutReadOptions } from '../read/rollout-reader.js';
import type { RolloutProblem } from '../read/rollout-problem.js';
import { RolloutError } from '../rollout-error.js';
import { ThreadReconstructor, type ThreadReconstruction } from './thread-reconstructor.js';

/** The longest chain of forks-of-forks followed before giving up (a cycle guard). */
export const MAX_HISTORY_BASE_DEPTH = 64;

/** Finds a thread's rollout file by id (the thread index, or a scan of the home directory). */
export type ThreadPathResolver = (threadId: string) => Promise<string | undefined>;

/** Options of `loadThread` and `forEachThreadLine`. */
export interface LoadThreadOptions extends Omit<RolloutReadOptions, 'endByteOffset'> {
  /** Needed to load a fork whose file references its parent's history instead of copying it. */
  readonly resolveThreadPath?: ThreadPathResolver;
}

/** A reconstructed thread with what the read met on the way. */
export interface LoadedThread extends ThreadReconstruction {
  readonly path: string;
  readonly meta: SessionMeta;
  /** Damaged lines, a torn tail, an unreachable parent: reported, never thrown (unless `strict`). */
  readonly problems: readonly RolloutProblem[];
}

/**
 * Reconstructs the thread in `filePath`: history at the end of the file, surviving turns, last turn
 * context and metadata. Throws `MissingSessionMeta` when the file does not start with one.
 */
export async function loadThread(filePath: string, options: LoadThreadOptions = {}): Promise<LoadedThread> {
  const reconstructor = new ThreadReconstructor();
  const { meta, problems } = await forEachThreadLine(filePath, (line, lineNumber) => reconstructor.push(line, lineNumber), options);
  return { ...reconstructor.finish(), path: filePath, meta, problems };
}

/**
 * Calls `visit` with every line of the thread in order: first, for a fork that references its
 * parent, the inherited lines of its ancestors (without their headers), then the file's own lines.
 * `lineNumber` is the line's number in the file that holds it.
 */
export async function forEachThreadLine(
  filePath: string,
  visit: (line: RolloutLine, lineNumber: number) => void,
  options: LoadThreadOptions = {},
): Promise<{ readonly meta: SessionMeta; readonly problems: readonly RolloutProblem[] }> {
  const meta = await readRolloutHead(filePath, options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes });
  if (meta === undefined) throw new RolloutError('MissingSessionMeta', `${filePath} does not start with a session_meta line`, filePath, 1);
  const problems: RolloutProblem[] = [];
  await replaySegment({ filePath, meta, end: undefined, isTip: true }, visit, problems, options, new Set());
  return { meta, problems };
}

interface Segment {
  readonly filePath: string;
  readonly meta: SessionMeta;
  /** Where an ancestor's inherited part ends; undefined for the tip. */
  readonly end: { readonly endByteOffset: number | undefined; readonly endOrdinalExclusive: number } | undefined;
  readonly isTip: boolean;
}

async function replaySegment(
  segment: Segment,
  visit: (line: RolloutLine, lineNumber: number) => void,
  problems: RolloutProblem[],
  options: LoadThreadOptions,
  seen: Set<string>,
): Promise<void> {
  seen.add(segment.filePath);
  const base = segment.meta.history_base;
  if (base) {
    const parentPath = seen.size > MAX_HISTORY_BASE_DEPTH ? undefined : await options.resolveThreadPath?.(base.thread_id);
    const parentMeta = parentPath === undefined || seen.has(parentPath) ? undefined : await readRolloutHead(parentPath).catch(() => undefined);
    if (parentPath === undefined || parentMeta === undefined || parentMeta.id !== base.thread_id) {
      problems.push({
        kind: 'history-base-unavailable',
        path: segment.filePath,
        lineNumber: 1,
        message: `the history this thread inherits from ${base.thread_id} could not be read (${options.resolveThreadPath ? 'its file was not found' : 'no resolveThreadPath was given'}); only this file's own lines are replayed`,
      });
    } else {
      const end = { endByteOffset: base.end_byte_offset ?? undefined, endOrdinalExclusive: base.end_ordinal_exclusive };
      await replaySegment({ filePath: parentPath, meta: parentMeta, end, isTip: false }, visit, problems, options, seen);
    }
  }
  const { resolveThreadPath: _resolve, ...readOptions } = options;
  const end = segment.end;
  const summary = await scanRolloutFile(
    segment.filePath,
    (record) => {
      if (record.kind !== 'line') return;
      const line = record.line;
      if (end !== undefined && line.ordinal !== undefined && line.ordinal >= end.endOrdinalExclusive) return;
      // Only the tip's header names the thread; an ancestor's names the ancestor.
      if (!segment.isTip && line.type === 'session_meta') return;
      visit(line, record.lineNumber);
    },
    end?.endByteOffset === undefined ? readOptions : { ...readOptions, endByteOffset: end.endByteOffset },
  );
  // An ancestor cut at a byte offset may end mid-line by design: that is not a torn tail.
  problems.push(...summary.problems.filter((problem) => segment.isTip || problem.kind !== 'torn-tail'));
}
