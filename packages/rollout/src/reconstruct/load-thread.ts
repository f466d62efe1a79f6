// Loads a thread for resume in one pass over its file: for a fork that references its parent's
// history (Codex 0.171.0's `history_base`), the parent's inherited lines are replayed first. Each
// file is opened once and read once, its header included.
import type { FileHandle } from 'node:fs/promises';
import { isKnownRolloutItem, type RolloutLine } from '../lines/rollout-line.js';
import type { SessionMeta } from '../lines/session-meta.js';
import { openFile } from '../open-file.js';
import { scanRolloutHandle, type RolloutReadOptions, type RolloutScanSummary } from '../read/rollout-reader.js';
import type { RolloutProblem } from '../read/rollout-problem.js';
import { RolloutError } from '../rollout-error.js';
import type { ContextFragmentOptions } from '../user-turn.js';
import { ThreadReconstructor, type ThreadReconstruction } from './thread-reconstructor.js';

/** The longest chain of forks-of-forks followed before giving up (a cycle guard). */
export const MAX_HISTORY_BASE_DEPTH = 64;

/** Finds a thread's rollout file by id (the thread index, or a scan of the home directory). */
export type ThreadPathResolver = (threadId: string) => Promise<string | undefined>;

/** Options of `loadThread` and `forEachThreadLine`. */
export interface LoadThreadOptions extends Omit<RolloutReadOptions, 'endByteOffset'>, ContextFragmentOptions {
  /** Needed to load a fork whose file references its parent's history instead of copying it. */
  readonly resolveThreadPath?: ThreadPathResolver;
}

/** A reconstructed thread with what the read met on the way. */
export interface LoadedThread extends ThreadReconstruction {
  /** The thread's rollout file; null where the store keeps no file (a database). */
  readonly path: string | null;
  readonly meta: SessionMeta;
  /** Damaged lines, a torn tail, an unreachable parent: reported, never thrown (unless `strict`). */
  readonly problems: readonly RolloutProblem[];
}

/** What a replay of a thread found besides its lines. */
export interface ThreadReplay {
  /** The header of the file replayed (the tip, not an ancestor). */
  readonly meta: SessionMeta;
  readonly problems: readonly RolloutProblem[];
}

/** What a replay from an open file found about that file itself (for a writer that continues it). */
export interface TipReplay extends ThreadReplay {
  /** The scan of the file's own lines: where its whole lines end and whether the last lacks its newline. */
  readonly scan: RolloutScanSummary;
  /** The `ordinal` of the file's last whole line (undefined when that line has none). */
  readonly lastOrdinal: number | undefined;
}

/**
 * Reconstructs the thread in `filePath`: history at the end of the file, surviving turns, last turn
 * context, world state, token totals and metadata. Throws `MissingSessionMeta` when the file does
 * not start with one.
 */
export async function loadThread(filePath: string, options: LoadThreadOptions = {}): Promise<LoadedThread> {
  const reconstructor = new ThreadReconstructor(options);
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
): Promise<ThreadReplay> {
  const handle = await (options.openFile ?? openFile)(filePath, 'r');
  try {
    const { meta, problems } = await replayThreadFile(handle, filePath, visit, options);
    return { meta, problems };
  } finally {
    await handle.close();
  }
}

/**
 * `forEachThreadLine` over a thread file that is already open (read from its start, left open), so
 * a resume reads the file it then appends to only once.
 */
export async function replayThreadFile(
  handle: FileHandle,
  filePath: string,
  visit: (line: RolloutLine, lineNumber: number) => void,
  options: LoadThreadOptions = {},
): Promise<TipReplay> {
  const problems: RolloutProblem[] = [];
  const replay = await replaySegment(handle, { filePath, end: undefined, expectedId: undefined }, visit, problems, options, new Set());
  if (replay.meta === undefined) throw new RolloutError('MissingSessionMeta', `${filePath} does not start with a session_meta line`, filePath, 1);
  return { meta: replay.meta, problems, scan: replay.scan, lastOrdinal: replay.lastOrdinal };
}

interface Segment {
  readonly filePath: string;
  /** Where an ancestor's inherited part ends; undefined for the tip. */
  readonly end: { readonly endByteOffset: number | undefined; readonly endOrdinalExclusive: number } | undefined;
  /** The thread id an ancestor's header must name; undefined for the tip. */
  readonly expectedId: string | undefined;
}

