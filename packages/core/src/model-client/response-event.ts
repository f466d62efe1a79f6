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

// Read from the schema on the first event, so loading this module does not build it.
let knownServerEvents: ReadonlySet<string> | undefined;

/** Whether `type` is one of the server event types above; anything else is ignored. */
export function isKnownServerEvent(type: string): boolean {
  knownServerEvents ??= new Set(ServerEvent.options.map((option) => option.shape.type.value));
  return knownServerEvents.has(type);
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
