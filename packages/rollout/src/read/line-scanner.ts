// Splits a file into lines with their byte offsets, reading fixed-size chunks so memory stays
// bounded by the longest line (itself bounded), not by the file.
import type { FileHandle } from 'node:fs/promises';
import { openFile, type OpenFile } from '../open-file.js';

/** Bytes read per call; large enough that a 20 000-item rollout needs few system calls. */
export const READ_CHUNK_BYTES = 1024 * 1024;

/** The default longest line a reader accepts (a compaction's replacement history can be large). */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

/** One line of the file, without its newline. */
export interface RawLine {
  readonly lineNumber: number;
  readonly byteOffset: number;
  /** Offset just past the line's newline (or its last byte, when unterminated). */
  readonly byteEnd: number;
  readonly text: string;
  /** False for a last line without a newline. */
  readonly terminated: boolean;
}

/** A line skipped because it was longer than the limit. */
export interface OversizedLine {
  readonly lineNumber: number;
  readonly byteOffset: number;
  readonly byteEnd: number;
  readonly terminated: boolean;
}

/** Options of `scanLines`. */
export interface ScanLinesOptions {
  readonly maxLineBytes: number;
  /** Read only the bytes before this offset (a fork's inherited part of its parent). */
  readonly endByteOffset?: number;
  /** Bytes per read call; default `READ_CHUNK_BYTES` (readers that stop early use less). */
  readonly chunkBytes?: number;
  readonly signal?: AbortSignal;
  /** How the file is opened; default the real filesystem's `open`. */
  readonly openFile?: OpenFile;
}

/**
 * What `onLine` answers: true stops the scan; a promise pauses it until it settles (a reader that
 * must read another file before it can go on, such as a fork's parent, without reading this one twice).
 */
export type LineVisit = boolean | void | Promise<void>;

/**
 * Calls `onLine` for every line of the file in order (until it returns true, which stops the scan),
 * and `onOversized` for lines over the limit.
 */
export async function scanLines(
  filePath: string,
  onLine: (line: RawLine) => LineVisit,
  onOversized: (line: OversizedLine) => void,
  options: ScanLinesOptions,
): Promise<void> {
  const handle = await (options.openFile ?? openFile)(filePath, 'r');
  try {
    await scanHandleLines(handle, onLine, onOversized, options);
  } finally {
    await handle.close();
  }
}

/** `scanLines` over a file that is already open, from its start; the handle stays open. */
export async function scanHandleLines(
  handle: FileHandle,
  onLine: (line: RawLine) => LineVisit,
  onOversized: (line: OversizedLine) => void,
  options: ScanLinesOptions,
): Promise<void> {
  const chunkBytes = options.chunkBytes ?? READ_CHUNK_BYTES;
  const chunk = Buffer.allocUnsafe(chunkBytes);
  const limit = options.endByteOffset ?? Number.POSITIVE_INFINITY;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let oversized = false;
  let lineStart = 0;
  let lineNumber = 1;
  let position = 0;
  for (;;) {
    options.signal?.throwIfAborted();
    const want = Math.min(chunkBytes, limit - position);
    if (want <= 0) break;
    const { bytesRead } = await handle.read(chunk, 0, want, position);
    if (bytesRead === 0) break;
    let start = 0;
    while (start < bytesRead) {
      const newline = chunk.indexOf(10, start);
      if (newline === -1 || newline >= bytesRead) {
        if (!oversized) {
          pendingBytes += bytesRead - start;
          if (pendingBytes > options.maxLineBytes) {
            oversized = true;
            pending = [];
          } else {
            pending.push(Buffer.from(chunk.subarray(start, bytesRead)));
          }
        }
        break;
      }
      const byteEnd = position + newline + 1;
      const length = pendingBytes + newline - start;
      if (oversized || length > options.maxLineBytes) {
        onOversized({ lineNumber, byteOffset: lineStart, byteEnd, terminated: true });
      } else {
        const text =
          pending.length === 0
            ? chunk.toString('utf8', start, newline)
            : Buffer.concat([...pending, chunk.subarray(start, newline)]).toString('utf8');
        const visit = onLine({ lineNumber, byteOffset: lineStart, byteEnd, text, terminated: true });
        if (visit === true) return;
        // Only a visitor that must wait answers a promise; the others keep this loop synchronous.
        if (visit instanceof Promise) await visit;
      }
      pending = [];
      pendingBytes = 0;
      oversized = false;
      lineStart = byteEnd;
      lineNumber += 1;
      start = newline + 1;
    }
    position += bytesRead;
  }
  if (oversized) {
    onOversized({ lineNumber, byteOffset: lineStart, byteEnd: position, terminated: false });
  } else if (pendingBytes > 0) {
    const visit = onLine({ lineNumber, byteOffset: lineStart, byteEnd: position, text: Buffer.concat(pending).toString('utf8'), terminated: false });
    if (visit instanceof Promise) await visit;
  }
}
