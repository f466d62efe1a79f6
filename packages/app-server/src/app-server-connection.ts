// One client of the app-server: the initialize handshake, a bounded request queue worked in arrival
// order, notifications filtered by the client's opt-outs, server→client requests with their own ids,
// and a bound on what the client leaves unread. Malformed input is dropped without an answer, as
// Codex 0.171.0 does.
import { RequestQueue, type JsonRpcServiceConnection, type MessageChannel } from '@skein/json-rpc';
import {
  AppServerErrorCode,
  AppServerErrorMessage,
  CODEX_CLIENT_REQUEST_METHODS,
  CODEX_LEGACY_REQUEST_METHODS,
  unknownRequestMethodMessage,
  InitializeParams,
  experimentalApiRequiredMessage,
  type JsonRpcErrorObject,
  type RequestId,
} from '@skein/protocol';
import type { z } from 'zod';
import { AppServerRequestError, ServerRequestError } from './app-server-error.js';
import type { ClientConnection, MethodContext, MethodTable } from './method.js';
import { SharedParams, notificationText } from './shared-params.js';
import type { ServerRequestAnswer } from './threads/thread-server-requests.js';
import { parseUuid } from './threads/thread-id.js';
import { invalidParamsMessage, toJsonRpcError } from './to-json-rpc-error.js';

/** What a connection needs from its server. */
export interface ConnectionSetup {
  readonly id: number;
  readonly methods: MethodTable;
  readonly maxQueuedRequests: number;
  readonly concurrentRequests: number;
  readonly maxPendingServerRequests: number;
  /** Ids for server→client requests, unique in the server (thread requests may be sent to several clients). */
  readonly nextServerRequestId: () => number;
  /** Takes an answer to a request this connection did not send itself (a thread request); false if unknown. */
  readonly routeAnswer: (connection: AppServerConnection, id: number, answer: ServerRequestAnswer) => boolean;
  readonly maxOutboundBufferedBytes: number;
  readonly now: () => number;
  /** The `initialize` result for this client. */
  readonly initializeResult: (params: InitializeParams) => object;
  /** Runs after the initialize response is sent (startup notifications). */
  readonly afterInitialize: (connection: AppServerConnection) => void;
  readonly context: (connection: AppServerConnection, method: string, requestId: RequestId) => MethodContext;
  readonly log: (line: string) => void;
}

interface QueuedRequest {
  readonly id: RequestId;
  readonly method: string;
  readonly params: unknown;
}

interface PendingServerRequest {
  readonly method: string;
  resolve(result: unknown): void;
  reject(error: ServerRequestError): void;
}

const CODEX_METHODS = new Set([...CODEX_CLIENT_REQUEST_METHODS, ...CODEX_LEGACY_REQUEST_METHODS]);

/** A response message as an answer: its result, or its error as a `ServerRequestError`. */
function answerOf(message: Record<string, unknown>, method: string): ServerRequestAnswer {
  if (!('error' in message)) return { result: message.result };
  const error = isObject(message.error) ? message.error : {};
  const code = typeof error.code === 'number' ? error.code : AppServerErrorCode.InternalError;
  const text = typeof error.message === 'string' ? error.message : 'error without a message';
  return { error: new ServerRequestError('ClientError', `the client answered ${method} with ${code}: ${text}`, { code, message: text, data: error.data }) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));
}

/** A connected client. Transports feed it with `receive`; the server disposes it on disconnect. */
export class AppServerConnection implements ClientConnection, JsonRpcServiceConnection {
  readonly id: number;
  #initializeParams: InitializeParams | undefined;
  #optOut: ReadonlySet<string> = new Set();
  #initializedNotified = false;
  readonly #queue: RequestQueue<QueuedRequest>;
  #disposed = false;
  readonly #pendingServerRequests = new Map<number, PendingServerRequest>();
  readonly #closed = new AbortController();
  /** Set once the connection hung up on a client that stopped reading; nothing more is sent. */
  #hungUp = false;
  #droppedNotifications = 0;
  /** Whether the last notification was dropped, so a run of drops is logged once. */
  #dropping = false;

