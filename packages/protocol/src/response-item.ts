// ResponseItem: one entry of a Responses API `input` / `output` list — the unit of thread history.
// Every variant may carry an `id` and Skein's item `metadata`; unknown fields and unknown item
// types are kept as they came, so items read from a model or a rollout round-trip unchanged.
import * as z from 'zod';
import { ContentItem, ToolOutputBody } from './content-item.js';
import { newItemId, randomUuidV7, type UuidV7Source } from './ids.js';
import { lazySchema } from './lazy-schema.js';

/**
 * Skein's per-item metadata: which turn produced the item, for items derived from a tool call
 * (outputs, follow-up messages) the call they answer, and for a tool output whether it carries
 * content from outside the thread's machine and environments (`external_context`). Not to be
 * confused with the rollout line's own `metadata` (history sequence numbers). Stripped before
 * sending to non-OpenAI providers.
 */
export const ItemMetadata = lazySchema(() => z.looseObject({
  turn_id: z.string().optional(),
  source_call_id: z.string().optional(),
  external_context: z.boolean().optional(),
}));
export type ItemMetadata = z.infer<typeof ItemMetadata>;

/** Fields every variant shares. */
const common = lazySchema(() => ({
  id: z.string().nullish(),
  metadata: ItemMetadata.optional(),
}));

/** Roles a message may have. */
export const MessageRole = lazySchema(() => z.enum(['user', 'assistant', 'developer', 'system']));
export type MessageRole = z.infer<typeof MessageRole>;

/** Where an assistant message sits in the turn (commentary while working, or the final answer). */
export const MessagePhase = lazySchema(() => z.enum(['commentary', 'partial_answer', 'final_answer']));
export type MessagePhase = z.infer<typeof MessagePhase>;

export const MessageItem = lazySchema(() => z.looseObject({
  ...common,
  type: z.literal('message'),
  role: MessageRole,
  content: z.array(ContentItem),
  status: z.string().nullish(),
  phase: MessagePhase.nullish(),
}));
export type MessageItem = z.infer<typeof MessageItem>;

export const ReasoningItem = lazySchema(() => z.looseObject({
  ...common,
  type: z.literal('reasoning'),
  summary: z.array(z.looseObject({ type: z.literal('summary_text'), text: z.string() })),
  content: z
    .array(z.looseObject({ type: z.enum(['reasoning_text', 'text']), text: z.string() }))
    .nullish(),
  encrypted_content: z.string().nullish(),
}));
export type ReasoningItem = z.infer<typeof ReasoningItem>;

export const FunctionCallItem = lazySchema(() => z.looseObject({
  ...common,
  type: z.literal('function_call'),
  name: z.string(),
  namespace: z.string().nullish(),
  /** The arguments as the model wrote them: a JSON string, parsed by the tool that receives it. */
  arguments: z.string(),
  call_id: z.string(),
  status: z.string().nullish(),
}));
export type FunctionCallItem = z.infer<typeof FunctionCallItem>;

export const FunctionCallOutputItem = lazySchema(() => z.looseObject({
  ...common,
  type: z.literal('function_call_output'),
  /** The call it answers; absent on an output no call asked for (Codex's `goal_objective`, which names itself instead). */
  call_id: z.string().optional(),
  name: z.string().optional(),
  namespace: z.string().optional(),
  output: ToolOutputBody,
}));
export type FunctionCallOutputItem = z.infer<typeof FunctionCallOutputItem>;

export const CustomToolCallItem = lazySchema(() => z.looseObject({
  ...common,
  type: z.literal('custom_tool_call'),
  name: z.string(),
  namespace: z.string().nullish(),
  /** Free-form input (for example a patch), not JSON. */
  input: z.string(),
  call_id: z.string(),
  status: z.string().nullish(),
}));
export type CustomToolCallItem = z.infer<typeof CustomToolCallItem>;

export const CustomToolCallOutputItem = lazySchema(() => z.looseObject({
  ...common,
  type: z.literal('custom_tool_call_output'),
  call_id: z.string(),
  output: ToolOutputBody,
}));
export type CustomToolCallOutputItem = z.infer<typeof CustomToolCallOutputItem>;

