// Reads a response body's server-sent events with eventsource-parser, a chunk at a time, under one
// idle timer for the whole stream (re-armed as each read starts) rather than a timer and a
// `Promise.race` for every event.
import type { EventSourceMessage, createParser as CreateParser } from 'eventsource-parser';
import type { ModelHttpBodyReader } from './body-reader.js';
import { ModelError } from './model-error.js';

// Imported with the first response and kept, so a server's start does not wait for it (issue #18).
let parserModule: Promise<{ readonly createParser: typeof CreateParser }> | undefined;

/**
 * Yields the SSE messages of `body`, those each chunk completes together. Fails with `IdleTimeout`
 * when the provider sends nothing for `idleMs` while the reader waits for it; the time the consumer
 * spends on a batch does not count. Stops `body` however it ends (done, failed or abandoned).
 */
export async function* readSseMessages(body: ModelHttpBodyReader, idleMs: number): AsyncGenerator<readonly EventSourceMessage[], void, undefined> {
  let idle: ModelError | undefined;
  let waiting = false;
  // Fired while the consumer holds a batch, it does nothing: the next wait re-arms it.
  const timer = setTimeout(() => {
    if (!waiting) return;
    idle = new ModelError('IdleTimeout', `no data from the provider for ${idleMs} ms`);
    body.stop(idle);
  }, idleMs);
  try {
    const { createParser } = await (parserModule ??= import('eventsource-parser'));
    let batch: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (message) => batch.push(message) });
    const decoder = new TextDecoder();
    for (;;) {
      waiting = true;
      timer.refresh();
      let chunk: Uint8Array | undefined;
      try {
        chunk = await body.next();
      } catch (error) {
        throw idle ?? error;
      } finally {
        waiting = false;
      }
      if (idle !== undefined) throw idle;
      if (chunk === undefined) return;
      parser.feed(decoder.decode(chunk, { stream: true }));
      if (batch.length === 0) continue;
      const complete = batch;
      batch = [];
      yield complete;
    }
  } finally {
    clearTimeout(timer);
    if (idle === undefined) body.stop();
  }
}
