// Mending the end of a rollout file before more lines are appended to it: a last line a crash cut
// off is dropped, a complete one that only lacks its newline gets it.
import type { FileHandle } from 'node:fs/promises';
import { DEFAULT_MAX_LINE_BYTES } from '../read/line-scanner.js';
import type { ResumePoint } from './rollout-writer.js';

/**
 * Makes the end of the file whole before appending: an unterminated last line that is complete
 * JSON gets its newline; one that is not (a write cut off by a crash) is cut off.
 */
export async function repairTornTail(handle: FileHandle): Promise<void> {
  const { size } = await handle.stat();
  if (size === 0) return;
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  if (last[0] === 10) return;
  // Walk back to the previous newline, a chunk at a time, to find where the torn line starts.
  const chunkBytes = 64 * 1024;
  let start = size;
  let lineStart = 0;
  while (start > 0 && size - start <= DEFAULT_MAX_LINE_BYTES) {
    const from = Math.max(0, start - chunkBytes);
    const chunk = Buffer.alloc(start - from);
    await handle.read(chunk, 0, chunk.length, from);
    const newline = chunk.lastIndexOf(10);
    if (newline !== -1) {
      lineStart = from + newline + 1;
      break;
    }
    start = from;
  }
  const fragment = Buffer.alloc(size - lineStart);
  await handle.read(fragment, 0, fragment.length, lineStart);
  if (isJson(fragment.toString('utf8'))) await handle.write('\n', size);
  else await handle.truncate(lineStart);
  await handle.datasync();
}

/**
 * `repairTornTail` for a file a scan has just read: what it found says where the whole lines end,
 * so nothing is read again. The handle appends, so the newline lands at the end.
 */
export async function completeTail(handle: FileHandle, point: ResumePoint): Promise<void> {
  const { size } = await handle.stat();
  if (point.validEnd < size) await handle.truncate(point.validEnd);
  else if (point.unterminatedTail) await handle.write('\n');
  else return;
  await handle.datasync();
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
