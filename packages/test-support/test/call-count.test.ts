// Each scripted response is served to exactly one request; verify() reports any difference.
import { afterEach, describe, expect, it } from 'vitest';
import { assistantMessage, completed, httpError, MockServerError, sse, startMockResponsesServer } from '../src/index.js';
import type { MockResponsesServer } from '../src/index.js';
import { post, responsesBody, userMessage } from './sse-client.js';

let server: MockResponsesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function verifyError(mock: MockResponsesServer): MockServerError {
  try {
    mock.verify();
  } catch (error) {
    if (error instanceof MockServerError) return error;
    throw error;
  }
  throw new Error('verify() did not throw');
}

describe('call-count expectations', () => {
  it('passes verify when every scripted response was requested once', async () => {
    server = await startMockResponsesServer({ responses: [sse(assistantMessage('one'), completed())] });
    server.expect([sse(assistantMessage('two'), completed())]);

    await post(server.url, responsesBody([userMessage('first')]));
    await post(server.url, responsesBody([userMessage('second')]));

    expect(server.pendingResponses).toBe(0);
    expect(() => server?.verify()).not.toThrow();
  });

  it('reports a scripted response that was never requested', async () => {
    server = await startMockResponsesServer({
      responses: [sse(assistantMessage('one'), completed()), httpError(503)],
    });

    await post(server.url, responsesBody([userMessage('only one')]));

    const error = verifyError(server);
    expect(error.code).toBe('VerificationFailed');
    expect(error.problems).toEqual([
      { kind: 'unconsumed-response', scriptIndex: 1, message: 'responses[1] (HTTP 503) was never requested' },
    ]);
    expect(error.message).toContain('1 problem (1 request received, 2 responses scripted, 1 served)');
    server.tolerate('unconsumed-response', 'this test provokes it to check how it is reported');
  });

  it('answers an extra request with HTTP 500 and reports it', async () => {
    server = await startMockResponsesServer({ responses: [sse(assistantMessage('one'), completed())] });

    await post(server.url, responsesBody([userMessage('first')]));
    const extra = await post(server.url, responsesBody([userMessage('second')]));

    expect(extra.status).toBe(500);
    expect(JSON.parse(extra.rawText)).toMatchObject({ error: { code: 'mock_unexpected_request' } });
    const error = verifyError(server);
    expect(error.problems).toEqual([
      {
        kind: 'unexpected-request',
        requestIndex: 1,
        message: 'requests[1] POST /v1/responses: unexpected request, no scripted response left (1 scripted, all served)',
      },
    ]);
    expect(server.requests).toHaveLength(2);
    server.tolerate('unexpected-request', 'this test provokes it to check how it is reported');
  });

  it('reports a request to a server that had nothing scripted', async () => {
    server = await startMockResponsesServer();

    const reply = await post(server.url, responsesBody([userMessage('hello?')]));

    expect(reply.status).toBe(500);
    expect(verifyError(server).problems.map((problem) => problem.kind)).toEqual(['unexpected-request']);
    server.tolerate('unexpected-request', 'this test provokes it to check how it is reported');
  });

  it('lists every problem in one verify message', async () => {
    server = await startMockResponsesServer({ responses: [] });

    await post(server.url, responsesBody([userMessage('extra')]));
    server.expect([sse(completed())]);

    const error = verifyError(server);
    // The early request found nothing scripted; the response scripted later was never requested.
    expect(error.problems.map((problem) => problem.kind)).toEqual(['unexpected-request', 'unconsumed-response']);
    expect(error.message.split('\n')).toHaveLength(3);
    server.tolerate('unexpected-request', 'this test provokes it to check how it is reported');
    server.tolerate('unconsumed-response', 'this test provokes it to check how it is reported');
  });
});
