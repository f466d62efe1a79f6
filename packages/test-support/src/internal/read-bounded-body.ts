// Reads a request body while keeping at most `limit` bytes: past the limit the rest is drained and
// dropped, so a runaway client costs the test process no memory and still gets a clean 413.

/** The outcome of reading a body. */
export interface BoundedBody {
  /** The body, or nothing when it was over the limit. */
  readonly bytes: Buffer;
  /** Bytes received in total. */
  readonly size: number;
  readonly tooLarge: boolean;
}

/** Reads `source` to its end, keeping the bytes only while their total stays within `limit`. */
export async function readBoundedBody(source: AsyncIterable<Buffer | string>, limit: number): Promise<BoundedBody> {
  let chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of source) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += bytes.length;
    if (size > limit) chunks = [];
    else chunks.push(bytes);
  }
  const tooLarge = size > limit;
  return { bytes: tooLarge ? Buffer.alloc(0) : Buffer.concat(chunks), size, tooLarge };
}
