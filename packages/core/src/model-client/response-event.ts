// The Responses API stream as typed events. Unknown event types are skipped, never fatal: the API
// adds events over time and a client must keep working.
import { lazySchema, ResponseItem } from '@skein/protocol';
import * as z from 'zod';

/** Token usage as the Responses API reports it on `response.completed`. */
export const TokenUsage = lazySchema(() => z.object({
  input_tokens: z.number().int().nonnegative(),
  input_tokens_details: z.looseObject({ cached_tokens: z.number().int().nonnegative().optional() }).nullish(),
  output_tokens: z.number().int().nonnegative(),
  output_tokens_details: z.looseObject({ reasoning_tokens: z.number().int().nonnegative().optional() }).nullish(),
  total_tokens: z.number().int().nonnegative(),
}));
export type TokenUsage = z.infer<typeof TokenUsage>;

const ApiError = lazySchema(() => z.looseObject({ code: z.string().nullish(), message: z.string().nullish(), type: z.string().nullish() }));

/** The server events this client acts on, parsed from each SSE `data:` payload. */
export const ServerEvent = lazySchema(() => z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('response.created'), response: z.looseObject({ id: z.string() }) }),
  z.looseObject({ type: z.literal('response.output_item.added'), item: ResponseItem }),
  z.looseObject({ type: z.literal('response.output_item.done'), item: ResponseItem }),
  z.looseObject({ type: z.literal('response.output_text.delta'), item_id: z.string(), delta: z.string() }),
  z.looseObject({ type: z.literal('response.reasoning_summary_text.delta'), item_id: z.string(), delta: z.string() }),
  z.looseObject({ type: z.literal('response.reasoning_text.delta'), item_id: z.string(), delta: z.string() }),
  z.looseObject({
    type: z.literal('response.completed'),
    response: z.looseObject({ id: z.string(), usage: TokenUsage.nullish() }),
  }),
  z.looseObject({
    type: z.literal('response.failed'),
    response: z.looseObject({ id: z.string().optional(), error: ApiError.nullish() }),
  }),
  z.looseObject({ type: z.literal('response.incomplete'), response: z.looseObject({ incomplete_details: z.unknown().optional() }) }),
  z.looseObject({ type: z.literal('error'), code: z.string().nullish(), message: z.string().nullish() }),
  // Out-of-band facts about the response; read leniently (see `safetyBufferingOf`).
  z.looseObject({ type: z.literal('response.metadata'), safety_buffering: z.unknown().optional(), metadata: z.unknown().optional() }),
]));
export type ServerEvent = z.infer<typeof ServerEvent>;

// Each event type's own schema, read from the union on the first event, so loading this module does not build it.
let schemaOfType: ReadonlyMap<string, z.ZodType<ServerEvent>> | undefined;

function eventSchemas(): ReadonlyMap<string, z.ZodType<ServerEvent>> {
  schemaOfType ??= new Map(ServerEvent.options.map((option) => [option.shape.type.value, option]));
  return schemaOfType;
}

/** Whether `type` is one of the server event types above; anything else is ignored. */
export function isKnownServerEvent(type: string): boolean {
  return eventSchemas().has(type);
}

const TEXT_DELTA_TYPES: ReadonlySet<string> = new Set(['response.output_text.delta', 'response.reasoning_summary_text.delta', 'response.reasoning_text.delta']);

/**
 * `json` (an SSE event's data, whose `type` or SSE event name is `type`) checked as that server
 * event; `undefined` for a type this client ignores. Same result as `ServerEvent.safeParse`, for
 * less: a text delta, most of a stream, needs only its two strings checked, and any other event
 * only its own schema. A failure is reported by the union, so its message is the union's.
 */
export function parseServerEvent(type: string, json: unknown): z.ZodSafeParseResult<ServerEvent> | undefined {
  const schema = eventSchemas().get(type);
  if (schema === undefined) return undefined;
  const event = typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : undefined;
  if (event?.type === type) {
    // A delta's schema is `type` plus two strings, other fields kept as they are: checked by hand, it is the same test.
    if (TEXT_DELTA_TYPES.has(type) && typeof event.item_id === 'string' && typeof event.delta === 'string') return { success: true, data: json as ServerEvent };
    const parsed = schema.safeParse(json);
    if (parsed.success) return parsed;
  }
  return ServerEvent.safeParse(json);
}

/**
 * The server holding the response back while its safety checks run. Codex 0.171.0 (probed) reads it
 * from a `response.metadata` event's `safety_buffering` object, else from its `metadata` object when
 * that says `type: "safety_buffering"`; both lists are required, and one without them is ignored.
 */
const SafetyBufferingPayload = lazySchema(() => z.looseObject({
  use_cases: z.array(z.string()),
  reasons: z.array(z.string()),
  retry_model: z.string().nullish(),
}));

/** The safety-buffering notice a `response.metadata` event carries, if it carries a valid one. */
export function safetyBufferingOf(event: { readonly safety_buffering?: unknown; readonly metadata?: unknown }): { useCases: string[]; reasons: string[]; retryModel: string | undefined } | undefined {
  const nested = typeof event.metadata === 'object' && event.metadata !== null && (event.metadata as { type?: unknown }).type === 'safety_buffering' ? event.metadata : undefined;
  const parsed = SafetyBufferingPayload.safeParse(event.safety_buffering ?? nested);
  if (!parsed.success) return undefined;
  return { useCases: parsed.data.use_cases, reasons: parsed.data.reasons, retryModel: parsed.data.retry_model ?? undefined };
}

/** What a sampling stream yields to its consumer. */
export type ResponseEvent =
  | { readonly type: 'created'; readonly responseId: string }
  | { readonly type: 'outputItemAdded'; readonly item: ResponseItem }
  | { readonly type: 'outputItemDone'; readonly item: ResponseItem }
  | { readonly type: 'outputTextDelta'; readonly itemId: string; readonly delta: string }
  | { readonly type: 'reasoningSummaryDelta'; readonly itemId: string; readonly delta: string }
  | { readonly type: 'reasoningContentDelta'; readonly itemId: string; readonly delta: string }
  | { readonly type: 'completed'; readonly responseId: string; readonly usage: TokenUsage | undefined }
  /** The server is buffering the response for a safety review; `fasterModel` is the model to retry with, if it names one. */
  | { readonly type: 'safetyBuffering'; readonly useCases: readonly string[]; readonly reasons: readonly string[]; readonly fasterModel: string | undefined }
  /**
   * The stream broke and the request is being sent again: discard what this attempt produced.
   * `attempt` counts from 1; `delayMs` is the wait before the retry.
   */
  | { readonly type: 'retrying'; readonly attempt: number; readonly delayMs: number; readonly reason: string };
