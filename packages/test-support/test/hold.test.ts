// A held response: the server takes the request, then waits at the scripted point until the test
// releases it, so a test can act while its client waits on the model.
import { createParser } from 'eventsource-parser';
import { afterEach, describe, expect, it } from 'vitest';
import { assistantMessage, completed, failed, held, sse, startMockResponsesServer } from '../src/index.js';
import type { MockResponsesServer } from '../src/index.js';
import { eventTypes, post, responsesBody, userMessage } from './sse-client.js';

let server: MockResponsesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function releasable(): { readonly until: Promise<void>; release(): void } {
  let release = (): void => undefined;
  const until = new Promise<void>((resolve) => (release = resolve));
  return { until, release };
}

describe('held responses', () => {
  it('sends nothing, not even the headers, before a hold at the start is released', async () => {
    const gate = releasable();
    server = await startMockResponsesServer({ responses: [held(sse(assistantMessage('hi'), completed()), { before: 'start', until: gate.until })] });
    let answered = false;
    const reply = post(server.url, responsesBody([userMessage('hi')])).then((value) => {
      answered = true;
      return value;
    });

    await expect.poll(() => server?.requests.length).toBe(1);
    expect(answered).toBe(false);
    gate.release();

    expect(eventTypes(await reply)).toEqual(['response.created', 'response.output_item.added', 'response.output_text.delta', 'response.output_item.done', 'response.completed']);
    server.verify();
  });

  it('streams every event but the terminal one before a hold at completed is released', async () => {
    const gate = releasable();
    server = await startMockResponsesServer({ responses: [held(sse(assistantMessage('hi'), completed()), { before: 'completed', until: gate.until })] });
    const response = await fetch(`${server.url}/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(responsesBody([userMessage('hi')])) });
    const seen: { readonly type: string | undefined; readonly released: boolean }[] = [];
    let released = false;
    const parser = createParser({ onEvent: (message) => seen.push({ type: message.event, released }) });
    const decoder = new TextDecoder();
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      parser.feed(decoder.decode(chunk, { stream: true }));
      // Released only once the answer is whole and was read on its own, without the terminal event.
      if (!released && seen.some((event) => event.type === 'response.output_item.done')) {
        released = true;
        gate.release();
      }
    }

    expect(seen).toEqual([
      { type: 'response.created', released: false },
      { type: 'response.output_item.added', released: false },
      { type: 'response.output_text.delta', released: false },
      { type: 'response.output_item.done', released: false },
      { type: 'response.completed', released: true },
    ]);
    server.verify();
  });

  it('holds a failed response before its response.failed', async () => {
    const gate = releasable();
    server = await startMockResponsesServer({ responses: [held(sse(assistantMessage('Hel'), failed('server_error', 'scripted failure')), { before: 'completed', until: gate.until })] });
    const response = await fetch(`${server.url}/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(responsesBody([userMessage('hi')])) });
    const seen: { readonly type: string | undefined; readonly released: boolean }[] = [];
    let released = false;
    const parser = createParser({ onEvent: (message) => seen.push({ type: message.event, released }) });
    const decoder = new TextDecoder();
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      parser.feed(decoder.decode(chunk, { stream: true }));
      if (!released && seen.some((event) => event.type === 'response.output_item.done')) {
        released = true;
        gate.release();
      }
    }

    expect(seen.map((event) => event.type)).toEqual(['response.created', 'response.output_item.added', 'response.output_text.delta', 'response.output_item.done', 'response.failed']);
    expect(seen.filter((event) => event.released).map((event) => event.type)).toEqual(['response.failed']);
    server.verify();
  });
});
