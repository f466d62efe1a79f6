import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KNOWN_ROLLOUT_LINE_TYPES, parseRolloutLine, rolloutItemProblem, serializeRolloutLine, type RolloutItem } from './rollout-line.js';

const ID = '01a22c4d-ffd3-7ce3-89c0-3f95d4b0798b';
const envelope = { timestamp: '2026-11-30T11:53:59.036Z', ordinal: 4 };

const EXAMPLES: Record<(typeof KNOWN_ROLLOUT_LINE_TYPES)[number], RolloutItem> = {
  session_meta: { type: 'session_meta', payload: { id: ID, timestamp: 't', cwd: '/w' } },
  response_item: {
    type: 'response_item',
    payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
    metadata: { history_sequence: 3, sampled_through_sequence: 0, client_authored: false, mcp_attribution: { status: 'none' } },
  },
  turn_context: { type: 'turn_context', payload: { turn_id: 't1', cwd: '/w', model: 'gpt-5.5', comp_hash: '2911' } },
  compacted: { type: 'compacted', payload: { message: 'summary', replacement_history: [] } },
  event_msg: { type: 'event_msg', payload: { type: 'task_complete', turn_id: 't1' } },
  world_state: { type: 'world_state', payload: { full: true, state: { model: 'gpt-5.5' } } },
  token_usage_record: { type: 'token_usage_record', payload: { response_id: 'r', usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3 } } },
  inter_agent_communication: { type: 'inter_agent_communication', payload: { author: '/root', recipient: '/root/a', content: 'x', trigger_turn: true } },
  inter_agent_communication_metadata: { type: 'inter_agent_communication_metadata', payload: { trigger_turn: false } },
  realtime_item: { type: 'realtime_item', payload: { id: 'i1', realtime_session_id: 's1', observed_at_ms: 1, type: 'frame', channels: { voice_transcript: { role: 'user', text: 'hi' } } } },
  skein_extension_state: { type: 'skein_extension_state', payload: { extension_id: 'notes', key: 'list', value: ['a', { b: null }] } },
};

describe('parseRolloutLine', () => {
  it.each(KNOWN_ROLLOUT_LINE_TYPES)('parses a %s line with its schema', (type) => {
    const value = { ...envelope, ...EXAMPLES[type] };
    const parsed = parseRolloutLine(value);
    expect(parsed).toEqual({ ok: true, line: value });
  });

  it('keeps a line of an unknown type whole', () => {
    const value = { ...envelope, type: 'spine_transition', payload: { any: ['thing'] }, extra: 1 };
    expect(parseRolloutLine(value)).toEqual({ ok: true, line: value });
  });

  it('returns the value exactly as it came, key order included', () => {
    const value = { payload: { cwd: '/w', zzz: 1, id: ID, timestamp: 't' }, type: 'session_meta', timestamp: 't', ordinal: 0 };
    const parsed = parseRolloutLine(value);
    expect(parsed.ok && JSON.stringify(parsed.line)).toBe(JSON.stringify(value));
  });

  it('reads lines without an ordinal (files from before paginated history)', () => {
    expect(parseRolloutLine({ timestamp: 't', ...EXAMPLES.turn_context }).ok).toBe(true);
  });

  it('names the field that is wrong in a known line type', () => {
    const parsed = parseRolloutLine({ ...envelope, type: 'turn_context', payload: { cwd: '/w' } });
    expect(parsed).toEqual({ ok: false, message: expect.stringContaining('turn_context: payload.model') as string });
    expect(parseRolloutLine({ ordinal: 1, type: 'event_msg', payload: { type: 'x' } })).toEqual({ ok: false, message: expect.stringContaining('timestamp') as string });
    expect(parseRolloutLine({ ...envelope, type: 3 }).ok).toBe(false);
    expect(parseRolloutLine({ ...envelope, ordinal: -1, ...EXAMPLES.event_msg }).ok).toBe(false);
  });

  it('checks items for the writer the same way', () => {
    expect(rolloutItemProblem(EXAMPLES.compacted)).toBeUndefined();
    expect(rolloutItemProblem({ type: 'compacted', payload: {} })).toMatch(/message/);
    expect(rolloutItemProblem(null)).toMatch(/type/);
  });
});

describe('serializeRolloutLine', () => {
  it('puts the envelope first, as Codex writes it', () => {
    const text = serializeRolloutLine(envelope, EXAMPLES.response_item);
    expect(text.startsWith('{"timestamp":"2026-11-30T11:53:59.036Z","ordinal":4,"type":"response_item","payload":')).toBe(true);
    expect(text).toContain('},"metadata":{"history_sequence":3,');
  });

  it('omits the ordinal when it has none and never lets an item override the envelope', () => {
    const item = { ...EXAMPLES.event_msg, timestamp: 'stale', ordinal: 99 } as RolloutItem;
    expect(JSON.parse(serializeRolloutLine({ timestamp: 'now' }, item))).toEqual({ timestamp: 'now', ...EXAMPLES.event_msg });
  });

  it('round-trips any line with extra fields through parse (property)', () => {
    const extra = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }).filter((key) => !['type', 'payload', 'timestamp', 'ordinal', 'metadata', '__proto__'].includes(key)), fc.jsonValue(), { maxKeys: 4 });
    fc.assert(
      fc.property(fc.constantFrom(...KNOWN_ROLLOUT_LINE_TYPES), extra, fc.nat(), (type, fields, ordinal) => {
        const item = { ...EXAMPLES[type], ...fields };
        const text = serializeRolloutLine({ timestamp: 't', ordinal }, item);
        const parsed = parseRolloutLine(JSON.parse(text));
        expect(parsed.ok).toBe(true);
        expect(parsed.ok && JSON.stringify(parsed.line)).toBe(text);
      }),
    );
  });
});
