// The `exec --json` event stream: one JSON object per stdout line, as Codex 0.171.0 writes it and
// `@openai/codex-sdk` reads it.
import * as z from 'zod';
import { lazySchema } from './lazy-schema.js';

export const ExecAgentMessageItem = lazySchema(() => z.object({ id: z.string(), type: z.literal('agent_message'), text: z.string() }));
export const ExecReasoningItem = lazySchema(() => z.object({ id: z.string(), type: z.literal('reasoning'), text: z.string() }));
export const ExecCommandExecutionItem = lazySchema(() => z.object({
  id: z.string(),
  type: z.literal('command_execution'),
  command: z.string(),
  aggregated_output: z.string(),
  /** Null while the command runs. */
  exit_code: z.number().int().nullable().optional(),
  status: z.enum(['in_progress', 'completed', 'failed', 'declined']),
}));
export const ExecFileChangeItem = lazySchema(() => z.object({
  id: z.string(),
  type: z.literal('file_change'),
  changes: z.array(z.object({ path: z.string(), kind: z.enum(['add', 'delete', 'update']) })),
  status: z.enum(['in_progress', 'completed', 'failed']),
}));
export const ExecMcpToolCallItem = lazySchema(() => z.object({
  id: z.string(),
  type: z.literal('mcp_tool_call'),
  server: z.string(),
  tool: z.string(),
  arguments: z.unknown(),
  result: z.looseObject({ content: z.array(z.unknown()), structured_content: z.unknown() }).nullish(),
  error: z.object({ message: z.string() }).nullish(),
  status: z.enum(['in_progress', 'completed', 'failed']),
}));
/** A hosted web search: its id is the model's item id; the action is `{type: "other"}` until the search is done. */
export const ExecWebSearchItem = lazySchema(() => z.object({ id: z.string(), type: z.literal('web_search'), query: z.string(), action: z.looseObject({ type: z.string() }) }));
export const ExecTodoListItem = lazySchema(() => z.object({
  id: z.string(),
  type: z.literal('todo_list'),
  items: z.array(z.object({ text: z.string(), completed: z.boolean() })),
}));
export const ExecErrorItem = lazySchema(() => z.object({ id: z.string(), type: z.literal('error'), message: z.string() }));
/** A collaboration call as Codex's exec prints it (multi-agent v2 shows `wait_agent` this way). */
export const ExecCollabToolCallItem = lazySchema(() => z.object({
  id: z.string(),
  type: z.literal('collab_tool_call'),
  tool: z.string(),
  sender_thread_id: z.string(),
  receiver_thread_ids: z.array(z.string()),
  prompt: z.string().nullable(),
  agents_states: z.record(z.string(), z.unknown()),
  status: z.enum(['in_progress', 'completed', 'failed']),
}));

/** An item of an `exec --json` stream; ids are `item_N`, counting up per process. */
export const ExecThreadItem = lazySchema(() => z.discriminatedUnion('type', [
  ExecAgentMessageItem,
  ExecReasoningItem,
  ExecCommandExecutionItem,
  ExecFileChangeItem,
  ExecMcpToolCallItem,
  ExecWebSearchItem,
  ExecTodoListItem,
  ExecErrorItem,
  ExecCollabToolCallItem,
]));
export type ExecThreadItem = z.infer<typeof ExecThreadItem>;

/** Token usage of a whole turn (every sampling request summed). */
export const ExecUsage = lazySchema(() => z.object({
  input_tokens: z.number().int().nonnegative(),
  cached_input_tokens: z.number().int().nonnegative(),
  cache_write_input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  reasoning_output_tokens: z.number().int().nonnegative(),
}));
export type ExecUsage = z.infer<typeof ExecUsage>;

/** One line of `exec --json` output. */
export const ExecEvent = lazySchema(() => z.discriminatedUnion('type', [
  z.object({ type: z.literal('thread.started'), thread_id: z.string() }),
  z.object({ type: z.literal('turn.started') }),
  z.object({ type: z.literal('turn.completed'), usage: ExecUsage }),
  z.object({ type: z.literal('turn.failed'), error: z.object({ message: z.string() }) }),
  z.object({ type: z.literal('item.started'), item: ExecThreadItem }),
  z.object({ type: z.literal('item.updated'), item: ExecThreadItem }),
  z.object({ type: z.literal('item.completed'), item: ExecThreadItem }),
  z.object({ type: z.literal('error'), message: z.string() }),
]));
export type ExecEvent = z.infer<typeof ExecEvent>;
