// A paced response: the server spreads the stream over `overMs` (a model that takes its time, for
// benchmarks); what it sends is the same as unpaced. No assertion here depends on time.
import { afterEach, describe, expect, it } from 'vitest';
import { assistantMessage, completed, paced, sse, startMockResponsesServer } from '../src/index.js';
import type { MockResponsesServer } from '../src/index.js';
import { eventTypes, post, responsesBody, userMessage } from './sse-client.js';

let server: MockResponsesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('paced responses', () => {
  it('send every event of the script, in order, as the unpaced one does', async () => {
    const script = sse(assistantMessage(['Hel', 'lo']), completed());
    server = await startMockResponsesServer({ responses: [script, paced(script, { overMs: 50 })] });

    const unpaced = await post(server.url, responsesBody([userMessage('hi')]));
    const spread = await post(server.url, responsesBody([userMessage('hi')]));

    expect(eventTypes(spread)).toEqual(eventTypes(unpaced));
    expect(spread.events.map((event) => event.data['delta']).filter((delta) => delta !== undefined)).toEqual(['Hel', 'lo']);
    server.verify();
  });

  it('note when each request came and when its answer ended, for a benchmark to take out', async () => {
    const script = sse(assistantMessage('hi'), completed());
    server = await startMockResponsesServer({ responses: [paced(script, { overMs: 20 })] });
    expect(server.answerSpan(0)).toBeUndefined();

    await post(server.url, responsesBody([userMessage('hi')]));
    await post(server.url, responsesBody([userMessage('hi')]), { path: '/elsewhere' });

    const [answered, refused] = [server.answerSpan(0), server.answerSpan(1)];
    expect(answered?.answeredAtMs).toBeGreaterThanOrEqual(answered?.receivedAtMs ?? Infinity);
    expect(refused?.answeredAtMs).toBeGreaterThanOrEqual(refused?.receivedAtMs ?? Infinity);
    expect(refused?.receivedAtMs).toBeGreaterThanOrEqual(answered?.answeredAtMs ?? Infinity);
    expect(server.answerSpan(2)).toBeUndefined();
    server.tolerate('unknown-route', 'the second request goes to a path the mock does not serve, to show refusals are timed too');
  });

  it('hand each answered request to onAnswered and, with keepRequests false, keep none of them', async () => {
    const answered: { index: number; text: string | undefined; held: number }[] = [];
    server = await startMockResponsesServer({
      responses: [sse(assistantMessage('hi'), completed())],
      keepRequests: false,
      onAnswered: (request, span) => answered.push({ index: request.index, text: request.messageTexts('user').at(-1), held: span.answeredAtMs - span.receivedAtMs }),
    });

    await post(server.url, responsesBody([userMessage('first')]));
    await post(server.url, responsesBody([userMessage('second')]), { path: '/elsewhere' });

    expect(answered.map(({ index, text }) => ({ index, text }))).toEqual([{ index: 0, text: 'first' }, { index: 1, text: 'second' }]);
    expect(answered.every(({ held }) => held >= 0)).toBe(true);
    expect(server.requests).toEqual([]);
    expect(server.answerSpan(0)).toBeUndefined();
    // Checks still run on requests not kept: the refusal is a problem naming the request's index.
    expect(server.problems).toEqual([expect.objectContaining({ kind: 'unknown-route', requestIndex: 1 })]);
    server.tolerate('unknown-route', 'the second request goes to a path the mock does not serve');
  });

  it('refuses a duration that is negative or not a number', () => {
    const script = sse(assistantMessage('hi'), completed());

    expect(() => paced(script, { overMs: -1 })).toThrow(expect.objectContaining({ code: 'InvalidScript' }));
    expect(() => paced(script, { overMs: Number.NaN })).toThrow('finite, non-negative overMs');
    expect(paced(script, { overMs: 0 })).toEqual({ ...script, pace: { overMs: 0 } });
  });
});
