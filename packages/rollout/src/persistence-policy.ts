// Which items a rollout keeps: every model-visible item and executive marker, and the events of
// the chosen persistence mode (a limited default set, or an extended one). Deltas and begin-events
// are never written.
import type { EventMsg } from './lines/event-msg.js';
import type { RolloutItem } from './lines/rollout-line.js';

/**
 * `limited` (the default) keeps what replay and thread lists need; `extended` also keeps the end
 * events of tools and errors, for clients that show a full transcript of an old thread.
 */
export type EventPersistenceMode = 'limited' | 'extended';

/** Events kept in both modes. */
export const LIMITED_PERSISTED_EVENTS: ReadonlySet<string> = new Set([
  'task_started',
  'task_complete',
  'turn_aborted',
  'user_message',
  'agent_message',
  'agent_reasoning',
  'agent_reasoning_raw_content',
  'item_completed',
  'token_count',
  'thread_settings_applied',
  'thread_name_updated',
  'thread_goal_updated',
  'context_compacted',
  'thread_rolled_back',
  'undo_completed',
  'entered_review_mode',
  'exited_review_mode',
  'image_generation_end',
]);

/** Events kept only in the extended mode. */
export const EXTENDED_PERSISTED_EVENTS: ReadonlySet<string> = new Set([
  'error',
  'exec_command_end',
  'patch_apply_end',
  'mcp_tool_call_end',
  'web_search_end',
  'view_image_tool_call',
  'guardian_assessment',
  'collab_agent_spawn_end',
  'collab_agent_interaction_end',
  'collab_waiting_end',
  'collab_close_end',
  'collab_resume_end',
  'dynamic_tool_call_request',
  'dynamic_tool_call_response',
  'sub_agent_activity',
]);

/** Response item types that are control signals to the model client, never history. */
export const UNPERSISTED_RESPONSE_ITEM_TYPES: ReadonlySet<string> = new Set(['compaction_trigger']);

/**
 * The most bytes of a command's aggregated output the extended mode keeps; the middle of longer
 * output is cut (the model already saw its own truncated copy in the tool output item).
 */
export const PERSISTED_EXEC_OUTPUT_MAX_BYTES = 10_000;

/**
 * Whether an event is written in `mode`. Streaming deltas, begin-events, approval requests and any
 * event type not named in the two sets are not: a new event type is persisted only once it is
 * added to a set on purpose.
 */
export function shouldPersistEventMsg(event: EventMsg, mode: EventPersistenceMode): boolean {
  if (LIMITED_PERSISTED_EVENTS.has(event.type)) return true;
  return mode === 'extended' && EXTENDED_PERSISTED_EVENTS.has(event.type);
}

/** Whether a rollout item is written in `mode`. */
export function isPersistedRolloutItem(item: RolloutItem, mode: EventPersistenceMode): boolean {
  switch (item.type) {
    case 'event_msg':
      return shouldPersistEventMsg(item.payload as EventMsg, mode);
    case 'response_item':
      return !UNPERSISTED_RESPONSE_ITEM_TYPES.has((item.payload as { type: string }).type);
    default:
      // Session meta, turn context, compaction, world state, token usage, inter-agent lines and
      // line types of newer versions are all executive markers replay or analysis may need.
      return true;
  }
}

/**
 * The item as it is written in `mode`: in the extended mode a command's end event keeps only a
 * bounded aggregated output (stdout, stderr and the formatted copy are emptied). Other items are
 * returned unchanged.
 */
export function sanitizeForPersistence(item: RolloutItem, mode: EventPersistenceMode): RolloutItem {
  if (mode !== 'extended' || item.type !== 'event_msg') return item;
  const event = item.payload as EventMsg & Record<string, unknown>;
  if (event.type !== 'exec_command_end') return item;
  const aggregated = typeof event['aggregated_output'] === 'string' ? event['aggregated_output'] : '';
  return {
    ...item,
    payload: {
      ...event,
      aggregated_output: truncateMiddle(aggregated, PERSISTED_EXEC_OUTPUT_MAX_BYTES),
      stdout: '',
      stderr: '',
      formatted_output: '',
    },
  };
}

/** `text` cut to at most about `maxBytes` UTF-8 bytes, keeping its head and tail whole characters. */
export function truncateMiddle(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  const marker = `\n… ${bytes.length - maxBytes} bytes omitted …\n`;
  const keep = Math.max(0, maxBytes - Buffer.byteLength(marker));
  let headEnd = Math.floor(keep / 2);
  let tailStart = bytes.length - (keep - headEnd);
  // Never split a multi-byte character: back off to a character start on both sides.
  while (headEnd > 0 && isContinuationByte(bytes[headEnd])) headEnd -= 1;
  while (tailStart < bytes.length && isContinuationByte(bytes[tailStart])) tailStart += 1;
  return `${bytes.toString('utf8', 0, headEnd)}${marker}${bytes.toString('utf8', tailStart)}`;
}

function isContinuationByte(byte: number | undefined): boolean {
  return byte !== undefined && (byte & 0b1100_0000) === 0b1000_0000;
}
