// Streams one sampling request to a Responses API endpoint: auth and provider headers, SSE parsing,
// retries with backoff for failed requests and for streams cut before `response.completed`, and an
// idle timeout. Failures surface as typed ModelErrors.
import { OPENAI_PROVIDER_ID, type ModelProviderInfo } from '@skein/config';
import type { EventSourceMessage } from 'eventsource-parser';
import { webBodyReader } from './body-reader.js';
import { httpPost, type ModelHttpPost, type ModelHttpResponse } from './http-post.js';
import { ModelError, classifyApiError } from './model-error.js';
import { parseServerEvent, safetyBufferingOf, type ResponseEvent } from './response-event.js';
import { DEFAULT_RETRY_POLICY, parseRetryAfter, retryDelayMs, type RetryPolicy } from './retry-policy.js';
import { readSseMessages } from './sse-reader.js';

/** Capabilities the client needs, injected so tests control time and the network. */
export interface ResponsesClientOptions {
  readonly provider: ModelProviderInfo;
  /** The environment to read `env_key` and `env_http_headers` from. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The API key the user signed in with (auth.json), read at each request: for an OpenAI-auth provider when the environment names none. */
  readonly savedApiKey?: (() => string | undefined) | undefined;
  /** Sends the request (default: node:http(s)); the global `fetch` fits too. */
  readonly post?: ModelHttpPost;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly now?: () => number;
  readonly retryPolicy?: RetryPolicy;
}

/** Per-request extras: headers such as `session-id` or the turn metadata, and cancellation. */
export interface StreamOptions {
  readonly headers?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
}

// A request body bigger than this is a bug upstream (history not compacted), not something to send.
const MAX_REQUEST_BYTES = 64 * 1024 * 1024;
// One SSE event larger than this means a broken or hostile server.
const MAX_EVENT_BYTES = 16 * 1024 * 1024;
// The model a safety-buffered response may be retried with, when the event itself names none.
const SAFETY_BUFFERING_FASTER_MODEL_HEADER = 'x-codex-safety-buffering-faster-model';

/** A client for one provider. Stateless between calls; safe to share across threads. */
/** A Responses request body. */
type RequestBody = Readonly<Record<string, unknown>>;

export class ResponsesClient {
  readonly #provider: ModelProviderInfo;
  readonly #env: Readonly<Record<string, string | undefined>>;
  readonly #savedApiKey: (() => string | undefined) | undefined;
  readonly #send: ModelHttpPost;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly #now: () => number;
  readonly #retryPolicy: RetryPolicy;

  constructor(options: ResponsesClientOptions) {
    this.#provider = options.provider;
    this.#env = options.env;
    this.#savedApiKey = options.savedApiKey;
    this.#send = options.post ?? httpPost;
    this.#sleep = options.sleep ?? abortableSleep;
    // eslint-disable-next-line no-restricted-properties -- the default clock; tests inject their own
    this.#now = options.now ?? Date.now;
    this.#retryPolicy = options.retryPolicy ?? DEFAULT_RETRY_POLICY;
  }

