// Rollout items for tests, in the shapes Codex 0.171.0 records.
import type { RolloutItem } from '@skein/rollout';

export function userTurn(turnId: string, text: string, answer: string): RolloutItem[] {
  return [
    { type: 'event_msg', payload: { type: 'task_started', turn_id: turnId } },
    { type: 'turn_context', payload: { turn_id: turnId, cwd: '/workspace', model: 'gpt-5.5', approval_policy: 'never', sandbox_policy: { type: 'read-only' }, summary: 'auto' } },
    { type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text }], internal_chat_message_metadata_passthrough: { content_item_kinds: ['user.text'] } } },
    { type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: answer }], phase: 'final_answer' } },
    { type: 'event_msg', payload: { type: 'task_complete', turn_id: turnId, last_agent_message: answer } },
  ];
}

export const newThreadMeta = { cwd: '/workspace', originator: 'skein_test', cli_version: '0.0.0', source: 'exec', model_provider: 'mock' } as const;
