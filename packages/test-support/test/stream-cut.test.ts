// A stream cut mid-response: the client gets the events before the cut and never a terminal event.
import { afterEach, describe, expect, it } from 'vitest';
import { assistantMessage, completed, functionCall, sse, startMockResponsesServer, streamCut } from '../src/index.js';
import type { MockResponsesServer } from '../src/index.js';
import { eventTypes, post, responsesBody, userMessage } from './sse-client.js';

let server: MockResponsesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('stream cut', () => {
  it('ends the stream after the events before the cut, without response.completed', async () => {
    server = await startMockResponsesServer({ responses: [sse(assistantMessage(['Hel', 'lo']), streamCut())] });

    const reply = await post(server.url, responsesBody([userMessage('hi')]));

    expect(reply.status).toBe(200);
    expect(reply.streamError).toBeUndefined();
    expect(eventTypes(reply)).toEqual([
      'response.created',
      'response.output_item.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_item.done',
    ]);
    expect(reply.headers.get('connection')).toBe('close');
    server.verify();
  });

  it('resets the connection mid-body when asked, so the client sees a transport error', async () => {
    server = await startMockResponsesServer({ responses: [sse(assistantMessage('Hel'), streamCut({ reset: true }))] });

    const reply = await post(server.url, responsesBody([userMessage('hi')]));

    expect(reply.streamError).toBeInstanceOf(Error);
    expect(eventTypes(reply)).toEqual(['response.created', 'response.output_item.added', 'response.output_text.delta', 'response.output_item.done']);
    server.verify();
  });

  it('does not expect outputs for tool calls of a response that was cut', async () => {
    server = await startMockResponsesServer({
      responses: [sse(functionCall('exec_command', { cmd: 'ls' }), streamCut()), sse(assistantMessage('retried'), completed())],
    });

    await post(server.url, responsesBody([userMessage('list files')]));
    // The client retries the turn from its history, which never got the cut call.
    await post(server.url, responsesBody([userMessage('list files')]));

    server.verify();
  });

  it('refuses a script with steps after the cut', () => {
    expect(() => sse(streamCut(), completed())).toThrow(expect.objectContaining({ code: 'InvalidScript' }));
  });
});
