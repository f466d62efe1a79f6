import { describe, expect, it } from 'vitest';
import { EventMsg, eventMsgSchemaFor, isKnownEventMsg } from './event-msg.js';

describe('EventMsg', () => {
  it('parses the lifecycle events replay needs', () => {
    const started = EventMsg.parse({ type: 'task_started', turn_id: 't1', model_context_window: 258400, turn_attribution: { turn_trigger: 'exec' } });
    expect(isKnownEventMsg(started)).toBe(true);
    expect(started['turn_attribution']).toEqual({ turn_trigger: 'exec' });
    expect(EventMsg.parse({ type: 'thread_rolled_back', num_turns: 2 })).toEqual({ type: 'thread_rolled_back', num_turns: 2 });
  });

  it('keeps events of other types whole', () => {
    const event = EventMsg.parse({ type: 'thread_settings_applied', thread_settings: { model: 'gpt-5.5' } });
    expect(isKnownEventMsg(event)).toBe(false);
    expect(event).toEqual({ type: 'thread_settings_applied', thread_settings: { model: 'gpt-5.5' } });
  });

  it('rejects a known event whose fields are wrong instead of letting it pass as unknown', () => {
    expect(EventMsg.safeParse({ type: 'task_complete' }).success).toBe(false);
    expect(EventMsg.safeParse({ type: 'thread_rolled_back', num_turns: -1 }).success).toBe(false);
    expect(eventMsgSchemaFor('task_complete').safeParse({ type: 'task_complete' }).success).toBe(false);
  });
});
