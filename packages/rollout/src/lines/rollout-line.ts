// One rollout line: `{timestamp, ordinal, type, payload}` (+ `metadata` on `response_item` lines).
// Known line types have schemas; a line of any other type is kept whole, never rewritten away.
import { lazySchema, KnownResponseItem, OtherResponseItem, ResponseItem } from '@skein/protocol';
import * as z from 'zod';
import { Compacted } from './compacted.js';
import { EventMsg, OtherEventMsg, eventMsgSchemaFor } from './event-msg.js';
import { ExtensionState } from './extension-state.js';
import { InterAgentCommunication, InterAgentCommunicationMetadata } from './inter-agent.js';
import { RealtimeItem } from './realtime-item.js';
import { ResponseItemLineMetadata } from './response-item-line-metadata.js';
import { SessionMeta } from './session-meta.js';
import { TokenUsageRecord } from './token-usage-record.js';
import { TurnContext } from './turn-context.js';
import { WorldState } from './world-state.js';

/** `session_meta`: the thread's identity; the first line of a file. */
export const SessionMetaItem = lazySchema(() => z.looseObject({ type: z.literal('session_meta'), payload: SessionMeta }));
/** `response_item`: one model-visible history item, exactly as sent or received. */
export const ResponseItemItem = lazySchema(() => z.looseObject({
  type: z.literal('response_item'),
  payload: ResponseItem,
  metadata: ResponseItemLineMetadata.optional(),
}));
/** `turn_context`: a user turn's settings. */
export const TurnContextItem = lazySchema(() => z.looseObject({ type: z.literal('turn_context'), payload: TurnContext }));
/** `compacted`: a compaction and the history that replaces what came before. */
export const CompactedItem = lazySchema(() => z.looseObject({ type: z.literal('compacted'), payload: Compacted }));
/** `event_msg`: a client-facing event the persistence policy keeps. */
export const EventMsgItem = lazySchema(() => z.looseObject({ type: z.literal('event_msg'), payload: EventMsg }));
/** `world_state`: the context sources' state. */
export const WorldStateItem = lazySchema(() => z.looseObject({ type: z.literal('world_state'), payload: WorldState }));
/** `token_usage_record`: one response's token usage. */
export const TokenUsageRecordItem = lazySchema(() => z.looseObject({ type: z.literal('token_usage_record'), payload: TokenUsageRecord }));
/** `inter_agent_communication`: a message from another agent of the thread tree. */
export const InterAgentCommunicationItem = lazySchema(() => z.looseObject({
  type: z.literal('inter_agent_communication'),
  payload: InterAgentCommunication,
}));
/** `inter_agent_communication_metadata`: marks the delivery of an inter-agent message as a turn boundary. */
export const InterAgentCommunicationMetadataItem = lazySchema(() => z.looseObject({
  type: z.literal('inter_agent_communication_metadata'),
  payload: InterAgentCommunicationMetadata,
}));
/** `realtime_item`: one item of a realtime conversation beside the thread. */
export const RealtimeItemItem = lazySchema(() => z.looseObject({ type: z.literal('realtime_item'), payload: RealtimeItem }));
/** `skein_extension_state` (Skein's own; Codex skips it): one change to an extension's durable thread store. */
export const ExtensionStateItem = lazySchema(() => z.looseObject({ type: z.literal('skein_extension_state'), payload: ExtensionState }));

const KNOWN_ITEM_SCHEMAS = {
  session_meta: SessionMetaItem,
  response_item: ResponseItemItem,
  turn_context: TurnContextItem,
  compacted: CompactedItem,
  event_msg: EventMsgItem,
  world_state: WorldStateItem,
  token_usage_record: TokenUsageRecordItem,
  inter_agent_communication: InterAgentCommunicationItem,
  inter_agent_communication_metadata: InterAgentCommunicationMetadataItem,
  realtime_item: RealtimeItemItem,
  skein_extension_state: ExtensionStateItem,
} as const;

/** The line types this version models. */
export type KnownRolloutLineType = keyof typeof KNOWN_ITEM_SCHEMAS;

/** The line types this version models, in the order Codex documents them, then Skein's own. */
export const KNOWN_ROLLOUT_LINE_TYPES = Object.keys(KNOWN_ITEM_SCHEMAS) as readonly KnownRolloutLineType[];

/** Whether `type` is a line type this version models. */
export function isKnownRolloutLineType(type: string): type is KnownRolloutLineType {
  return Object.hasOwn(KNOWN_ITEM_SCHEMAS, type);
}

/** A line of a known type, without its envelope. */
export const KnownRolloutItem = lazySchema(() => z.discriminatedUnion('type', [
  SessionMetaItem,
  ResponseItemItem,
  TurnContextItem,
  CompactedItem,
  EventMsgItem,
  WorldStateItem,
  TokenUsageRecordItem,
  InterAgentCommunicationItem,
  InterAgentCommunicationMetadataItem,
  RealtimeItemItem,
  ExtensionStateItem,
]));
export type KnownRolloutItem = z.infer<typeof KnownRolloutItem>;

/** A line of a type this version does not model (a newer Codex's), kept whole. */
export const OtherRolloutItem = lazySchema(() => z.looseObject({
  type: z.string().refine((type) => !isKnownRolloutLineType(type), {
    message: 'this line type has its own schema and did not match it',
  }),
  payload: z.unknown(),
}));
export type OtherRolloutItem = z.infer<typeof OtherRolloutItem>;

/** What a writer appends: a line's `type`, `payload` and (for response items) line `metadata`. */
export const RolloutItem = lazySchema(() => z.union([KnownRolloutItem, OtherRolloutItem]));
export type RolloutItem = z.infer<typeof RolloutItem>;