interface SegmentReplay {
  /** Undefined when the file does not start with a `session_meta` line (or an ancestor's names another thread). */
  readonly meta: SessionMeta | undefined;
  readonly scan: RolloutScanSummary;
  readonly lastOrdinal: number | undefined;
}

/**
 * Replays one file: its header first, then (for a fork that references its parent) the parent's
 * inherited lines, then the file's own lines. The scan pauses at the header while the parent is
 * replayed, so the file is read once, front to back.
 */
async function replaySegment(
  handle: FileHandle,
  segment: Segment,
  visit: (line: RolloutLine, lineNumber: number) => void,
  problems: RolloutProblem[],
  options: LoadThreadOptions,
  seen: Set<string>,
): Promise<SegmentReplay> {
  seen.add(segment.filePath);
  const isTip = segment.end === undefined;
  const { resolveThreadPath: _resolve, ...readOptions } = options;
  const end = segment.end;
  let meta: SessionMeta | undefined;
  let lastOrdinal: number | undefined;
  const scan = await scanRolloutHandle(
    handle,
    segment.filePath,
    (record) => {
      if (meta === undefined) {
        // The first line must be the header; without one the file is not (this) thread.
        if (record.kind !== 'line' || record.lineNumber !== 1 || !isKnownRolloutItem(record.line) || record.line.type !== 'session_meta') return true;
        if (segment.expectedId !== undefined && record.line.payload.id !== segment.expectedId) return true;
        meta = record.line.payload;
        lastOrdinal = record.line.ordinal;
        const header = record.line;
        // Only the tip's header names the thread; an ancestor's names the ancestor.
        if (meta.history_base) return replayParent(meta, segment.filePath, visit, problems, options, seen).then(() => (isTip ? visit(header, 1) : undefined));
        if (isTip) visit(header, 1);
        return undefined;
      }
      if (record.kind !== 'line') return undefined;
      const line = record.line;
      lastOrdinal = line.ordinal;
      if (end !== undefined && line.ordinal !== undefined && line.ordinal >= end.endOrdinalExclusive) return undefined;
      if (!isTip && line.type === 'session_meta') return undefined;
      visit(line, record.lineNumber);
      return undefined;
    },
    end?.endByteOffset === undefined ? readOptions : { ...readOptions, endByteOffset: end.endByteOffset },
  );
  // A file without a header contributes nothing, not even its problems; the caller reports it.
  // An ancestor cut at a byte offset may end mid-line by design: that is not a torn tail.
  if (meta !== undefined) problems.push(...scan.problems.filter((problem) => isTip || problem.kind !== 'torn-tail'));
  return { meta, scan, lastOrdinal };
}

/** Replays the inherited part of a fork's parent (and its ancestors), or reports why it cannot. */
async function replayParent(
  meta: SessionMeta,
  filePath: string,
  visit: (line: RolloutLine, lineNumber: number) => void,
  problems: RolloutProblem[],
  options: LoadThreadOptions,
  seen: Set<string>,
): Promise<void> {
  const base = meta.history_base;
  if (!base) return;
  const parentPath = seen.size > MAX_HISTORY_BASE_DEPTH ? undefined : await options.resolveThreadPath?.(base.thread_id);
  let replayed = false;
  if (parentPath !== undefined && !seen.has(parentPath)) {
    const handle = await (options.openFile ?? openFile)(parentPath, 'r').catch(() => undefined);
    if (handle !== undefined) {
      try {
        const end = { endByteOffset: base.end_byte_offset ?? undefined, endOrdinalExclusive: base.end_ordinal_exclusive };
        const parent = await replaySegment(handle, { filePath: parentPath, end, expectedId: base.thread_id }, visit, problems, options, seen);
        replayed = parent.meta !== undefined;
      } finally {
        await handle.close();
      }
    }
  }
  if (!replayed) {
    problems.push({
      kind: 'history-base-unavailable',
      path: filePath,
      lineNumber: 1,
      message: `the history this thread inherits from ${base.thread_id} could not be read (${options.resolveThreadPath ? 'its file was not found' : 'no resolveThreadPath was given'}); only this file's own lines are replayed`,
    });
  }
}
