// The output a process keeps for `read`: a byte-capped queue of chunks where the oldest fall off first.
import type { ProcessOutputChunk } from '../process-api.js';

/** A byte-bounded, sequence-ordered chunk buffer. */
export class RetainedOutput {
  private readonly chunks: ProcessOutputChunk[] = [];
  private bytes = 0;

  constructor(private readonly capBytes: number) {}

  /** Appends a chunk, dropping the oldest ones (or the front of this one) to stay within the cap. */
  push(chunk: ProcessOutputChunk): void {
    const kept =
      chunk.chunk.byteLength > this.capBytes ? { ...chunk, chunk: chunk.chunk.subarray(chunk.chunk.byteLength - this.capBytes) } : chunk;
    this.chunks.push(kept);
    this.bytes += kept.chunk.byteLength;
    while (this.bytes > this.capBytes) {
      const dropped = this.chunks.shift();
      if (dropped === undefined) break;
      this.bytes -= dropped.chunk.byteLength;
    }
  }

  /**
   * Chunks after `afterSeq`, stopping once `maxBytes` have been taken (the first chunk is always
   * taken). `exhausted` says the byte budget, not the end of the buffer, ended the list.
   */
  after(afterSeq: number, maxBytes: number | undefined): { chunks: ProcessOutputChunk[]; exhausted: boolean } {
    const chunks: ProcessOutputChunk[] = [];
    let taken = 0;
    for (const chunk of this.chunks) {
      if (chunk.seq <= afterSeq) continue;
      if (maxBytes !== undefined && taken >= maxBytes) return { chunks, exhausted: true };
      chunks.push(chunk);
      taken += chunk.chunk.byteLength;
    }
    return { chunks, exhausted: maxBytes !== undefined && taken >= maxBytes };
  }

  /** The newest `bytes` of output, as text, for diagnosing sandbox denials. */
  tail(bytes: number): string {
    const parts: Uint8Array[] = [];
    let total = 0;
    for (let index = this.chunks.length - 1; index >= 0 && total < bytes; index -= 1) {
      const chunk = this.chunks[index]!.chunk;
      parts.unshift(chunk);
      total += chunk.byteLength;
    }
    return Buffer.concat(parts).toString('utf8');
  }
}
