// What the server refuses: unknown routes, oversized or malformed bodies, non-streaming requests;
// and how it is shut down.
import { describe, expect, it } from 'vitest';
import { completed, DEFAULT_MAX_BODY_BYTES, sse, startMockResponsesServer } from '../src/index.js';
import { post, responsesBody, userMessage } from './sse-client.js';

describe('routing and limits', () => {
  it('answers 404 for any other route and records it', async () => {
    await using server = await startMockResponsesServer();

    const models = await post(server.url, undefined, { path: '/models', method: 'GET' });
    const wrongMethod = await post(server.url, undefined, { path: '/responses', method: 'GET' });

    expect([models.status, wrongMethod.status]).toEqual([404, 404]);
    expect(server.problems).toEqual([
      { kind: 'unknown-route', requestIndex: 0, message: 'requests[0] GET /v1/models: unknown route; the mock answers only POST /v1/responses' },
      { kind: 'unknown-route', requestIndex: 1, message: 'requests[1] GET /v1/responses: unknown route; the mock answers only POST /v1/responses' },
    ]);
    expect(server.requests.map((request) => request.path)).toEqual(['/v1/models', '/v1/responses']);
    server.tolerate('unknown-route', 'this test provokes it to check how it is reported');
  });

  it('answers 413 for a body over the limit, without keeping it', async () => {
    await using server = await startMockResponsesServer({ maxBodyBytes: 1024, responses: [sse(completed())] });

    const reply = await post(server.url, responsesBody([userMessage('x'.repeat(4096))]));

    expect(reply.status).toBe(413);
    expect(server.requests[0]?.rawBody).toBe('');
    expect(server.requests[0]?.bodyBytes).toBeGreaterThan(4096);
    expect(server.problems.map((problem) => problem.kind)).toEqual(['body-too-large']);
    // The refused request did not use up the scripted response.
    expect(server.pendingResponses).toBe(1);
    expect(DEFAULT_MAX_BODY_BYTES).toBe(32 * 1024 * 1024);
    server.tolerate('body-too-large', 'this test provokes it to check how it is reported');
    server.tolerate('unconsumed-response', 'the response is scripted only to show that refused requests do not use it up');
  });

  it('answers 400 for a body that is not a streaming Responses request', async () => {
    await using server = await startMockResponsesServer({ responses: [sse(completed())] });

    const notJson = await post(server.url, '{"model":');
    const noInput = await post(server.url, { model: 'gpt-5.5', stream: true });
    const notStreaming = await post(server.url, responsesBody([userMessage('hi')], { stream: false }));

    expect([notJson.status, noInput.status, notStreaming.status]).toEqual([400, 400, 400]);
    const messages = server.problems.map((problem) => problem.message);
    expect(messages[0]).toMatch(/^requests\[0\] POST \/v1\/responses: the body is not JSON/);
    expect(messages[1]).toMatch(/input/);
    expect(messages[2]).toBe('requests[2] POST /v1/responses: the mock serves only `stream: true` requests');
    expect(server.pendingResponses).toBe(1);
    server.tolerate('invalid-body', 'this test provokes it to check how it is reported');
    server.tolerate('unconsumed-response', 'the response is scripted only to show that refused requests do not use it up');
  });

  it('closes idempotently and refuses new scripts afterwards', async () => {
    const server = await startMockResponsesServer();

    await Promise.all([server.close(), server.close()]);

    expect(() => server.expect([sse(completed())])).toThrow(expect.objectContaining({ code: 'ServerClosed' }));
    await expect(fetch(`${server.url}/responses`, { method: 'POST' })).rejects.toThrow();
  });
});
