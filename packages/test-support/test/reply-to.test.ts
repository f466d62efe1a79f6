// replyTo: a reply made from the request it answers, and what the server records when making it fails.
import { describe, expect, it } from 'vitest';
import { assistantMessage, completed, replyTo, sse, startMockResponsesServer } from '../src/index.js';
import { post, responsesBody, userMessage } from './sse-client.js';

const lastText = (input: readonly unknown[]) => ((input.at(-1) as { content: { text: string }[] }).content[0]!.text);

describe('replyTo', () => {
  it('makes each reply from its request, in script order', async () => {
    await using server = await startMockResponsesServer({
      responses: [replyTo((request) => sse(assistantMessage(`you said ${lastText(request.body!.input)}`), completed())), sse(assistantMessage('fixed'), completed())],
    });
    const first = await post(server.url, responsesBody([userMessage('apples')]));
    const second = await post(server.url, responsesBody([userMessage('pears')]));
    const texts = [first, second].map((reply) => reply.events.find((event) => event.event === 'response.output_item.done')?.data['item'] as { content: { text: string }[] });
    expect(texts.map((item) => item.content[0]!.text)).toEqual(['you said apples', 'fixed']);
  });

  it('answers 500 and records a server error when the reply cannot be made', async () => {
    await using server = await startMockResponsesServer({
      responses: [
        replyTo(() => {
          throw new Error('no id in this request');
        }),
      ],
    });
    const reply = await post(server.url, responsesBody([userMessage('x')]));
    expect(reply.status).toBe(500);
    expect(server.problems).toEqual([{ kind: 'server-error', requestIndex: 0, scriptIndex: 0, message: 'requests[0] POST /v1/responses: responses[0] could not make its reply: no id in this request' }]);
    server.tolerate('server-error', 'this test provokes it to check how it is reported');
  });
});