/**
 * The model asks to search its deferred tools (`tool_search`). With `execution: "client"` the client
 * runs the search and answers with a `tool_search_output` of the same `call_id`.
 */
export const ToolSearchCallItem = lazySchema(() => z.looseObject({
  ...common,
  type: z.literal('tool_search_call'),
  call_id: z.string().nullish(),
  execution: z.string().nullish(),
  status: z.string().nullish(),
  /** `{query, limit?}` as the model wrote them (an object, not JSON text). */
  arguments: z.unknown(),
}));
export type ToolSearchCallItem = z.infer<typeof ToolSearchCallItem>;

/** What a tool search found: namespaces and tools, each marked `defer_loading`, now callable. */
export const ToolSearchOutputItem = lazySchema(() => z.looseObject({
  ...common,
  type: z.literal('tool_search_output'),
  call_id: z.string().nullish(),
  status: z.string().nullish(),
  execution: z.string().nullish(),
  tools: z.array(z.unknown()),
}));
export type ToolSearchOutputItem = z.infer<typeof ToolSearchOutputItem>;

export const LocalShellCallItem = lazySchema(() => z.looseObject({
  ...common,
  type: z.literal('local_shell_call'),
  call_id: z.string().nullish(),
  status: z.enum(['completed', 'in_progress', 'incomplete']),
  action: z.looseObject({
    type: z.literal('exec'),
    command: z.array(z.string()),
    timeout_ms: z.number().int().nonnegative().nullish(),
    working_directory: z.string().nullish(),
    env: z.record(z.string(), z.string()).nullish(),
    user: z.string().nullish(),
  }),
}));
export type LocalShellCallItem = z.infer<typeof LocalShellCallItem>;

export const WebSearchCallItem = lazySchema(() => z.looseObject({
  ...common,
  type: z.literal('web_search_call'),
  status: z.string().nullish(),
  action: z.looseObject({ type: z.string() }).nullish(),
}));
export type WebSearchCallItem = z.infer<typeof WebSearchCallItem>;

/** The model's encrypted summary of the history it replaces (remote compaction). */
export const CompactionItem = lazySchema(() => z.looseObject({
  ...common,
  type: z.literal('compaction'),
  encrypted_content: z.string(),
}));
export type CompactionItem = z.infer<typeof CompactionItem>;

/** A marker that the history before it was compacted. */
export const ContextCompactionItem = lazySchema(() => z.looseObject({
  ...common,
  type: z.literal('context_compaction'),
  encrypted_content: z.string().nullish(),
}));
export type ContextCompactionItem = z.infer<typeof ContextCompactionItem>;

/** Tool definitions sent as an input item rather than the top-level `tools` field (Codex's code-mode models). */
export const AdditionalToolsItem = lazySchema(() => z.looseObject({
  ...common,
  type: z.literal('additional_tools'),
  role: z.string(),
  tools: z.array(z.unknown()),
}));
export type AdditionalToolsItem = z.infer<typeof AdditionalToolsItem>;

/** A response item of a type this version models; narrow with `isKnownResponseItem` to switch on `type`. */
export const KnownResponseItem = lazySchema(() => z.discriminatedUnion('type', [
  MessageItem,
  ReasoningItem,
  FunctionCallItem,
  FunctionCallOutputItem,
  CustomToolCallItem,
  CustomToolCallOutputItem,
  LocalShellCallItem,
  ToolSearchCallItem,
  ToolSearchOutputItem,
  WebSearchCallItem,
  CompactionItem,
  ContextCompactionItem,
  AdditionalToolsItem,
]));

// Read off the union when first needed, so the schemas stay unbuilt until then.
let knownTypes: ReadonlySet<string> | undefined;
const knownItemTypes = (): ReadonlySet<string> => (knownTypes ??= new Set(KnownResponseItem.options.map((option) => option.shape.type.value)));

/** An item of a type this version does not model, kept whole (the Responses API grows new ones). */
export const OtherResponseItem = lazySchema(() => z.looseObject({
  ...common,
  type: z.string().refine((type) => !knownItemTypes().has(type), {
    message: 'this item type has its own schema and did not match it',
  }),
}));
export type OtherResponseItem = z.infer<typeof OtherResponseItem>;

