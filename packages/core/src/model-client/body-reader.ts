// A response body read chunk by chunk, whatever carried it: node:http's IncomingMessage read
// directly (no web-stream promise chain per chunk), or a fetch `Response`'s web stream.
import type { IncomingMessage } from 'node:http';
import type { ReadableStream } from 'node:stream/web';

/** Reads a response body one chunk at a time. */
export interface ModelHttpBodyReader {
  /** The next chunk, or `undefined` at the end of the body. */
  next(): Promise<Uint8Array | undefined>;
  /**
   * Stops reading and lets the body go. With `reason` (an idle timeout) it is torn down and a
   * `next` in flight settles at once; without, a body that has arrived whole may be drained instead,
   * so its connection can serve the next request.
   */
  stop(reason?: Error): void;
}

/** A reader of a node:http response. */
export function incomingBodyReader(incoming: IncomingMessage): ModelHttpBodyReader {
  const chunks = incoming.iterator({ destroyOnReturn: false }) as AsyncIterator<Buffer, undefined>;
  // A read sees errors through the iterator; one after the reader let go (the socket reset under a
  // cancelled request) must not go unhandled and end the process.
  incoming.on('error', () => undefined);
  return {
    next: async () => (await chunks.next()).value,
    stop: (reason) => {
      // Destroying a response that has not ended closes its socket; one that is all here is read
      // to its end instead, which hands the socket back to the agent for keep-alive.
      if (reason === undefined && incoming.complete) void chunks.return?.().then(() => incoming.resume(), () => incoming.destroy());
      else incoming.destroy(reason);
    },
  };
}

/** A reader of a web stream (the global fetch's `Response.body`). */
export function webBodyReader(body: ReadableStream<Uint8Array>): ModelHttpBodyReader {
  const reader = body.getReader();
  return {
    next: async () => (await reader.read()).value,
    // A read in flight resolves as the end; the caller tells a timeout apart by its own flag.
    stop: (reason) => void reader.cancel(reason).catch(() => undefined),
  };
}
