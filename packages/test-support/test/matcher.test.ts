// A scripted response can say which request it is for; a request that does not fit gets a 500.
import { afterEach, describe, expect, it } from 'vitest';
import { assistantMessage, completed, matching, sse, startMockResponsesServer } from '../src/index.js';
import type { MockResponsesServer } from '../src/index.js';
import { post, responsesBody, userMessage } from './sse-client.js';

let server: MockResponsesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('request matchers', () => {
  it('serves the response when the request contains the partial body', async () => {
    server = await startMockResponsesServer({
      responses: [matching({ model: 'gpt-5.5', stream: true, input: [{ role: 'user' }] }, sse(assistantMessage('hi'), completed()))],
    });

    const reply = await post(server.url, responsesBody([userMessage('hello')]));

    expect(reply.status).toBe(200);
    server.verify();
  });

  it('answers HTTP 500 naming the first difference when the partial body does not match', async () => {
    server = await startMockResponsesServer({
      responses: [matching({ reasoning: { effort: 'medium' } }, sse(completed()))],
    });

    const reply = await post(server.url, responsesBody([userMessage('hello')], { reasoning: { effort: 'low' } }));

    expect(reply.status).toBe(500);
    const expected = 'requests[0] POST /v1/responses does not match responses[0]: body.reasoning.effort: expected "medium", got "low"';
    expect(JSON.parse(reply.rawText)).toEqual({
      error: { message: expected, type: 'mock_server_error', param: null, code: 'mock_matcher_mismatch' },
    });
    expect(server.problems).toEqual([{ kind: 'matcher-mismatch', requestIndex: 0, scriptIndex: 0, message: expected }]);
    expect(() => server?.verify()).toThrow(expected);
    server.tolerate('matcher-mismatch', 'this test provokes it to check how it is reported');
  });

  it('uses a predicate on the captured request', async () => {
    server = await startMockResponsesServer({
      responses: [
        matching((request) => request.messageTexts('user').includes('first'), sse(completed())),
        matching(function asksForSecond(request) {
          return request.messageTexts('user').includes('second');
        }, sse(completed())),
      ],
    });

    const first = await post(server.url, responsesBody([userMessage('first')]));
    const second = await post(server.url, responsesBody([userMessage('not second')]));

    expect(first.status).toBe(200);
    expect(second.status).toBe(500);
    expect(server.problems.map((problem) => problem.message)).toEqual([
      'requests[1] POST /v1/responses does not match responses[1]: the predicate asksForSecond returned false',
    ]);
    server.tolerate('matcher-mismatch', 'this test provokes it to check how it is reported');
  });

  it('reports the message of a predicate that throws', async () => {
    server = await startMockResponsesServer({
      responses: [
        matching((request) => {
          if (request.header('session-id') === undefined) throw new Error('no session-id header');
          return true;
        }, sse(completed())),
      ],
    });

    await post(server.url, responsesBody([userMessage('hello')]));

    expect(server.problems[0]?.message).toContain('the predicate threw: no session-id header');
    server.tolerate('matcher-mismatch', 'this test provokes it to check how it is reported');
  });

  it('consumes the mismatched response, so the next request gets the next one', async () => {
    server = await startMockResponsesServer({
      responses: [matching({ model: 'other' }, sse(completed())), sse(assistantMessage('second'), completed())],
    });

    await post(server.url, responsesBody([userMessage('one')]));
    const next = await post(server.url, responsesBody([userMessage('two')]));

    expect(next.status).toBe(200);
    expect(server.pendingResponses).toBe(0);
    expect(server.problems.map((problem) => problem.kind)).toEqual(['matcher-mismatch']);
    server.tolerate('matcher-mismatch', 'this test provokes it to check how it is reported');
  });
});
