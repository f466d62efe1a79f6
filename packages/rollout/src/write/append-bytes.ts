// How the writer hands a batch of lines to the OS. A turn's lines are a few KiB: written
// synchronously they cost tens of microseconds, where a promise-based write is a trip through
// libuv's thread pool (four threads by default) that, with many threads' turns ending at once, waits
// behind their fsyncs (a p99 of ~7 ms each was measured at 100 turns a second). Larger batches, and
// every batch once synchronous writes have been slow a few times (a network or throttled disk), go
// through the pool, so a slow file system cannot keep stalling the event loop.
import { writeSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';

/** Batches up to this size are written synchronously. */
export const SYNC_APPEND_MAX_BYTES = 64 * 1024;
/** A synchronous write slower than this counts as slow. */
const SLOW_SYNC_WRITE_MS = 20;
/**
 * How many slow writes turn synchronous writes off for the rest of the process: one can be the
 * scheduler, not the disk. Each fast write forgets a twentieth of a slow one, so stalls that come
 * now and then between fast writes (a throttled disk) still add up, and a rare hiccup does not.
 */
const SLOW_SYNC_WRITES_TO_STOP = 3;
const FORGOTTEN_PER_FAST_WRITE = 1 / 20;

let syncWrites = true;
let slowWrites = 0;

/** Writes all of `buffer` at the file's position (its end, for a file opened to append). */
export async function appendBytes(handle: FileHandle, buffer: Buffer): Promise<void> {
  if (syncWrites && buffer.length <= SYNC_APPEND_MAX_BYTES) {
    writeAllSync(handle.fd, buffer);
    return;
  }
  let offset = 0;
  while (offset < buffer.length) {
    const { bytesWritten } = await handle.write(buffer, offset, buffer.length - offset, null);
    offset += bytesWritten;
  }
}

function writeAllSync(fd: number, buffer: Buffer): void {
  const started = performance.now();
  try {
    let offset = 0;
    while (offset < buffer.length) offset += writeSync(fd, buffer, offset, buffer.length - offset, null);
  } finally {
    slowWrites = performance.now() - started > SLOW_SYNC_WRITE_MS ? slowWrites + 1 : Math.max(0, slowWrites - FORGOTTEN_PER_FAST_WRITE);
    if (slowWrites >= SLOW_SYNC_WRITES_TO_STOP) syncWrites = false;
  }
}
