// A real client reads what the server streams: exact events, wire format and id numbering.
import { afterEach, describe, expect, it } from 'vitest';
import {
  assistantMessage,
  completed,
  customToolCall,
  functionCall,
  reasoningItem,
  sse,
  startMockResponsesServer,
} from '../src/index.js';
import type { MockResponsesServer } from '../src/index.js';
import { eventTypes, post, responsesBody, userMessage } from './sse-client.js';

let server: MockResponsesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('streamed responses', () => {
  it('serves an assistant message as the exact Responses event sequence', async () => {
    server = await startMockResponsesServer({
      responses: [sse(assistantMessage(['It printed ', '`hi`.'], { phase: 'final_answer' }), completed())],
    });

    const reply = await post(server.url, responsesBody([userMessage('Run echo hi')]));

    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(reply.events.map((event) => event.data)).toEqual([
      {
        type: 'response.created',
        response: { id: 'resp_mock_0001', object: 'response', status: 'in_progress', model: 'gpt-5.5', output: [] },
        sequence_number: 0,
      },
      {
        type: 'response.output_item.added',
        item: { type: 'message', id: 'msg_mock_0001', status: 'in_progress', role: 'assistant', content: [], phase: 'final_answer' },
        output_index: 0,
        sequence_number: 1,
      },
      {
        type: 'response.output_text.delta',
        item_id: 'msg_mock_0001',
        content_index: 0,
        delta: 'It printed ',
        output_index: 0,
        sequence_number: 2,
      },
      {
        type: 'response.output_text.delta',
        item_id: 'msg_mock_0001',
        content_index: 0,
        delta: '`hi`.',
        output_index: 0,
        sequence_number: 3,
      },
      {
        type: 'response.output_item.done',
        item: {
          type: 'message',
          id: 'msg_mock_0001',
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'It printed `hi`.', annotations: [] }],
          phase: 'final_answer',
        },
        output_index: 0,
        sequence_number: 4,
      },
      {
        type: 'response.completed',
        response: {
          id: 'resp_mock_0001',
          object: 'response',
          status: 'completed',
          usage: {
            input_tokens: 100,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: 10,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: 110,
          },
          model: 'gpt-5.5',
          output: [
            {
              type: 'message',
              id: 'msg_mock_0001',
              status: 'completed',
              role: 'assistant',
              content: [{ type: 'output_text', text: 'It printed `hi`.', annotations: [] }],
              phase: 'final_answer',
            },
          ],
        },
        sequence_number: 5,
      },
    ]);
    expect(reply.events.every((event) => event.event === event.data.type)).toBe(true);
    server.verify();
  });

  it('writes each event as an `event:` line, a `data:` line and a blank line', async () => {
    server = await startMockResponsesServer({ responses: [sse(completed())] });

    const reply = await post(server.url, responsesBody([userMessage('hi')]));

    const frames = reply.rawText.split('\n\n').filter((frame) => frame !== '');
    expect(frames).toHaveLength(2);
    expect(frames[0]).toMatch(/^event: response\.created\ndata: \{"type":"response\.created",.*"sequence_number":0\}$/);
    expect(frames[1]).toMatch(/^event: response\.completed\ndata: \{"type":"response\.completed",.*"sequence_number":1\}$/);
    expect(reply.rawText.endsWith('\n\n')).toBe(true);
  });

  it('numbers items, calls and responses per server, in the order Codex recordings show', async () => {
    server = await startMockResponsesServer({
      responses: [
        sse(functionCall('exec_command', { cmd: 'echo hi' }), completed()),
        sse(assistantMessage('It printed `hi`.'), completed()),
      ],
    });

    const first = await post(server.url, responsesBody([userMessage('Run echo hi')]));
    const call = first.events.find((event) => event.event === 'response.output_item.done')?.data.item;
    expect(call).toEqual({
      type: 'function_call',
      id: 'fc_mock_0001',
      call_id: 'call_mock_0002',
      name: 'exec_command',
      arguments: '{"cmd":"echo hi"}',
      status: 'completed',
    });

    const second = await post(
      server.url,
      responsesBody([
        userMessage('Run echo hi'),
        call,
        { type: 'function_call_output', call_id: 'call_mock_0002', output: 'hi\n' },
      ]),
    );
    const message = second.events.find((event) => event.event === 'response.output_item.done')?.data.item;
    expect(message).toMatchObject({ type: 'message', id: 'msg_mock_0003' });
    expect(second.events.at(-1)?.data).toMatchObject({ type: 'response.completed', response: { id: 'resp_mock_0002' } });
    server.verify();

    // A fresh server numbers from 1 again, so captures do not depend on test order.
    await using other = await startMockResponsesServer({ responses: [sse(assistantMessage('again'), completed())] });
    const again = await post(other.url, responsesBody([userMessage('hi')]));
    expect(again.events[1]?.data).toMatchObject({ item: { id: 'msg_mock_0001' } });
  });

  it('gives every item of a response its own output_index and lists them on response.completed', async () => {
    server = await startMockResponsesServer({
      responses: [
        sse(
          reasoningItem(['Checking ', 'the patch.'], { encryptedContent: 'opaque' }),
          assistantMessage('Applying it.', { phase: 'commentary' }),
          customToolCall('apply_patch', '*** Begin Patch\n*** End Patch\n', { callId: 'call_patch' }),
          completed({ usage: { inputTokens: 5000, cachedTokens: 4000, outputTokens: 50, reasoningTokens: 20 } }),
        ),
      ],
    });

    const reply = await post(server.url, responsesBody([userMessage('patch it')]));

    expect(eventTypes(reply)).toEqual([
      'response.created',
      'response.output_item.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
      'response.output_item.done',
      'response.output_item.added',
      'response.output_text.delta',
      'response.output_item.done',
      'response.output_item.added',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(reply.events.map((event) => event.data.output_index)).toEqual([undefined, 0, 0, 0, 0, 1, 1, 1, 2, 2, undefined]);
    expect(reply.events[2]?.data).toMatchObject({ item_id: 'rs_mock_0001', summary_index: 0, delta: 'Checking ' });
    const response = reply.events.at(-1)?.data.response as { output: unknown[]; usage: unknown };
    expect(response.output).toEqual([
      { type: 'reasoning', id: 'rs_mock_0001', summary: [{ type: 'summary_text', text: 'Checking the patch.' }], encrypted_content: 'opaque' },
      {
        type: 'message',
        id: 'msg_mock_0002',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Applying it.', annotations: [] }],
        phase: 'commentary',
      },
      { type: 'custom_tool_call', id: 'ctc_mock_0003', call_id: 'call_patch', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch\n', status: 'completed' },
    ]);
    expect(response.usage).toEqual({
      input_tokens: 5000,
      input_tokens_details: { cached_tokens: 4000 },
      output_tokens: 50,
      output_tokens_details: { reasoning_tokens: 20 },
      total_tokens: 5050,
    });
  });

  it('adds the headers a script gives to the event stream', async () => {
    server = await startMockResponsesServer({
      responses: [{ ...sse(completed()), headers: { 'x-codex-primary-used-percent': '12.5' } }],
    });

    const reply = await post(server.url, responsesBody([userMessage('hi')]));

    expect(reply.headers.get('x-codex-primary-used-percent')).toBe('12.5');
    expect(reply.headers.get('content-type')).toMatch(/^text\/event-stream/);
  });
});