  /**
   * Sends `body` (a Responses request with `stream: true`) and yields its events until
   * `completed`. Retries transparently; a `retrying` event tells the consumer to drop what the
   * failed attempt produced and had not kept. `body` may be a function, called for each attempt, so
   * a retry carries what the consumer kept of the broken attempt. Throws ModelError when retries
   * are exhausted or the error is final.
   */
  async *stream(body: RequestBody | (() => RequestBody), options: StreamOptions = {}): AsyncGenerator<ResponseEvent, void, undefined> {
    const headers = this.#headers(options.headers);
    let requestRetries = 0;
    let streamRetries = 0;
    for (;;) {
      // Encoded once: a long thread's request is megabytes, measured, sent and retried as these bytes.
      const payload = Buffer.from(JSON.stringify(typeof body === 'function' ? body() : body), 'utf8');
      if (payload.length > MAX_REQUEST_BYTES) {
        throw new ModelError('BadRequest', `the request is ${payload.length} bytes, over the ${MAX_REQUEST_BYTES}-byte limit`);
      }
      let response: ModelHttpResponse;
      try {
        response = await this.#post(payload, headers, options.signal);
      } catch (error) {
        const failure = asModelError(error, options.signal, this.#endpoint());
        if (!failure.retryable || requestRetries >= this.#provider.requestMaxRetries) throw failure;
        requestRetries += 1;
        yield* this.#pause(requestRetries, failure, options.signal);
        continue;
      }
      try {
        yield* this.#read(response, options.signal);
        return;
      } catch (error) {
        const failure = asModelError(error, options.signal);
        if (!failure.retryable || streamRetries >= this.#provider.streamMaxRetries) throw failure;
        streamRetries += 1;
        yield* this.#pause(streamRetries, failure, options.signal);
      }
    }
  }

  async *#pause(attempt: number, failure: ModelError, signal: AbortSignal | undefined): AsyncGenerator<ResponseEvent> {
    const delayMs = retryDelayMs(this.#retryPolicy, attempt, failure.details.retryAfterMs);
    yield { type: 'retrying', attempt, delayMs, reason: failure.message };
    await this.#sleep(delayMs, signal);
  }

  /** In Codex's order: the turn's own headers, the provider's and the transport's, then who asks. */
  #headers(extra: Readonly<Record<string, string>> | undefined): Record<string, string> {
    const { originator, 'user-agent': userAgent, ...turn } = extra ?? {};
    const headers: Record<string, string> = { ...turn };
    // The turn's headers win over a provider's of the same name: they identify the request.
    const provide = (name: string, value: string) => {
      if (!(name in turn)) headers[name] = value;
    };
    for (const [name, value] of Object.entries(this.#provider.httpHeaders)) provide(name, value);
    provide('accept', 'text/event-stream');
    provide('content-type', 'application/json');
    for (const [name, variable] of Object.entries(this.#provider.envHttpHeaders)) {
      const value = this.#env[variable];
      if (value !== undefined && value !== '') provide(name, value);
    }
    const key = this.#apiKey();
    if (key !== undefined) provide('authorization', `Bearer ${key}`);
    if (originator !== undefined) headers.originator = originator;
    if (userAgent !== undefined) headers['user-agent'] = userAgent;
    return headers;
  }


  /**
   * The bearer key, as Codex 0.171.0 picks it (probed): a provider with its own `env_key` takes that
   * variable only (missing is an error; no sign-in applies). A provider with OpenAI's sign-in and no
   * `env_key` (and the built-in `openai`) takes `CODEX_API_KEY`, then the key saved in auth.json;
   * without either Codex sends no key, and Skein's built-in `openai` falls back to `OPENAI_API_KEY`.
   * Any other provider gets no key.
   */
  #apiKey(): string | undefined {
    const { envKey, requiresOpenaiAuth, id } = this.#provider;
    if (requiresOpenaiAuth && (envKey === undefined || id === OPENAI_PROVIDER_ID)) {
      // CODEX_API_KEY is how `codex exec` (and @openai/codex-sdk's `apiKey`) pass a key; the app-server leaves it out of `env`.
      const key = nonEmpty(this.#env.CODEX_API_KEY) ?? nonEmpty(this.#savedApiKey?.()) ?? (envKey === undefined ? undefined : nonEmpty(this.#env[envKey]));
      if (key !== undefined || envKey === undefined) return key;
      throw new ModelError('MissingApiKey', `missing environment variable ${envKey} for provider '${id}': ${this.#provider.envKeyInstructions ?? `set ${envKey}, or save a key with \`skein login --with-api-key\` (or \`codex login --with-api-key\`)`}`);
    }
    if (envKey === undefined) return undefined;
    const key = nonEmpty(this.#env[envKey]);
    if (key === undefined) {
      const hint = this.#provider.envKeyInstructions ?? `set ${envKey} to the provider's API key`;
      throw new ModelError('MissingApiKey', `missing environment variable ${envKey} for provider '${id}': ${hint}`);
    }
    return key;
  }

  /** Where requests go, for messages: without the query, which may carry credentials. */
  #endpoint(): string {
    return `${this.#provider.baseUrl}/responses`;
  }

  async #post(payload: Uint8Array, headers: Record<string, string>, signal: AbortSignal | undefined): Promise<ModelHttpResponse> {
    const url = new URL(this.#endpoint());
    for (const [name, value] of Object.entries(this.#provider.queryParams)) url.searchParams.set(name, value);
    const response = await this.#send(url, { method: 'POST', headers, body: payload, ...(signal === undefined ? {} : { signal }) });
    if (response.ok) return response;
    const text = await response.text().catch(() => '');
    const parsed = parseErrorBody(text);
    throw classifyApiError(response.status, parsed.code, parsed.message || response.statusText, parseRetryAfter(response.headers, this.#now()));
  }

  async *#read(response: ModelHttpResponse, signal: AbortSignal | undefined): AsyncGenerator<ResponseEvent> {
    // node:http's body is read as it comes; `body` (a web stream) only when that is all there is.
    const body = response.bodyReader?.() ?? (response.body === null ? undefined : webBodyReader(response.body));
    if (body === undefined) throw new ModelError('StreamDisconnected', 'the provider answered without a body');
    const context: StreamContext = { fasterModel: nonEmpty(response.headers.get(SAFETY_BUFFERING_FASTER_MODEL_HEADER) ?? undefined) };
    for await (const messages of readSseMessages(body, this.#provider.streamIdleTimeoutMs)) {
      for (const message of messages) {
        if (signal?.aborted === true) throw new ModelError('Aborted', 'the request was cancelled');
        const event = toResponseEvent(message, context);
        if (event === undefined) continue;
        yield event;
        if (event.type === 'completed') return;
      }
    }
    throw new ModelError('StreamDisconnected', 'the stream ended before response.completed');
  }
}

/** What the response's headers say that its events may need. */
interface StreamContext {
  readonly fasterModel: string | undefined;
}

/** Maps one SSE message to an event; `undefined` for events this client does not act on. */
function toResponseEvent(message: EventSourceMessage, context: StreamContext): ResponseEvent | undefined {
  if (message.data.length > MAX_EVENT_BYTES) throw new ModelError('StreamDisconnected', `an SSE event of ${message.data.length} bytes exceeds the limit`);
  let json: unknown;
  try {
    json = JSON.parse(message.data);
  } catch {
    throw new ModelError('StreamDisconnected', `the provider sent an SSE event that is not JSON: ${message.data.slice(0, 120)}`);
  }
  const type = typeof json === 'object' && json !== null && 'type' in json ? json.type : message.event;
  if (typeof type !== 'string') return undefined;
  const parsed = parseServerEvent(type, json);
  if (parsed === undefined) return undefined;
  if (!parsed.success) throw new ModelError('ResponseFailed', `the provider sent a malformed ${type} event: ${parsed.error.issues[0]?.message ?? ''}`);
  const event = parsed.data;
  switch (event.type) {
    case 'response.created':
      return { type: 'created', responseId: event.response.id };
    case 'response.output_item.added':
      return { type: 'outputItemAdded', item: event.item };
    case 'response.output_item.done':
      return { type: 'outputItemDone', item: event.item };
    case 'response.output_text.delta':
      return { type: 'outputTextDelta', itemId: event.item_id, delta: event.delta };
    case 'response.reasoning_summary_text.delta':
      return { type: 'reasoningSummaryDelta', itemId: event.item_id, delta: event.delta };
    case 'response.reasoning_text.delta':
      return { type: 'reasoningContentDelta', itemId: event.item_id, delta: event.delta };
    case 'response.completed':
      return { type: 'completed', responseId: event.response.id, usage: event.response.usage ?? undefined };
    case 'response.failed':
      throw classifyApiError(undefined, event.response.error?.code ?? undefined, event.response.error?.message ?? 'no message');
    case 'response.incomplete':
      throw new ModelError('ResponseFailed', `the response was incomplete: ${JSON.stringify(event.response.incomplete_details ?? null)}`);
    case 'error':
      throw classifyApiError(undefined, event.code ?? undefined, event.message ?? 'no message');
    case 'response.metadata': {
      const buffering = safetyBufferingOf(event);
      if (buffering === undefined) return undefined;
      return { type: 'safetyBuffering', useCases: buffering.useCases, reasons: buffering.reasons, fasterModel: buffering.retryModel ?? context.fasterModel };
    }
  }
}

/** `endpoint` is set when the request itself failed (nothing was received yet). */
function asModelError(error: unknown, signal: AbortSignal | undefined, endpoint?: string): ModelError {
  if (signal?.aborted === true) return new ModelError('Aborted', 'the request was cancelled', { cause: error });
  if (error instanceof ModelError) return error;
  const where = endpoint === undefined ? 'the provider' : `the provider at ${endpoint}`;
  return new ModelError('Transport', `could not reach ${where}: ${transportCause(error)}`, { cause: error });
}

/**
 * What went wrong on the wire: node:http's error says it (`connect ECONNREFUSED 127.0.0.1:9`,
 * `getaddrinfo ENOTFOUND …`); a fetch passed in says "fetch failed" and keeps the reason in `cause`.
 */
function transportCause(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error ? (error.cause as { message?: unknown; code?: unknown } | undefined) : undefined;
  if (typeof cause?.message === 'string' && cause.message !== '') return cause.message;
  if (typeof cause?.code === 'string') return `${message} (${cause.code})`;
  return message;
}

function parseErrorBody(text: string): { code: string | undefined; message: string } {
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; type?: unknown; message?: unknown } };
    const code = typeof body.error?.code === 'string' ? body.error.code : typeof body.error?.type === 'string' ? body.error.type : undefined;
    return { code, message: typeof body.error?.message === 'string' ? body.error.message : text.slice(0, 500) };
  } catch {
    return { code: undefined, message: text.slice(0, 500) };
  }
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) return reject(new ModelError('Aborted', 'the request was cancelled'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ModelError('Aborted', 'the request was cancelled'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