/** Any response item: a known variant, or the catch-all for types added after this version. */
export const ResponseItem = lazySchema(() => z.union([KnownResponseItem, OtherResponseItem]));
export type ResponseItem = z.infer<typeof ResponseItem>;

export type KnownResponseItem = z.infer<typeof KnownResponseItem>;

/** The item types this version models with their own schema. */
export type KnownResponseItemType = KnownResponseItem['type'];

/** Narrows an item to the known variants, after which `switch (item.type)` is exhaustive. */
export function isKnownResponseItem(item: ResponseItem): item is KnownResponseItem {
  return knownItemTypes().has(item.type);
}

/** The item's id, if it has one. */
export function responseItemId(item: ResponseItem): string | undefined {
  return item.id ?? undefined;
}

/** A copy of `item` with its id set to `id`. */
export function withResponseItemId<T extends ResponseItem>(item: T, id: string): T {
  return { ...item, id };
}

/** `item` itself when it has an id; otherwise a copy with a freshly minted, type-prefixed one. */
export function ensureResponseItemId<T extends ResponseItem>(item: T, uuid: UuidV7Source = randomUuidV7): T {
  return item.id ? item : withResponseItemId(item, newItemId(item.type, uuid));
}

/** The item's Skein metadata, if any. */
export function responseItemMetadata(item: ResponseItem): ItemMetadata | undefined {
  return item.metadata;
}

/** A copy of `item` with `metadata` merged into its existing metadata. */
export function withResponseItemMetadata<T extends ResponseItem>(item: T, metadata: ItemMetadata): T {
  return { ...item, metadata: { ...item.metadata, ...metadata } };
}

/** A copy of `item` without Skein's metadata, for providers that reject unknown fields. */
export function withoutResponseItemMetadata<T extends ResponseItem>(item: T): T {
  if (item.metadata === undefined) return item;
  const { metadata, ...rest } = item;
  return rest as T;
}

/** Whether the item is a call the model expects an output for, and the call id it must answer. */
export function toolCallId(item: ResponseItem): string | undefined {
  if (!isKnownResponseItem(item)) return undefined;
  switch (item.type) {
    case 'function_call':
    case 'custom_tool_call':
      return item.call_id;
    case 'local_shell_call':
      return item.call_id ?? undefined;
    case 'tool_search_call':
      return item.execution === 'client' ? (item.call_id ?? undefined) : undefined;
    default:
      return undefined;
  }
}

/** The call id a tool output answers, for function and custom tool outputs. */
export function toolOutputCallId(item: ResponseItem): string | undefined {
  if (!isKnownResponseItem(item)) return undefined;
  if (item.type === 'tool_search_output' || item.type === 'function_call_output') return item.call_id ?? undefined;
  return item.type === 'custom_tool_call_output' ? item.call_id : undefined;
}

/** The text of a message: its text parts joined, other parts (images, …) skipped. */
export function messageText(item: MessageItem): string {
  return item.content.map((part) => ('text' in part && typeof part.text === 'string' ? part.text : '')).join('');
}

/**
 * The output item answering `call`: a `function_call_output` or a `custom_tool_call_output`. A tool
 * search that did not run (aborted, missing) is answered with an empty `tool_search_output`: its
 * output has no place for text.
 */
export function toolOutputFor(call: { readonly type: string; readonly call_id: string }, output: ToolOutputBody): FunctionCallOutputItem | CustomToolCallOutputItem | ToolSearchOutputItem {
  if (call.type === 'tool_search_call') return toolSearchOutput(call.call_id, []);
  return call.type === 'custom_tool_call'
    ? { type: 'custom_tool_call_output', call_id: call.call_id, output }
    : { type: 'function_call_output', call_id: call.call_id, output };
}

/** A client's answer to a `tool_search_call`: the tools it found. */
export function toolSearchOutput(callId: string, tools: readonly unknown[]): ToolSearchOutputItem {
  return { type: 'tool_search_output', call_id: callId, status: 'completed', execution: 'client', tools: [...tools] };
}
