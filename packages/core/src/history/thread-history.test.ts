import { ResponseItem } from '@skein/protocol';
import { describe, expect, it } from 'vitest';
import { ThreadHistory } from './thread-history.js';
import { approximateTokens, truncateMiddle } from './truncate-output.js';

const UUIDS = ['0192f0e6-7c1a-7b7e-9d2a-000000000001', '0192f0e6-7c1a-7b7e-9d2a-000000000002', '0192f0e6-7c1a-7b7e-9d2a-000000000003'];
function history(limit = 1000): ThreadHistory {
  let next = 0;
  return new ThreadHistory({ toolOutputTokenLimit: limit, uuid: () => UUIDS[next++ % UUIDS.length]! });
}
const item = (value: unknown) => ResponseItem.parse(value);
const userMessage = item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] });
const call = item({ type: 'function_call', id: 'fc_server_1', name: 'exec_command', arguments: '{}', call_id: 'call_1' });
const customCall = item({ type: 'custom_tool_call', name: 'apply_patch', input: 'x', call_id: 'call_2' });

describe('ThreadHistory.record', () => {
  it('assigns type-prefixed UUIDv7 ids to items without one and keeps ids the server sent', () => {
    const recorded = history().record([userMessage, call, item({ type: 'function_call_output', call_id: 'call_1', output: 'ok' })], 'turn-1');
    expect(recorded.map((entry) => entry.id)).toEqual([`msg_${UUIDS[0]}`, 'fc_server_1', `fco_${UUIDS[1]}`]);
  });

  it('tags every item with its turn', () => {
    const recorded = history().record([userMessage, call], 'turn-7');
    expect(recorded.map((entry) => entry.metadata)).toEqual([{ turn_id: 'turn-7' }, { turn_id: 'turn-7' }]);
  });

  it('cuts the middle of a tool output over the budget and says how much was removed', () => {
    const long = `${'a'.repeat(4000)}${'b'.repeat(4000)}`;
    const [output] = history(100).record([item({ type: 'function_call_output', call_id: 'call_1', output: long })], 't');
    const text = (output as { output: string }).output;
    expect(text.startsWith('a'.repeat(200))).toBe(true);
    expect(text.endsWith('b'.repeat(200))).toBe(true);
    expect(text).toMatch(/…1900 tokens truncated…/);
    const [parts] = history(10).record([item({ type: 'custom_tool_call_output', call_id: 'c', output: [{ type: 'input_text', text: 'x'.repeat(400) }] })], 't');
    expect(approximateTokens(JSON.stringify((parts as { output: unknown }).output))).toBeLessThan(40);
  });
});

describe('truncateMiddle', () => {
  it('leaves text within the budget alone and never splits a character', () => {
    expect(truncateMiddle('short', 10)).toBe('short');
    const cut = truncateMiddle('é'.repeat(100), 5);
    expect(cut).not.toContain('\uFFFD');
    expect(cut).toMatch(/^é+…\d+ tokens truncated…é+$/);
    // A four-byte character cut at either end is dropped whole, never half-decoded.
    for (const budget of [1, 2, 3, 5, 7]) expect(truncateMiddle('😀'.repeat(10), budget)).not.toContain('\uFFFD');
  });
});

describe('tool call pairing', () => {
  it('records an aborted output for each call still waiting, matching the call kind', () => {
    const thread = history();
    thread.record([userMessage, call, customCall], 't1');
    expect(thread.pendingCalls().map((entry) => entry.id)).toEqual(['fc_server_1', `ctc_${UUIDS[1]}`]);
    const outputs = thread.recordAborted('t1', 3.25);
    expect(outputs.map(({ type, call_id, output }) => ({ type, call_id, output }))).toEqual([
      { type: 'function_call_output', call_id: 'call_1', output: 'Wall time: 3.3 seconds\naborted by user' },
      // Only commands report in their output layout; other tools say how long they ran.
      { type: 'custom_tool_call_output', call_id: 'call_2', output: 'aborted by user after 3.3s' },
    ]);
    expect(thread.pendingCalls()).toEqual([]);
  });

  it('answers unanswered calls and drops orphan outputs in the prompt view, without changing history', () => {
    const thread = history();
    thread.record([call, item({ type: 'function_call_output', call_id: 'gone', output: 'x' })], 't');
    const prompt = thread.forPrompt();
    expect(prompt.map((entry) => entry.type)).toEqual(['function_call', 'function_call_output']);
    expect(prompt[1]).toMatchObject({ call_id: 'call_1', output: 'aborted' });
    expect(thread.items).toHaveLength(2);
  });
});
