// readSseMessages: SSE messages a chunk at a time, under one idle timer that counts only the time
// spent waiting for the provider.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ModelHttpBodyReader } from './body-reader.js';
import { readSseMessages } from './sse-reader.js';

/** A body fed by the test: `push` a chunk or `end` it; `stopped` records how it was let go. */
function scriptedBody(): ModelHttpBodyReader & { push(text: string): void; end(): void; readonly stopped: (Error | undefined)[] } {
  const queued: (string | undefined)[] = [];
  let wake: (() => void) | undefined;
  let failure: Error | undefined;
  const stopped: (Error | undefined)[] = [];
  const arrive = (): void => {
    wake?.();
    wake = undefined;
  };
  return {
    stopped,
    push: (text) => {
      queued.push(text);
      arrive();
    },
    end: () => {
      queued.push(undefined);
      arrive();
    },
    async next() {
      while (queued.length === 0 && failure === undefined) await new Promise<void>((resolve) => (wake = resolve));
      if (failure !== undefined) throw failure;
      const text = queued.shift();
      return text === undefined ? undefined : new TextEncoder().encode(text);
    },
    stop(reason) {
      stopped.push(reason);
      failure = reason;
      arrive();
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('readSseMessages', () => {
  it('yields the messages each chunk completes, across chunk boundaries, and lets the body go at its end', async () => {
    const body = scriptedBody();
    body.push('data: {"a":1}\n\nevent: x\nda');
    body.push('ta: {"b":2}\n');
    body.push('\ndata: {"c":3}\n\n');
    body.end();
    const batches: string[][] = [];
    for await (const messages of readSseMessages(body, 60_000)) batches.push(messages.map((message) => `${message.event ?? ''}${message.data}`));
    expect(batches).toEqual([['{"a":1}'], ['x{"b":2}', '{"c":3}']]);
    expect(body.stopped).toEqual([undefined]);
  });

  it('fails with IdleTimeout when the provider is silent for the idle time, and tears the body down', async () => {
    vi.useFakeTimers();
    const body = scriptedBody();
    body.push('data: {"a":1}\n\n');
    const messages = readSseMessages(body, 1000);
    await messages.next();
    // The consumer holding a batch for longer than the idle time is not the provider's silence.
    await vi.advanceTimersByTimeAsync(5000);
    const next = messages.next();
    await vi.advanceTimersByTimeAsync(999);
    body.push('data: {"b":2}\n\n');
    expect((await next).value).toEqual([expect.objectContaining({ data: '{"b":2}' })]);
    const last = messages.next();
    const timedOut = expect(last).rejects.toMatchObject({ code: 'IdleTimeout', message: 'no data from the provider for 1000 ms' });
    await vi.advanceTimersByTimeAsync(1000);
    await timedOut;
    expect(body.stopped).toEqual([expect.objectContaining({ code: 'IdleTimeout' })]);
  });
});
