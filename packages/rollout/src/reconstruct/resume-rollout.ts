// Resuming a thread in one read: under the writer lock, the file is opened once, replayed into its
// reconstruction, and the same handle becomes the writer that continues it.
import { RolloutWriter, type RolloutWriterOptions } from '../write/rollout-writer.js';
import { replayThreadFile, type LoadedThread, type ThreadPathResolver } from './load-thread.js';
import { ThreadReconstructor } from './thread-reconstructor.js';

/** Options of `resumeRollout`: the writer's, and what the read needs. */
export interface ResumeRolloutOptions extends RolloutWriterOptions {
  /** Needed to resume a fork whose file references its parent's history instead of copying it. */
  readonly resolveThreadPath?: ThreadPathResolver;
  /** Longest line accepted; longer ones are skipped and reported. Default `DEFAULT_MAX_LINE_BYTES`. */
  readonly maxLineBytes?: number;
}

/** A thread opened for resume: the writer that continues its file, and its reconstruction. */
export interface ResumedRollout {
  readonly writer: RolloutWriter;
  /** The thread as the file held it when the lock was taken (history, turns, world state, token totals, header, problems). */
  readonly loaded: LoadedThread;
}

/**
 * Locks the thread in `filePath` for writing, reconstructs it and opens it for appending, reading
 * the file once (a fork's referenced parent is read once too). A torn last line is reported in
 * `loaded.problems` and then cut off (or completed, if it only lost its newline). Throws
 * `WriterBusy` when someone else is writing the thread, `MissingSessionMeta` when the file is not one.
 */
export async function resumeRollout(filePath: string, options: ResumeRolloutOptions): Promise<ResumedRollout> {
  const { resolveThreadPath, maxLineBytes, ...writerOptions } = options;
  const { writer, read } = await RolloutWriter.resumeReading(filePath, writerOptions, async (handle) => {
    const reconstructor = new ThreadReconstructor(options);
    const replay = await replayThreadFile(handle, filePath, (line, lineNumber) => reconstructor.push(line, lineNumber), {
      ...(resolveThreadPath === undefined ? {} : { resolveThreadPath }),
      ...(maxLineBytes === undefined ? {} : { maxLineBytes }),
      ...(options.openFile === undefined ? {} : { openFile: options.openFile }),
    });
    const loaded: LoadedThread = { ...reconstructor.finish(), path: filePath, meta: replay.meta, problems: replay.problems };
    return { meta: replay.meta, validEnd: replay.scan.validEnd, unterminatedTail: replay.scan.unterminatedTail, lastOrdinal: replay.lastOrdinal, loaded };
  });
  return { writer, loaded: read.loaded };
}
