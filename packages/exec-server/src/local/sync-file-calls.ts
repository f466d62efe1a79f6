// Small reads and metadata done with synchronous calls. Each promise-based call of node:fs is a trip
// through libuv's thread pool: reading a 144-byte file with open, fstat, read and close costs ~200 µs,
// against ~9 µs done synchronously, and a request is dominated by it. A local disk answers these calls
// in microseconds, so the event loop waits less than it would to switch threads; larger files, and
// every call once synchronous calls have been slow several times in a row (a network or FUSE file
// system), use the thread pool, so a slow file system cannot keep stalling the server.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { FileSystemError } from '../file-system-error.js';
import type { FileMetadata } from '../file-system.js';

/** Files up to this size are read synchronously; larger ones through the thread pool. */
export const SYNC_READ_MAX_BYTES = 64 * 1024;
/** A synchronous call slower than this counts as slow. */
export const SLOW_SYNC_CALL_MS = 20;
/**
 * Slow calls in a row that turn synchronous calls off for the rest of the process. One is not
 * enough: on a loaded machine the scheduler can pause the process mid-call for tens of ms, which
 * looks the same from here as a slow file system, but not call after call.
 */
export const SLOW_SYNC_CALLS_TO_STOP = 3;
// O_NONBLOCK keeps an open of a FIFO from hanging the server; it changes nothing for regular files.
const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;
// Reused by every read: the calls are synchronous, so no two reads share it at once. One byte past
// the largest size notices a file that grew since fstat.
const scratch = Buffer.allocUnsafe(SYNC_READ_MAX_BYTES + 1);

/** The metadata Codex reports, from a `stat` result. */
export function metadataOf(info: Stats, isSymlink: boolean): FileMetadata {
  return {
    isDirectory: info.isDirectory(),
    isFile: info.isFile(),
    isSymlink,
    size: info.size,
    createdAtMs: Math.trunc(info.birthtimeMs),
    modifiedAtMs: Math.trunc(info.mtimeMs),
  };
}

/** Synchronous calls for small files, until one of them turns out slow. */
export class SyncFileCalls {
  private enabled = true;
  private slowInARow = 0;

  /** Whether synchronous calls are still in use (false once one was slow). */
  get active(): boolean {
    return this.enabled;
  }

  private timed<T>(call: () => T): T {
    const started = performance.now();
    try {
      return call();
    } finally {
      const slow = performance.now() - started > SLOW_SYNC_CALL_MS;
      this.slowInARow = slow ? this.slowInARow + 1 : 0;
      if (this.slowInARow >= SLOW_SYNC_CALLS_TO_STOP) this.enabled = false;
    }
  }

  /**
   * The whole of a regular file of at most {@link SYNC_READ_MAX_BYTES}, or undefined when it is
   * larger, or changed size while it was read (the caller then reads it through the thread pool).
   * OS errors are thrown as they are; the caller maps them.
   */
  readSmallFile(native: string): Uint8Array | undefined {
    return this.timed(() => {
      const fd = openSync(native, READ_FLAGS);
      try {
        const info = fstatSync(fd);
        if (!info.isFile()) throw new FileSystemError('NotAFile', `path \`${native}\` is not a file`);
        if (info.size > SYNC_READ_MAX_BYTES) return undefined;
        // A short read (the size shrank, or a file system that reads short) or a longer one (it grew)
        // is left to the general path, which loops until the end.
        const bytesRead = readSync(fd, scratch, 0, info.size + 1, 0);
        if (bytesRead !== info.size) return undefined;
        // A copy out of the shared buffer (small ones come from Node's pool, so this allocates little).
        const copy = Buffer.from(scratch.subarray(0, bytesRead));
        return new Uint8Array(copy.buffer, copy.byteOffset, bytesRead);
      } finally {
        closeSync(fd);
      }
    });
  }

  /** Metadata of `native`, following a final symlink (and saying it was one). */
  metadata(native: string): FileMetadata {
    return this.timed(() => {
      const own = lstatSync(native);
      return own.isSymbolicLink() ? metadataOf(statSync(native), true) : metadataOf(own, false);
    });
  }
}
