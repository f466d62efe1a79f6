// Builders for single Responses API stream events, named after the event they make. The server adds
// `sequence_number`, `output_index`, the response's `model` and `output`, and fills deferred ids.
import { RESPONSE_ID } from './deferred-id.js';
import type { MockId } from './deferred-id.js';
import type { MockEvent } from './mock-event.js';
import { tokenUsage } from './token-usage.js';
import type { UsageOptions } from './token-usage.js';

/** An output item as a script holds it: `type`, usually `id`, and the item's fields. */
export interface MockItem {
  readonly type: string;
  readonly id?: MockId;
  readonly [field: string]: unknown;
}

/** Options shared by the events that carry the response object. */
export interface ResponseIdOptions {
  /** A fixed response id; by default the server's next `resp_mock_NNNN`. */
  readonly responseId?: string;
}

/** `response.created`. `sse(...)` adds one at the start of a script that does not begin with it. */
export function created(options: ResponseIdOptions = {}): MockEvent {
  return {
    type: 'response.created',
    response: { id: options.responseId ?? RESPONSE_ID, object: 'response', status: 'in_progress' },
  };
}

/** `response.output_item.added`: an item starts (usually with empty content). */
export function outputItemAdded(item: MockItem): MockEvent {
  return { type: 'response.output_item.added', item };
}

/** `response.output_item.done`: the finished item, which is what clients keep. */
export function outputItemDone(item: MockItem): MockEvent {
  return { type: 'response.output_item.done', item };
}

/** `response.output_text.delta`: a piece of an assistant message's text. */
export function outputTextDelta(itemId: MockId, delta: string, options: { readonly contentIndex?: number } = {}): MockEvent {
  return { type: 'response.output_text.delta', item_id: itemId, content_index: options.contentIndex ?? 0, delta };
}

/** `response.reasoning_summary_text.delta`: a piece of a reasoning item's summary. */
export function reasoningSummaryTextDelta(
  itemId: MockId,
  delta: string,
  options: { readonly summaryIndex?: number } = {},
): MockEvent {
  return { type: 'response.reasoning_summary_text.delta', item_id: itemId, summary_index: options.summaryIndex ?? 0, delta };
}

/** Options of `completed`. */
export interface CompletedOptions extends ResponseIdOptions {
  /** Token counts; see `tokenUsage` for the defaults. */
  readonly usage?: UsageOptions;
}

/** `response.completed` with `usage`; the server fills `response.output` with the items it streamed. */
export function completed(options: CompletedOptions = {}): MockEvent {
  return {
    type: 'response.completed',
    response: { id: options.responseId ?? RESPONSE_ID, object: 'response', status: 'completed', usage: tokenUsage(options.usage) },
  };
}

/**
 * `response.failed` with `response.error = {code, message}`.
 * @example failed('context_length_exceeded', 'The input is longer than the context window.')
 */
export function failed(code: string, message: string, options: ResponseIdOptions = {}): MockEvent {
  return {
    type: 'response.failed',
    response: { id: options.responseId ?? RESPONSE_ID, object: 'response', status: 'failed', error: { code, message } },
  };
}

/** Options of `safetyBuffering`. */
export interface SafetyBufferingOptions {
  readonly useCases?: readonly string[];
  readonly reasons?: readonly string[];
  /** The faster model the server suggests retrying with (`retry_model`). */
  readonly retryModel?: string;
}

/**
 * `response.metadata` carrying `safety_buffering`: the server is holding the response back while its
 * safety checks run (what Codex surfaces as `model/safetyBuffering/updated`).
 */
export function safetyBuffering(options: SafetyBufferingOptions = {}): MockEvent {
  const payload = { use_cases: options.useCases ?? [], reasons: options.reasons ?? [], ...(options.retryModel === undefined ? {} : { retry_model: options.retryModel }) };
  return { type: 'response.metadata', safety_buffering: payload };
}
