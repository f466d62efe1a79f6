// The item builders: which events they produce and how ids are shared between them.
import { describe, expect, it } from 'vitest';
import { DeferredId } from './deferred-id.js';
import { assistantMessage, customToolCall, functionCall, reasoningItem } from './sse-items.js';

describe('item builders', () => {
  it('builds an assistant message as added, one delta per piece, done', () => {
    const events = assistantMessage(['a', 'b']);

    expect(events.map((event) => event.type)).toEqual([
      'response.output_item.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_item.done',
    ]);
    expect(events[3]).toMatchObject({ item: { content: [{ type: 'output_text', text: 'ab', annotations: [] }] } });
  });

  it('uses one deferred id for every event of an item', () => {
    const [added, delta, done] = assistantMessage('hi');
    const id = (added?.item as { id: unknown }).id;

    expect(id).toBeInstanceOf(DeferredId);
    expect(delta?.item_id).toBe(id);
    expect((done?.item as { id: unknown }).id).toBe(id);
  });

  it('sends no delta for an empty message and keeps a given id and phase', () => {
    expect(assistantMessage('', { id: 'msg_fixed', phase: 'commentary' })).toEqual([
      { type: 'response.output_item.added', item: { type: 'message', id: 'msg_fixed', status: 'in_progress', role: 'assistant', content: [], phase: 'commentary' } },
      {
        type: 'response.output_item.done',
        item: {
          type: 'message',
          id: 'msg_fixed',
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text: '', annotations: [] }],
          phase: 'commentary',
        },
      },
    ]);
  });

  it('builds a reasoning item whose summary streams and ends as summary_text', () => {
    expect(reasoningItem(['Think', 'ing'], { id: 'rs_1' })).toEqual([
      { type: 'response.output_item.added', item: { type: 'reasoning', id: 'rs_1', summary: [] } },
      { type: 'response.reasoning_summary_text.delta', item_id: 'rs_1', summary_index: 0, delta: 'Think' },
      { type: 'response.reasoning_summary_text.delta', item_id: 'rs_1', summary_index: 0, delta: 'ing' },
      { type: 'response.output_item.done', item: { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Thinking' }] } },
    ]);
  });

  it('JSON-encodes object arguments of a function call and passes string arguments through', () => {
    const [, done] = functionCall('exec_command', { cmd: 'ls', workdir: '/tmp' }, { id: 'fc_1', callId: 'call_1' });
    const [, raw] = functionCall('exec_command', '{not json', { callId: 'call_2' });

    expect(done).toEqual({
      type: 'response.output_item.done',
      item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'exec_command', arguments: '{"cmd":"ls","workdir":"/tmp"}', status: 'completed' },
    });
    expect(raw?.item).toMatchObject({ arguments: '{not json', call_id: 'call_2' });
  });

  it('builds a custom tool call with its raw input only on the finished item', () => {
    const [added, done] = customToolCall('apply_patch', 'patch text', { id: 'ctc_1', callId: 'call_1' });

    expect(added?.item).toEqual({ type: 'custom_tool_call', id: 'ctc_1', call_id: 'call_1', name: 'apply_patch', input: '', status: 'in_progress' });
    expect(done?.item).toEqual({ type: 'custom_tool_call', id: 'ctc_1', call_id: 'call_1', name: 'apply_patch', input: 'patch text', status: 'completed' });
  });
});
