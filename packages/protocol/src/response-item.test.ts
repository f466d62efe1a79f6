import { describe, expect, it } from 'vitest';
import {
  ResponseItem,
  ensureResponseItemId,
  isKnownResponseItem,
  responseItemId,
  responseItemMetadata,
  toolCallId,
  toolOutputCallId,
  withResponseItemId,
  withResponseItemMetadata,
  withoutResponseItemMetadata,
} from './response-item.js';

const FIXED_UUID = '0192f0e6-7c1a-7b7e-9d2a-0c9e8b7a6f5d';

/** One sample of every modelled variant plus an unknown one, as the Responses API writes them. */
const samples: Record<string, unknown> = {
  message: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
  assistant: {
    type: 'message',
    role: 'assistant',
    status: 'completed',
    phase: 'final_answer',
    content: [{ type: 'output_text', text: 'done', annotations: [] }],
  },
  developer: { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'rules' }] },
  system: { type: 'message', role: 'system', content: [{ type: 'input_image', image_url: 'data:image/png;base64,AA==' }] },
  reasoning: { type: 'reasoning', summary: [{ type: 'summary_text', text: 'thinking' }], encrypted_content: 'gAAA' },
  function_call: { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"ls"}', call_id: 'call_1' },
  function_call_output: { type: 'function_call_output', call_id: 'call_1', output: 'file.txt\n' },
  custom_tool_call: { type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch', call_id: 'call_2' },
  custom_tool_call_output: {
    type: 'custom_tool_call_output',
    call_id: 'call_2',
    output: [{ type: 'input_text', text: 'Success.' }],
  },
  local_shell_call: {
    type: 'local_shell_call',
    call_id: 'call_3',
    status: 'completed',
    action: { type: 'exec', command: ['ls', '-la'], timeout_ms: 1000 },
  },
  web_search_call: { type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'zod' } },
  compaction: { type: 'compaction', encrypted_content: 'gAAB' },
  context_compaction: { type: 'context_compaction' },
  additional_tools: { type: 'additional_tools', role: 'developer', tools: [{ type: 'function', name: 'x' }] },
  unknown: { type: 'mcp_list_tools', server_label: 'docs', tools: [] },
};

describe('ResponseItem', () => {
  it.each(Object.entries(samples))('parses a %s item and keeps it unchanged', (_name, sample) => {
    expect(ResponseItem.parse(sample)).toEqual(sample);
  });

  it('keeps fields this version does not model', () => {
    const item = { type: 'function_call', name: 'f', arguments: '{}', call_id: 'c', encrypted_function_args: ['x'] };
    expect(ResponseItem.parse(item)).toEqual(item);
  });

  it('rejects a malformed item of a known type instead of treating it as unknown', () => {
    const result = ResponseItem.safeParse({ type: 'function_call', name: 'f', call_id: 'c' });
    expect(result.success).toBe(false);
    expect(ResponseItem.safeParse({ type: 'message', role: 'robot', content: [] }).success).toBe(false);
    expect(ResponseItem.safeParse({ role: 'user' }).success).toBe(false);
  });

  it('reads every input item Codex 0.171.0 sent to the model in the recorded transcripts', async () => {
    const fixture = (await import('../test/fixtures/codex-request-input-items.json', { with: { type: 'json' } })).default;
    expect(fixture.items.length).toBeGreaterThan(30);
    for (const item of fixture.items) {
      const parsed = ResponseItem.parse(item);
      expect(parsed).toEqual(item);
      expect(responseItemId(parsed)).toMatch(/^(msg|at|fco|ctco|fc|ctc)_/);
    }
  });

  it('narrows known items for exhaustive switches', () => {
    const known = ResponseItem.parse(samples.function_call);
    const unknown = ResponseItem.parse(samples.unknown);
    expect(isKnownResponseItem(known)).toBe(true);
    expect(isKnownResponseItem(unknown)).toBe(false);
  });
});

describe('item id helpers', () => {
  it.each(Object.entries(samples))('gets and sets the id of a %s item', (_name, sample) => {
    const item = ResponseItem.parse(sample);
    expect(responseItemId(item)).toBeUndefined();
    const withId = withResponseItemId(item, 'x_1');
    expect(responseItemId(withId)).toBe('x_1');
    expect(responseItemId(item)).toBeUndefined();
    expect(ResponseItem.parse(withId)).toEqual(withId);
  });

  it('mints a type-prefixed id only when the item has none', () => {
    const message = ResponseItem.parse(samples.message);
    expect(responseItemId(ensureResponseItemId(message, () => FIXED_UUID))).toBe(`msg_${FIXED_UUID}`);
    const output = ResponseItem.parse(samples.function_call_output);
    expect(responseItemId(ensureResponseItemId(output, () => FIXED_UUID))).toBe(`fco_${FIXED_UUID}`);
    const named = withResponseItemId(message, 'msg_model_given');
    expect(ensureResponseItemId(named, () => FIXED_UUID)).toBe(named);
  });
});

describe('item metadata', () => {
  it('merges, reads and strips turn_id and source_call_id on any variant', () => {
    for (const sample of Object.values(samples)) {
      const item = ResponseItem.parse(sample);
      const tagged = withResponseItemMetadata(withResponseItemMetadata(item, { turn_id: 't1' }), { source_call_id: 'call_9' });
      expect(responseItemMetadata(tagged)).toEqual({ turn_id: 't1', source_call_id: 'call_9' });
      expect(ResponseItem.parse(tagged)).toEqual(tagged);
      expect(withoutResponseItemMetadata(tagged)).toEqual(item);
    }
  });

  it('rejects metadata of the wrong shape', () => {
    expect(ResponseItem.safeParse({ ...(samples.message as object), metadata: { turn_id: 7 } }).success).toBe(false);
  });
});

describe('tool call pairing', () => {
  it('finds the call id of calls and of outputs', () => {
    expect(toolCallId(ResponseItem.parse(samples.function_call))).toBe('call_1');
    expect(toolCallId(ResponseItem.parse(samples.custom_tool_call))).toBe('call_2');
    expect(toolCallId(ResponseItem.parse(samples.local_shell_call))).toBe('call_3');
    expect(toolCallId(ResponseItem.parse(samples.message))).toBeUndefined();
    expect(toolOutputCallId(ResponseItem.parse(samples.function_call_output))).toBe('call_1');
    expect(toolOutputCallId(ResponseItem.parse(samples.custom_tool_call_output))).toBe('call_2');
    expect(toolOutputCallId(ResponseItem.parse(samples.unknown))).toBeUndefined();
  });
});
