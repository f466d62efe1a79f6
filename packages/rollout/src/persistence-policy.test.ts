import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RolloutItem } from './lines/rollout-line.js';
import {
  EXTENDED_PERSISTED_EVENTS,
  LIMITED_PERSISTED_EVENTS,
  PERSISTED_EXEC_OUTPUT_MAX_BYTES,
  isPersistedRolloutItem,
  sanitizeForPersistence,
  shouldPersistEventMsg,
  truncateMiddle,
} from './persistence-policy.js';

const event = (type: string, fields: Record<string, unknown> = {}): RolloutItem => ({ type: 'event_msg', payload: { type, ...fields } });

describe('persistence policy', () => {
  it('keeps the limited set in both modes and the extended set only in extended mode', () => {
    for (const type of LIMITED_PERSISTED_EVENTS) {
      expect(shouldPersistEventMsg({ type }, 'limited')).toBe(true);
      expect(shouldPersistEventMsg({ type }, 'extended')).toBe(true);
    }
    for (const type of EXTENDED_PERSISTED_EVENTS) {
      expect(shouldPersistEventMsg({ type }, 'limited')).toBe(false);
      expect(shouldPersistEventMsg({ type }, 'extended')).toBe(true);
    }
  });

  it('never writes deltas, begin-events, item starts or approval requests', () => {
    for (const type of ['agent_message_delta', 'agent_message_content_delta', 'exec_command_output_delta', 'exec_command_begin', 'patch_apply_begin', 'item_started', 'exec_approval_request', 'session_configured', 'raw_response_item']) {
      expect(isPersistedRolloutItem(event(type), 'extended')).toBe(false);
    }
  });

  it('writes the events Codex 0.171.0 was seen to write by default', () => {
    for (const type of ['task_started', 'thread_settings_applied', 'item_completed', 'token_count', 'task_complete', 'turn_aborted', 'thread_rolled_back']) {
      expect(isPersistedRolloutItem(event(type), 'limited')).toBe(true);
    }
  });

  it('writes every history item except control signals, and every non-event line', () => {
    expect(isPersistedRolloutItem({ type: 'response_item', payload: { type: 'reasoning', summary: [] } }, 'limited')).toBe(true);
    expect(isPersistedRolloutItem({ type: 'response_item', payload: { type: 'tool_search_call', call_id: 'c' } }, 'limited')).toBe(true);
    expect(isPersistedRolloutItem({ type: 'response_item', payload: { type: 'compaction_trigger' } }, 'extended')).toBe(false);
    for (const type of ['session_meta', 'turn_context', 'compacted', 'world_state', 'token_usage_record', 'inter_agent_communication', 'some_future_line']) {
      expect(isPersistedRolloutItem({ type, payload: {} }, 'limited')).toBe(true);
    }
  });

  it('keeps a bounded copy of command output in extended mode', () => {
    const output = 'x'.repeat(PERSISTED_EXEC_OUTPUT_MAX_BYTES * 3);
    const item = event('exec_command_end', { call_id: 'c', aggregated_output: output, stdout: output, stderr: 'e', formatted_output: output, exit_code: 0 });
    const sanitized = sanitizeForPersistence(item, 'extended').payload as Record<string, unknown>;
    expect(Buffer.byteLength(sanitized['aggregated_output'] as string)).toBeLessThanOrEqual(PERSISTED_EXEC_OUTPUT_MAX_BYTES);
    expect(sanitized['aggregated_output']).toContain('bytes omitted');
    expect(sanitized).toMatchObject({ stdout: '', stderr: '', formatted_output: '', exit_code: 0, call_id: 'c' });
    expect(sanitizeForPersistence(item, 'limited')).toBe(item);
  });
});

describe('truncateMiddle', () => {
  it('leaves short text alone', () => {
    expect(truncateMiddle('short', 100)).toBe('short');
  });

  it('stays within the byte budget and never splits a character (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 400 }), fc.integer({ min: 40, max: 300 }), (text, max) => {
        const cut = truncateMiddle(text, max);
        if (Buffer.byteLength(text) <= max) {
          expect(cut).toBe(text);
          return;
        }
        expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(max);
        expect(cut).not.toContain('\uFFFD');
        const marker = cut.indexOf('\n… ');
        expect(text.startsWith(cut.slice(0, marker))).toBe(true);
        expect(text.endsWith(cut.slice(cut.indexOf(' …\n', marker) + 3))).toBe(true);
      }),
    );
  });
});
