// Splits a byte stream into newline-terminated messages with a cap on line length: an overlong line is
// skipped (its head kept to find the request id) rather than buffered without bound.
import { OVERSIZED_HEAD_BYTES } from './limits.js';

/** What a splitter reports. */
export interface LineSink {
  /** One complete, non-blank line without its terminator. */
  line(text: string): void;
  /** A line longer than the cap, with its first bytes and its full length. */
  oversized(head: string, bytes: number): void;
}

/** Incremental splitter for `\n`-delimited UTF-8 messages (a trailing `\r` is dropped). */
export class LineSplitter {
  private parts: Buffer[] = [];
  private length = 0;
  private skipping: { head: Buffer; bytes: number } | undefined;

  constructor(
    private readonly maxLineBytes: number,
    private readonly sink: LineSink,
  ) {}

  /** Feeds the next chunk of the stream; complete lines are reported before it returns. */
  push(chunk: Buffer): void {
    let start = 0;
    for (let newline = chunk.indexOf(0x0a, start); newline >= 0; newline = chunk.indexOf(0x0a, start)) {
      this.take(chunk.subarray(start, newline));
      this.finishLine();
      start = newline + 1;
    }
    this.take(chunk.subarray(start));
  }

  private take(piece: Buffer): void {
    if (piece.byteLength === 0) return;
    if (this.skipping !== undefined) {
      this.skipping.bytes += piece.byteLength;
      return;
    }
    this.parts.push(piece);
    this.length += piece.byteLength;
    if (this.length > this.maxLineBytes) {
      const joined = Buffer.concat(this.parts, this.length);
      this.skipping = { head: joined.subarray(0, OVERSIZED_HEAD_BYTES), bytes: this.length };
      this.parts = [];
      this.length = 0;
    }
  }

  private finishLine(): void {
    if (this.skipping !== undefined) {
      const { head, bytes } = this.skipping;
      this.skipping = undefined;
      this.sink.oversized(head.toString('utf8'), bytes);
      return;
    }
    const text = Buffer.concat(this.parts, this.length).toString('utf8').replace(/\r$/, '');
    this.parts = [];
    this.length = 0;
    if (text.trim() !== '') this.sink.line(text);
  }
}
