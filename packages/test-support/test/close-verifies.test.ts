// Closing the server verifies it, so a test that never calls verify() still fails on what went wrong;
// what a test provokes on purpose it declares, with a reason, and closing leaves that out.
import { describe, expect, it } from 'vitest';
import { MockServerError, assistantMessage, completed, sse, startMockResponsesServer } from '../src/index.js';
import { post, responsesBody, userMessage } from './sse-client.js';

describe('close() verifies', () => {
  it('resolves when nothing went wrong', async () => {
    const server = await startMockResponsesServer({ responses: [sse(assistantMessage('hi'), completed())] });
    await post(server.url, responsesBody([userMessage('hello')]));
    await expect(server.close()).resolves.toBeUndefined();
  });

  it('rejects with every problem, after it has stopped listening, and answers the same on every call', async () => {
    const server = await startMockResponsesServer({ responses: [sse(assistantMessage('one'), completed()), sse(assistantMessage('two'), completed())] });
    await post(server.url, responsesBody([userMessage('only one')]));
    await post(server.url.replace('/v1', '/v2'), responsesBody([userMessage('wrong route')]));

    const closing = server.close();
    await expect(closing).rejects.toBeInstanceOf(MockServerError);
    await expect(closing).rejects.toMatchObject({ code: 'VerificationFailed', problems: [{ kind: 'unknown-route' }, { kind: 'unconsumed-response', scriptIndex: 1 }] });
    await expect(closing).rejects.toThrow('mock Responses server: 2 problems (2 requests received, 2 responses scripted, 1 served)');
    await expect(server.close()).rejects.toMatchObject({ code: 'VerificationFailed' });
    await expect(fetch(`${server.url}/responses`, { method: 'POST' })).rejects.toThrow();
  });

  it('rejects when the test leaves an `await using` block', async () => {
    const leave = async (): Promise<void> => {
      await using server = await startMockResponsesServer({ responses: [sse(completed())] });
      expect(server.pendingResponses).toBe(1);
    };
    await expect(leave()).rejects.toMatchObject({ code: 'VerificationFailed', problems: [{ kind: 'unconsumed-response' }] });
  });

  it('leaves out the kinds of problem the test declared, with a reason, and reports the others', async () => {
    const server = await startMockResponsesServer({
      responses: [sse(completed()), sse(completed())],
      tolerate: [{ kind: 'unconsumed-response', reason: 'the second response is a spare the client may not need' }],
    });
    await post(server.url.replace('/v1', '/v2'), responsesBody([userMessage('wrong route')]));
    await post(server.url, responsesBody([userMessage('hello')]));
    await expect(server.close()).rejects.toMatchObject({ problems: [{ kind: 'unknown-route' }] });
  });

  it('leaves out what tolerate() declared, in verify() as well', async () => {
    const server = await startMockResponsesServer({ responses: [sse(completed())] });
    server.tolerate('unconsumed-response', 'this test never sends a request');
    expect(() => server.verify()).not.toThrow();
    await expect(server.close()).resolves.toBeUndefined();
  });

  it('refuses to tolerate without a reason', async () => {
    const server = await startMockResponsesServer();
    expect(() => server.tolerate('unexpected-request', ' ')).toThrow(expect.objectContaining({ code: 'InvalidScript' }));
    await expect(startMockResponsesServer({ tolerate: [{ kind: 'invalid-body', reason: '' }] })).rejects.toMatchObject({ code: 'InvalidScript' });
    await server.close();
  });
});