/** Narrows an item to the known line types, after which `switch (item.type)` is exhaustive. */
export function isKnownRolloutItem(item: RolloutItem): item is KnownRolloutItem {
  return isKnownRolloutLineType(item.type);
}

/** The envelope every line has: when it was written and its position in the thread. */
export const RolloutLineEnvelope = lazySchema(() => z.object({
  timestamp: z.string(),
  /** 0-based position among the thread's lines; absent in files from before Codex 0.171.0's paginated history. */
  ordinal: z.number().int().nonnegative().optional(),
}));
export type RolloutLineEnvelope = z.infer<typeof RolloutLineEnvelope>;

/** A whole line as it sits in the file. */
export type RolloutLine = RolloutItem & RolloutLineEnvelope;

/** A known line with its envelope. */
export type KnownRolloutLine = KnownRolloutItem & RolloutLineEnvelope;

/** The outcome of parsing one line's JSON value. */
export type RolloutLineParse = { readonly ok: true; readonly line: RolloutLine } | { readonly ok: false; readonly message: string };

/**
 * Parses one line's JSON value against the schema of its type — and, for `response_item` and
 * `event_msg` lines, of its payload's type — so a line is checked in one pass without trying the
 * variants of a union (this is the hot path of every read), and the error names the wrong field.
 */
export function parseRolloutLine(value: unknown): RolloutLineParse {
  const type = (value as { type?: unknown } | null)?.type;
  if (typeof type !== 'string') return { ok: false, message: 'type: expected a string' };
  const parsed = lineSchemaFor(type, (value as { payload?: { type?: unknown } }).payload?.type).safeParse(value);
  if (!parsed.success) return { ok: false, message: `${type}: ${describeIssues(parsed.error)}` };
  // Keep the value as it came (zod's output reorders keys): a line read and written back is unchanged.
  return { ok: true, line: value as RolloutLine };
}

/** Checks an item a writer was given; returns the reason it is invalid, or undefined. */
export function rolloutItemProblem(item: unknown): string | undefined {
  const type = (item as { type?: unknown } | null)?.type;
  if (typeof type !== 'string') return 'type: expected a string';
  const parsed = itemSchemaFor(type, (item as { payload?: { type?: unknown } }).payload?.type).safeParse(item);
  return parsed.success ? undefined : `${type}: ${describeIssues(parsed.error)}`;
}

// Read off the union on first use, so a host that reads no rollout never builds the item schemas.
let responseItemSchemas: ReadonlyMap<string, z.ZodType> | undefined;
const responseItemSchema = (type: string): z.ZodType | undefined =>
  (responseItemSchemas ??= new Map(KnownResponseItem.options.map((option) => [option.shape.type.value, option]))).get(type);

// One schema per line type and payload type, built on first use.
const itemSchemas = new Map<string, Map<string, z.ZodType>>();
const lineSchemas = new Map<string, Map<string, z.ZodType>>();

function itemSchemaFor(type: string, payloadType: unknown): z.ZodType {
  return cached(itemSchemas, type, payloadType, () => buildItemSchema(type, payloadType));
}

function lineSchemaFor(type: string, payloadType: unknown): z.ZodType {
  return cached(lineSchemas, type, payloadType, () => (itemSchemaFor(type, payloadType) as z.ZodObject).extend(RolloutLineEnvelope.shape));
}

function cached(cache: Map<string, Map<string, z.ZodType>>, type: string, payloadType: unknown, build: () => z.ZodType): z.ZodType {
  let byPayload = cache.get(type);
  if (byPayload === undefined) {
    byPayload = new Map();
    cache.set(type, byPayload);
  }
  const key = dispatchKey(type, payloadType);
  let schema = byPayload.get(key);
  if (schema === undefined) {
    schema = build();
    byPayload.set(key, schema);
  }
  return schema;
}

/**
 * Only `response_item` and `event_msg` lines dispatch on their payload's type, and only known
 * payload types get their own entry: unknown ones share one, so odd files cannot grow the cache.
 */
function dispatchKey(type: string, payloadType: unknown): string {
  if (typeof payloadType !== 'string') return '';
  if (type === 'response_item') return responseItemSchema(payloadType) !== undefined ? payloadType : '?';
  if (type === 'event_msg') return eventMsgSchemaFor(payloadType) === OtherEventMsg ? '?' : payloadType;
  return '';
}

function buildItemSchema(type: string, payloadType: unknown): z.ZodObject {
  if (type === 'response_item') {
    const payload = (typeof payloadType === 'string' ? responseItemSchema(payloadType) : undefined) ?? (typeof payloadType === 'string' ? OtherResponseItem : ResponseItem);
    return ResponseItemItem.extend({ payload });
  }
  if (type === 'event_msg') return EventMsgItem.extend({ payload: eventMsgSchemaFor(payloadType) });
  return isKnownRolloutLineType(type) ? KNOWN_ITEM_SCHEMAS[type] : OtherRolloutItem;
}

/**
 * The JSON text of a line (no newline), with the envelope first as Codex writes it:
 * `{"timestamp", "ordinal", "type", "payload", "metadata"?, …}`.
 */
export function serializeRolloutLine(envelope: RolloutLineEnvelope, item: RolloutItem): string {
  const { timestamp: _timestamp, ordinal: _ordinal, ...rest } = item as RolloutItem & Partial<RolloutLineEnvelope>;
  return JSON.stringify({ timestamp: envelope.timestamp, ordinal: envelope.ordinal, ...rest });
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}
