import { ResponseItem } from '@skein/protocol';
import { describe, expect, it } from 'vitest';
import { findModelInfo } from './model-catalog.js';
import { buildResponsesBody, type SamplingRequest } from './responses-request.js';

const user = ResponseItem.parse({
  type: 'message',
  id: 'msg_1',
  role: 'user',
  content: [{ type: 'input_text', text: 'Say hello.' }],
  metadata: { turn_id: 't1' },
});

const base: SamplingRequest = {
  model: findModelInfo('gpt-5.5'),
  input: [user],
  tools: [{ type: 'function', name: 'exec_command', parameters: { type: 'object' } }],
  promptCacheKey: 'thread-1',
  clientMetadata: { thread_id: 'thread-1' },
  stripItemMetadata: false,
};

describe('buildResponsesBody', () => {
  it('has the key set and order Codex 0.171.0 sends for gpt-5.5', () => {
    const body = buildResponsesBody(base);
    // Recorded in shared/reference/codex-transcripts/a2_plain_reply_gpt55.json.
    expect(Object.keys(body)).toEqual([
      'model', 'stream', 'input', 'tools', 'tool_choice', 'parallel_tool_calls', 'reasoning', 'store', 'include', 'prompt_cache_key', 'text', 'client_metadata',
    ]);
    expect(body).toMatchObject({
      model: 'gpt-5.5',
      stream: true,
      tool_choice: 'auto',
      parallel_tool_calls: true,
      reasoning: { effort: 'medium' },
      store: false,
      include: ['reasoning.encrypted_content'],
      prompt_cache_key: 'thread-1',
      text: { verbosity: 'low' },
    });
    expect(body).not.toHaveProperty('instructions');
  });

  it('names a requested service tier right after stream, as Codex 0.171.0 orders it', () => {
    const body = buildResponsesBody({ ...base, serviceTier: 'priority' });
    expect(Object.keys(body).slice(0, 4)).toEqual(['model', 'stream', 'service_tier', 'input']);
    expect(body['service_tier']).toBe('priority');
    expect(buildResponsesBody(base)).not.toHaveProperty('service_tier');
  });

  it('puts an output schema in text.format beside the verbosity', () => {
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false };
    expect(buildResponsesBody({ ...base, outputSchema: schema }).text).toEqual({
      verbosity: 'low',
      format: { type: 'json_schema', strict: true, schema, name: 'codex_output_schema' },
    });
  });

  it('applies effort and summary overrides', () => {
    expect(buildResponsesBody({ ...base, reasoningEffort: 'xhigh', reasoningSummary: 'auto' }).reasoning).toEqual({ effort: 'xhigh', summary: 'auto' });
    expect(buildResponsesBody({ ...base, reasoningSummary: 'none' }).reasoning).toEqual({ effort: 'medium' });
  });

  it('keeps item metadata for OpenAI and strips it for other providers', () => {
    expect(buildResponsesBody(base).input).toEqual([user]);
    const stripped = buildResponsesBody({ ...base, stripItemMetadata: true }).input as Record<string, unknown>[];
    expect(stripped[0]).not.toHaveProperty('metadata');
    expect(stripped[0]).toMatchObject({ id: 'msg_1', role: 'user' });
  });

  it('leaves out reasoning, verbosity and tools for a model that has none of them', () => {
    const body = buildResponsesBody({ ...base, model: findModelInfo('llama-local'), tools: [] });
    expect(body).not.toHaveProperty('reasoning');
    expect(body).not.toHaveProperty('text');
    expect(body).not.toHaveProperty('tools');
    expect(body).toMatchObject({ include: [], parallel_tool_calls: false });
  });
});
