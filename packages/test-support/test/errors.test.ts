// Scripted failures: HTTP errors with their headers, and a stream that ends in response.failed.
import { afterEach, describe, expect, it } from 'vitest';
import { assistantMessage, completed, failed, httpError, sse, startMockResponsesServer } from '../src/index.js';
import type { MockResponsesServer } from '../src/index.js';
import { eventTypes, post, responsesBody, userMessage } from './sse-client.js';

let server: MockResponsesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('scripted failures', () => {
  it('answers a scripted HTTP error with its JSON body and headers', async () => {
    const body = { error: { message: 'Rate limit reached.', type: 'requests', param: null, code: 'rate_limit_exceeded' } };
    server = await startMockResponsesServer({
      responses: [httpError(429, { body, headers: { 'retry-after': '2' } }), sse(assistantMessage('after retry'), completed())],
    });

    const limited = await post(server.url, responsesBody([userMessage('hi')]));
    const retried = await post(server.url, responsesBody([userMessage('hi')]));

    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    expect(limited.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(limited.rawText)).toEqual(body);
    expect(retried.status).toBe(200);
    server.verify();
  });

  it('gives a scripted HTTP error an OpenAI-style body by default', async () => {
    server = await startMockResponsesServer({ responses: [httpError(500)] });

    const reply = await post(server.url, responsesBody([userMessage('hi')]));

    expect(reply.status).toBe(500);
    expect(JSON.parse(reply.rawText)).toEqual({
      error: { message: 'The mock server was scripted to answer HTTP 500.', type: 'mock_scripted_error', param: null, code: null },
    });
    server.verify();
  });

  it('streams response.failed with the error code and message', async () => {
    server = await startMockResponsesServer({
      responses: [sse(assistantMessage('partial'), failed('context_length_exceeded', 'The input is longer than the context window.'))],
    });

    const reply = await post(server.url, responsesBody([userMessage('hi')]));

    expect(eventTypes(reply)).toEqual([
      'response.created',
      'response.output_item.added',
      'response.output_text.delta',
      'response.output_item.done',
      'response.failed',
    ]);
    expect(reply.events.at(-1)?.data).toMatchObject({
      type: 'response.failed',
      response: {
        id: 'resp_mock_0001',
        status: 'failed',
        error: { code: 'context_length_exceeded', message: 'The input is longer than the context window.' },
      },
      sequence_number: 4,
    });
    server.verify();
  });
});
