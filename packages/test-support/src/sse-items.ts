// Builders for whole output items (added, deltas, done), so a script reads like the transcript of
// what the model said: sse(reasoningItem('…'), functionCall('exec_command', {cmd: 'ls'}), completed()).
import { DeferredId } from './deferred-id.js';
import type { MockEvent } from './mock-event.js';
import { outputItemAdded, outputItemDone, outputTextDelta, reasoningSummaryTextDelta } from './sse-events.js';

/** The `phase` Codex's newer models put on assistant messages. */
export type MessagePhase = 'commentary' | 'final_answer';

/** Options of `assistantMessage`. */
export interface AssistantMessageOptions {
  /** Item id; by default the server's next `msg_mock_NNNN`. */
  readonly id?: string;
  readonly phase?: MessagePhase;
}

/**
 * An assistant message: `output_item.added`, one `output_text.delta` per piece, `output_item.done`
 * holding the whole text. A string is sent as one delta; an array as one delta per element.
 */
export function assistantMessage(text: string | readonly string[], options: AssistantMessageOptions = {}): MockEvent[] {
  const id = options.id ?? new DeferredId('msg');
  const deltas = pieces(text);
  const phase = options.phase === undefined ? {} : { phase: options.phase };
  return [
    outputItemAdded({ type: 'message', id, status: 'in_progress', role: 'assistant', content: [], ...phase }),
    ...deltas.map((delta) => outputTextDelta(id, delta)),
    outputItemDone({
      type: 'message',
      id,
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: deltas.join(''), annotations: [] }],
      ...phase,
    }),
  ];
}

/** Options of `reasoningItem`. */
export interface ReasoningItemOptions {
  /** Item id; by default the server's next `rs_mock_NNNN`. */
  readonly id?: string;
  /** Sent as `encrypted_content` on the finished item, which clients replay verbatim. */
  readonly encryptedContent?: string;
}

/**
 * A reasoning item whose summary streams as `reasoning_summary_text.delta` events (one per piece,
 * as for `assistantMessage`); the finished item holds `summary: [{type: 'summary_text', text}]`.
 */
export function reasoningItem(summaryText: string | readonly string[], options: ReasoningItemOptions = {}): MockEvent[] {
  const id = options.id ?? new DeferredId('rs');
  const deltas = pieces(summaryText);
  const text = deltas.join('');
  const encrypted = options.encryptedContent === undefined ? {} : { encrypted_content: options.encryptedContent };
  return [
    outputItemAdded({ type: 'reasoning', id, summary: [] }),
    ...deltas.map((delta) => reasoningSummaryTextDelta(id, delta)),
    outputItemDone({ type: 'reasoning', id, summary: text === '' ? [] : [{ type: 'summary_text', text }], ...encrypted }),
  ];
}

/** Ids of a tool call item. */
export interface ToolCallOptions {
  /** `call_id`, which the client's output must echo; by default the server's next `call_mock_NNNN`. */
  readonly callId?: string;
  /** Item id; by default the server's next `fc_mock_NNNN` / `ctc_mock_NNNN`. */
  readonly id?: string;
  /** For a function call: the namespace tool the function belongs to (`skills` for `skills.read`). */
  readonly namespace?: string;
}

/**
 * A `function_call` item. An object argument is sent JSON-encoded; a string is sent as is, which is
 * how a test feeds the client malformed arguments.
 */
export function functionCall(
  name: string,
  args: Readonly<Record<string, unknown>> | string,
  options: ToolCallOptions = {},
): MockEvent[] {
  const id = options.id ?? new DeferredId('fc');
  const callId = options.callId ?? new DeferredId('call');
  const argumentsText = typeof args === 'string' ? args : JSON.stringify(args);
  const scope = options.namespace === undefined ? {} : { namespace: options.namespace };
  return [
    outputItemAdded({ type: 'function_call', id, call_id: callId, ...scope, name, arguments: '', status: 'in_progress' }),
    outputItemDone({ type: 'function_call', id, call_id: callId, ...scope, name, arguments: argumentsText, status: 'completed' }),
  ];
}

/** A `custom_tool_call` item (a freeform tool such as `apply_patch`) with its raw `input`. */
export function customToolCall(name: string, input: string, options: ToolCallOptions = {}): MockEvent[] {
  const id = options.id ?? new DeferredId('ctc');
  const callId = options.callId ?? new DeferredId('call');
  return [
    outputItemAdded({ type: 'custom_tool_call', id, call_id: callId, name, input: '', status: 'in_progress' }),
    outputItemDone({ type: 'custom_tool_call', id, call_id: callId, name, input, status: 'completed' }),
  ];
}

/** Options of `webSearchCall`. */
export interface WebSearchCallOptions {
  /** Item id; by default the server's next `ws_mock_NNNN`. */
  readonly id?: string;
  /** The finished item's action; by default `{type: "search", query, queries: [query]}`. */
  readonly action?: Readonly<Record<string, unknown>>;
}

/**
 * A hosted `web_search_call` item, as the Responses API streams one: added without an action while
 * the search runs, the progress events, then done with what was searched. The client runs nothing.
 */
export function webSearchCall(query: string, options: WebSearchCallOptions = {}): MockEvent[] {
  const id = options.id ?? new DeferredId('ws');
  const action = options.action ?? { type: 'search', query, queries: [query] };
  return [
    outputItemAdded({ type: 'web_search_call', id, status: 'in_progress' }),
    { type: 'response.web_search_call.in_progress', item_id: id },
    { type: 'response.web_search_call.searching', item_id: id },
    { type: 'response.web_search_call.completed', item_id: id },
    outputItemDone({ type: 'web_search_call', id, status: 'completed', action }),
  ];
}

/** Ids of a `tool_search_call`. */
export interface ToolSearchCallOptions {
  /** `call_id`, which the client's `tool_search_output` must echo; by default the server's next `call_mock_NNNN`. */
  readonly callId?: string;
  /** Item id; by default the server's next `tsc_mock_NNNN`. */
  readonly id?: string;
}

/** A client-executed `tool_search_call`: the model asks the client to search its deferred tools. */
export function toolSearchCall(args: Readonly<Record<string, unknown>>, options: ToolSearchCallOptions = {}): MockEvent[] {
  const id = options.id ?? new DeferredId('tsc');
  const callId = options.callId ?? new DeferredId('call');
  return [
    outputItemAdded({ type: 'tool_search_call', id, call_id: callId, status: 'in_progress', execution: 'client', arguments: {} }),
    outputItemDone({ type: 'tool_search_call', id, call_id: callId, status: 'completed', execution: 'client', arguments: args }),
  ];
}

function pieces(text: string | readonly string[]): readonly string[] {
  if (typeof text !== 'string') return text;
  return text === '' ? [] : [text];
}
