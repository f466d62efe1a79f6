// What the server answers to one Responses request: a stream of events or an HTTP error, optionally
// guarded by a matcher that the request must satisfy.
import { StreamCut } from './mock-event.js';
import type { MockEvent } from './mock-event.js';
import { MockServerError } from './mock-server-error.js';
import type { CapturedRequest } from './captured-request.js';
import type { RequestMatcher } from './request-matcher.js';
import { created } from './sse-events.js';

/** One step of a stream script: an event, or the cut that ends the stream early. */
export type ScriptStep = MockEvent | StreamCut;

/** Response headers a script adds to (or overrides in) the server's own. */
export type ScriptHeaders = Readonly<Record<string, string>>;

/** A `200 text/event-stream` answer. */
export interface SseResponse {
  readonly kind: 'sse';
  /** Events in order; a `StreamCut`, if any, is the last step. */
  readonly steps: readonly ScriptStep[];
  readonly headers?: ScriptHeaders;
  readonly match?: RequestMatcher;
  /** Served to the first request `match` accepts, wherever it is in the script; see `routed`. */
  readonly routed?: true;
  /** Where the server stops and waits before going on (a model that takes its time); see `held`. */
  readonly hold?: SseHold;
  /** How long the server takes to stream it (a model's pace); see `paced`. */
  readonly pace?: SsePace;
  /** Makes the stream from the request when it arrives, in place of `steps`; see `replyTo`. */
  readonly compute?: (request: CapturedRequest) => SseResponse;
}

/**
 * A pause in a stream: the server sends the events before `before` (`'start'`: none, not even the
 * headers; `'completed'`: all but the terminal event — `response.completed`, `.failed` or
 * `.incomplete` — or, in a cut stream, every event before the cut), then waits until `until` settles.
 */
export interface SseHold {
  readonly before: 'start' | 'completed';
  readonly until: PromiseLike<unknown>;
}

/**
 * A stream served at a model's pace: its frames evenly spread over `overMs`, the first after one
 * gap (the time to the first token), each on a schedule from the start (a late frame does not
 * push back the rest), so the whole answer takes about `overMs`.
 */
export interface SsePace {
  readonly overMs: number;
}

/** An HTTP error answer with a JSON body. */
export interface HttpErrorResponse {
  readonly kind: 'http-error';
  readonly status: number;
  /** Sent JSON-encoded. */
  readonly body: unknown;
  readonly headers?: ScriptHeaders;
  readonly match?: RequestMatcher;
  readonly routed?: true;
}

/** The answer to one Responses request. */
export type ScriptedResponse = SseResponse | HttpErrorResponse;

/**
 * A whole streamed response. Steps are events, arrays of events (what the item builders return) or a
 * final `streamCut()`. A `response.created` is put first unless the script starts with one.
 * @example sse(assistantMessage('Done.'), completed())
 */
export function sse(...steps: (ScriptStep | readonly MockEvent[])[]): SseResponse {
  const flat = steps.flatMap((step): ScriptStep[] => (isEventList(step) ? [...step] : [step]));
  const cutAt = flat.findIndex((step) => step instanceof StreamCut);
  if (cutAt !== -1 && cutAt !== flat.length - 1) {
    throw new MockServerError('InvalidScript', `streamCut() must be the last step of an sse() script; it is step ${cutAt} of ${flat.length}`);
  }
  const first = flat[0];
  const startsWithCreated = first !== undefined && !(first instanceof StreamCut) && first.type === 'response.created';
  return { kind: 'sse', steps: startsWithCreated ? flat : [created(), ...flat] };
}

/** Options of `httpError`. */
export interface HttpErrorOptions {
  /** JSON body; by default an OpenAI-style `{error: {message, type, param, code}}`. */
  readonly body?: unknown;
  /** e.g. `{ 'retry-after': '2' }`. */
  readonly headers?: ScriptHeaders;
}

/**
 * An HTTP error answer.
 * @example httpError(429, { headers: { 'retry-after': '1' } })
 */
export function httpError(status: number, options: HttpErrorOptions = {}): HttpErrorResponse {
  if (!Number.isInteger(status) || status < 400 || status > 599) {
    throw new MockServerError('InvalidScript', `httpError() takes a 4xx or 5xx status, not ${status}`);
  }
  const body = options.body ?? {
    error: { message: `The mock server was scripted to answer HTTP ${status}.`, type: 'mock_scripted_error', param: null, code: null },
  };
  return { kind: 'http-error', status, body, ...(options.headers === undefined ? {} : { headers: options.headers }) };
}

/**
 * The same response, served only to a request that satisfies `match`; any other request gets HTTP
 * 500 and a recorded `matcher-mismatch`.
 * @example matching({ model: 'gpt-5.5' }, sse(assistantMessage('hi'), completed()))
 */
export function matching<R extends ScriptedResponse>(match: RequestMatcher, response: R): R {
  return { ...response, match };
}

/**
 * The same response, served to the first request that satisfies `match` whatever its place in the
 * script: for conversations that ask concurrently (a parent and its sub-agents), whose order is not
 * fixed. Unrouted responses are served in order to the requests no routed response takes.
 * @example routed((request) => request.header('thread-id') === childId, sse(assistantMessage('done'), completed()))
 */
export function routed<R extends ScriptedResponse>(match: RequestMatcher, response: R): R {
  return { ...response, match, routed: true };
}

/**
 * A stream made from the request it answers: for a reply that names something only the client
 * knows (the id of a thread it just made, read from an earlier call's output).
 * @example replyTo((request) => sse(functionCall('wait_agent', { targets: [idIn(request)] }), completed()))
 */
export function replyTo(compute: (request: CapturedRequest) => SseResponse): SseResponse {
  return { kind: 'sse', steps: [], compute };
}

/**
 * The same stream, paused at `hold.before` until `hold.until` settles: a test can act (kill the
 * client, say) while the client waits on the model at a known point.
 * @example held(sse(assistantMessage('hi'), completed()), { before: 'completed', until: released })
 */
export function held(response: SseResponse, hold: SseHold): SseResponse {
  return { ...response, hold };
}

/**
 * The same stream, served over `pace.overMs` with a pause before each frame: a model that takes its
 * time, for benchmarks that separate what the client adds from what the model takes.
 * @example paced(sse(assistantMessage(['Hel', 'lo']), completed()), { overMs: 1000 })
 */
export function paced(response: SseResponse, pace: SsePace): SseResponse {
  if (!Number.isFinite(pace.overMs) || pace.overMs < 0) {
    throw new MockServerError('InvalidScript', `paced() takes a finite, non-negative overMs, not ${pace.overMs}`);
  }
  return { ...response, pace };
}

function isEventList(step: ScriptStep | readonly MockEvent[]): step is readonly MockEvent[] {
  return Array.isArray(step);
}
