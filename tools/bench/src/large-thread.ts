// The large thread several benchmarks read: 2 000 turns of ten history items each (user message,
// reasoning, commentary, three tool calls with outputs, answer) and the events Codex writes around them.
import { RolloutWriter, type RolloutItem } from '@skein/rollout';

export const LARGE_THREAD_TURNS = 2_000;
export const ITEMS_PER_TURN = 10;

/** One turn of ten history items (user message, reasoning, commentary, three tool calls with outputs, answer) and the events Codex writes around them. */
export function turnItems(turn: number): RolloutItem[] {
  const turnId = `turn-${turn}`;
  const output = `line of tool output ${turn}\n`.repeat(40);
  const items: RolloutItem[] = [
    { type: 'event_msg', payload: { type: 'task_started', turn_id: turnId, model_context_window: 258_400 } },
    { type: 'turn_context', payload: { turn_id: turnId, cwd: '/workspace', model: 'gpt-5.5', approval_policy: 'never', sandbox_policy: { type: 'read-only' }, summary: 'none' } },
    { type: 'response_item', payload: { type: 'message', id: `msg_u${turn}`, role: 'user', content: [{ type: 'input_text', text: `Please look at file ${turn} and fix it.` }], internal_chat_message_metadata_passthrough: { turn_id: turnId, content_item_kinds: ['user.text'] } }, metadata: { history_sequence: turn * 10 } },
    { type: 'response_item', payload: { type: 'reasoning', id: `rs_${turn}`, summary: [{ type: 'summary_text', text: 'Thinking about the file.' }], encrypted_content: 'e'.repeat(600) } },
    { type: 'response_item', payload: { type: 'message', id: `msg_c${turn}`, role: 'assistant', content: [{ type: 'output_text', text: 'Let me read the file first.' }], phase: 'commentary' } },
  ];
  for (const call of [1, 2, 3]) {
    items.push(
      { type: 'response_item', payload: { type: 'function_call', id: `fc_${turn}_${call}`, name: 'exec_command', arguments: `{"cmd":"sed -n 1,40p file${turn}.ts"}`, call_id: `call_${turn}_${call}` } },
      { type: 'response_item', payload: { type: 'function_call_output', call_id: `call_${turn}_${call}`, output } },
    );
  }
  items.push(
    { type: 'response_item', payload: { type: 'message', id: `msg_a${turn}`, role: 'assistant', content: [{ type: 'output_text', text: `Fixed file ${turn}.` }], phase: 'final_answer' } },
    { type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: { input_tokens: turn, output_tokens: 1, total_tokens: turn + 1 } } } },
    { type: 'event_msg', payload: { type: 'task_complete', turn_id: turnId, last_agent_message: `Fixed file ${turn}.` } },
  );
  return items;
}

/** What {@link buildLargeThread} writes besides the turns: the session_meta fields a reader may need. */
export interface LargeThreadOptions {
  readonly cwd?: string;
  readonly meta?: Readonly<Record<string, unknown>>;
}

/** Writes a {@link LARGE_THREAD_TURNS}-turn thread (20 000 history items) under `home`; returns its file. */
export async function buildLargeThread(home: string, options: LargeThreadOptions = {}): Promise<string> {
  const meta = { cwd: options.cwd ?? '/workspace', source: 'exec', model_provider: 'mock', base_instructions: { text: 'b'.repeat(20_000) }, ...options.meta };
  const writer = await RolloutWriter.create({ home, durability: 'none', meta });
  for (let turn = 0; turn < LARGE_THREAD_TURNS; turn += 1) await writer.append(...turnItems(turn));
  await writer.close();
  return writer.path;
}