  constructor(
    private readonly channel: MessageChannel,
    private readonly setup: ConnectionSetup,
  ) {
    this.id = setup.id;
    this.#queue = new RequestQueue({
      maxQueued: setup.maxQueuedRequests,
      concurrency: setup.concurrentRequests,
      overloadedMessage: AppServerErrorMessage.ServerOverloaded,
      run: (request) => this.handle(request),
      refuse: (request, error) => this.sendError(request.id, error),
    });
  }

  /** What the client sent in `initialize`; throws before it. */
  get initializeParams(): InitializeParams {
    if (this.#initializeParams === undefined) throw new Error('the client has not initialized');
    return this.#initializeParams;
  }

  /** This client's requests waiting or running (`server/diagnostics`). */
  get requestsInFlight(): number {
    return this.#queue.size;
  }

  /** Whether `initialize` succeeded. */
  get initialized(): boolean {
    return this.#initializeParams !== undefined;
  }

  /** Whether the client also sent the `initialized` notification. */
  get initializedNotified(): boolean {
    return this.#initializedNotified;
  }

  get experimentalApi(): boolean {
    return this.#initializeParams?.capabilities?.experimentalApi ?? false;
  }

  get closed(): AbortSignal {
    return this.#closed.signal;
  }

  /**
   * Notifications dropped because a client that cannot be disconnected (stdio) was not reading (see
   * `MAX_OUTBOUND_BUFFERED_BYTES`); a WebSocket client is disconnected instead, so it stays 0 there.
   */
  get droppedNotifications(): number {
    return this.#droppedNotifications;
  }

  receive(text: string): void {
    if (this.#disposed) return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.setup.log(`connection ${this.id}: ignored a message that is not JSON`);
      return;
    }
    if (!isObject(message)) {
      this.setup.log(`connection ${this.id}: ignored a message that is not a JSON object`);
      return;
    }
    const { id, method } = message;
    if (typeof method === 'string') {
      if (id === undefined) return this.receiveNotification(method);
      if (!isRequestId(id)) {
        this.setup.log(`connection ${this.id}: ignored a request whose id is neither a string nor an integer`);
        return;
      }
      this.#queue.push({ id, method, params: message.params });
      return;
    }
    if (typeof id === 'number' && ('result' in message || 'error' in message)) {
      this.receiveResponse(id, message);
      return;
    }
    // A request we can answer (it has an id) but cannot read: say so rather than leave it hanging.
    if (isRequestId(id) && !('result' in message) && !('error' in message)) {
      this.sendError(id, { code: AppServerErrorCode.InvalidRequest, message: `${AppServerErrorMessage.InvalidRequestPrefix}missing field \`method\`` });
      return;
    }
    this.setup.log(`connection ${this.id}: ignored a message that is neither a request, a notification nor a response`);
  }

  receiveOversized(_head: string, bytes: number): void {
    // Codex drops what it cannot read; the log says why the client got no answer.
    this.setup.log(`connection ${this.id}: ignored a message of ${bytes} bytes, over the request size limit`);
  }

  drain(): Promise<void> {
    return this.#queue.drain();
  }

  /** Sends a notification; `shared` carries its params already serialised when several clients get it (a broadcast). */
  notify(method: string, params: unknown, shared?: SharedParams): void {
    if (this.#disposed || this.#initializeParams === undefined || this.#optOut.has(method)) return;
    if (!this.admits('notification')) return;
    this.channel.send(notificationText(method, shared ?? new SharedParams(params), this.setup.now()));
  }

  request(method: string, params: unknown, options: { readonly onSent?: (requestId: number) => void; readonly signal?: AbortSignal } = {}): Promise<unknown> {
    if (this.#disposed || this.#hungUp) return Promise.reject(new ServerRequestError('ConnectionClosed', `the client disconnected before ${method} could be sent`));
    if (this.#pendingServerRequests.size >= this.setup.maxPendingServerRequests) {
      return Promise.reject(new ServerRequestError('TooManyPending', `the client has ${this.#pendingServerRequests.size} unanswered requests; not sending ${method}`));
    }
    const id = this.setup.nextServerRequestId();
    return new Promise((resolve, reject) => {
      const signal = options.signal;
      // A withdrawn question leaves the table, so a late answer is dropped and the slot is freed.
      const withdraw = (): void => {
        if (this.#pendingServerRequests.delete(id)) reject(new ServerRequestError('Withdrawn', `${method} was withdrawn`));
      };
      this.#pendingServerRequests.set(id, {
        method,
        resolve: (result) => {
          signal?.removeEventListener('abort', withdraw);
          resolve(result);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', withdraw);
          reject(error);
        },
      });
      this.sendRequest(id, method, params);
      options.onSent?.(id);
      signal?.addEventListener('abort', withdraw, { once: true });
    });
  }

  /** Sends a request under an id the server assigned; false when the client has gone or not initialized. */
  sendRequest(id: number, method: string, params: unknown): boolean {
    if (this.#disposed || this.#hungUp || this.#initializeParams === undefined) return false;
    this.send({ id, method, params }, 'request');
    return true;
  }

  onClose(listener: () => void): () => void {
    if (this.#closed.signal.aborted) {
      listener();
      return () => undefined;
    }
    const wrapped = (): void => listener();
    this.#closed.signal.addEventListener('abort', wrapped, { once: true });
    return () => this.#closed.signal.removeEventListener('abort', wrapped);
  }

  /** Stops answering and rejects the client's unanswered server requests. Safe to call twice. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#queue.close();
    for (const [id, pending] of this.#pendingServerRequests) {
      this.#pendingServerRequests.delete(id);
      pending.reject(new ServerRequestError('ConnectionClosed', `the client disconnected before answering ${pending.method}`));
    }
    this.#closed.abort();
  }

  private receiveNotification(method: string): void {
    // Unknown notifications are ignored, as Codex does.
    if (method === 'initialized' && this.#initializeParams !== undefined) this.#initializedNotified = true;
  }

  private receiveResponse(id: number, message: Record<string, unknown>): void {
    const pending = this.#pendingServerRequests.get(id);
    if (pending === undefined) {
      if (!this.setup.routeAnswer(this, id, answerOf(message, 'a thread request'))) this.setup.log(`connection ${this.id}: ignored an answer to request ${id}, which is not pending`);
      return;
    }
    this.#pendingServerRequests.delete(id);
    const answer = answerOf(message, pending.method);
    if ('error' in answer) pending.reject(answer.error);
    else pending.resolve(answer.result);
  }

  private async handle(request: QueuedRequest): Promise<void> {
    try {
      const result = await this.dispatch(request);
      this.send({ id: request.id, result }, 'response');
      if (request.method === 'initialize') this.setup.afterInitialize(this);
    } catch (error) {
      const answer = toJsonRpcError(error);
      if (!(error instanceof AppServerRequestError) && answer.code === AppServerErrorCode.InternalError && !(error instanceof Error && 'errno' in error)) {
        this.setup.log(`connection ${this.id}: ${request.method} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      }
      this.sendError(request.id, answer);
    }
  }

  private dispatch(request: QueuedRequest): unknown {
    if (request.method === 'initialize') return this.initialize(request.params);
    const method = this.setup.methods.get(request.method);
    if (method === undefined) {
      // A name Codex does not know is -32600 in its words (serde's "unknown variant …", issue #35);
      // one of Codex's methods that Skein does not serve is -32601 naming it, so a client can tell.
      if (!CODEX_METHODS.has(request.method)) throw new AppServerRequestError(AppServerErrorCode.InvalidRequest, unknownRequestMethodMessage(request.method));
      if (this.#initializeParams === undefined) throw new AppServerRequestError(AppServerErrorCode.InvalidRequest, AppServerErrorMessage.NotInitialized);
      throw new AppServerRequestError(AppServerErrorCode.MethodNotFound, `method not found: \`${request.method}\` is not implemented by this server`);
    }
    const params = this.parseParams(method.params, request.params);
    if (this.#initializeParams === undefined) throw new AppServerRequestError(AppServerErrorCode.InvalidRequest, AppServerErrorMessage.NotInitialized);
    if (!this.experimentalApi) {
      if (method.experimental === true) throw new AppServerRequestError(AppServerErrorCode.InvalidRequest, experimentalApiRequiredMessage(request.method));
      for (const field of method.experimentalFields ?? []) {
        if (isObject(request.params) && request.params[field] !== undefined && request.params[field] !== null) {
          throw new AppServerRequestError(AppServerErrorCode.InvalidRequest, experimentalApiRequiredMessage(`${request.method}.${field}`));
        }
      }
    }
    return method.handle(method.ownThreadIdCheck === true ? params : canonicalThreadId(params, method.threadIdNoun ?? 'thread'), this.setup.context(this, request.method, request.id));
  }

  private parseParams(schema: z.ZodType, raw: unknown): unknown {
    // Codex wants a `params` member on every request whose params type has fields.
    if (raw === undefined || raw === null) {
      const bare = schema.safeParse(undefined);
      if (bare.success) return bare.data;
      throw AppServerRequestError.invalidRequest('missing field `params`');
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) throw new AppServerRequestError(AppServerErrorCode.InvalidRequest, invalidParamsMessage(parsed.error));
    return parsed.data;
  }

  private initialize(raw: unknown): object {
    if (this.#initializeParams !== undefined) throw new AppServerRequestError(AppServerErrorCode.InvalidRequest, AppServerErrorMessage.AlreadyInitialized);
    const params = InitializeParams.parse(this.parseParams(InitializeParams, raw));
    this.#initializeParams = params;
    this.#optOut = new Set(params.capabilities?.optOutNotificationMethods ?? []);
    return this.setup.initializeResult(params);
  }

  private sendError(id: RequestId, error: JsonRpcErrorObject): void {
    this.send({ error, id }, 'response');
  }

  private send(message: object, kind: 'response' | 'request'): void {
    if (this.admits(kind)) this.channel.send(JSON.stringify(message));
  }

  /**
   * Whether a message may be sent: not when the client has left more than `maxOutboundBufferedBytes`
   * unread behind what is being written. Then, as Codex does with a full outbound queue, a client the
   * transport can drop (WebSocket) is disconnected, whatever the message; a stdio client cannot be,
   * so it loses notifications only, and answers and requests wait in the pipe's buffer.
   */
  private admits(kind: 'notification' | 'response' | 'request'): boolean {
    if (this.#disposed || this.#hungUp) return false;
    if (this.channel.bufferedBytes > this.setup.maxOutboundBufferedBytes) {
      const { disconnect } = this.channel;
      if (disconnect !== undefined) {
        this.#hungUp = true;
        // Codex's words, so logs and alerts written for Codex match.
        this.setup.log(`disconnecting slow connection after outbound queue filled: ConnectionId(${this.id})`);
        disconnect();
        return false;
      }
      if (kind === 'notification') {
        this.#droppedNotifications += 1;
        if (!this.#dropping) this.setup.log(`connection ${this.id}: dropping notifications while the client leaves over ${this.setup.maxOutboundBufferedBytes} bytes unread`);
        this.#dropping = true;
        return false;
      }
    }
    if (kind === 'notification') this.#dropping = false;
    return true;
  }
}

/** `params` with its `threadId` (if any) in canonical form; a malformed one is -32600 as Codex words it. */
function canonicalThreadId(params: unknown, noun: 'thread' | 'session'): unknown {
  if (!isObject(params) || typeof params['threadId'] !== 'string') return params;
  const parsed = parseUuid(params['threadId']);
  if ('problem' in parsed) throw new AppServerRequestError(AppServerErrorCode.InvalidRequest, `invalid ${noun} id: ${parsed.problem}`);
  return { ...params, threadId: parsed.uuid };
}
