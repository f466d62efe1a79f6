// A JSON-RPC client for app-server tests, over a spawned process's stdio, a pair of streams or a
// WebSocket. Every message the server sends is checked against Codex's schema; a failure rejects
// whatever the test is waiting for and makes `close()` throw, so the test fails.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { WebSocket, type RawData } from 'ws';
import { appServerSchema, type AppServerSchema } from './app-server-schema.js';

/** How long `waitFor` and `request` wait by default before failing with a description of what arrived. */
export const DEFAULT_APP_SERVER_WAIT_MS = 15_000;
/** Notifications kept per client; the oldest are dropped beyond this. */
export const MAX_RECORDED_NOTIFICATIONS = 10_000;
/** stderr kept from a spawned server (the tail), for failure messages. */
const MAX_STDERR_CHARS = 64 * 1024;

function rawText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

/** A JSON-RPC request id. */
export type AppServerRequestId = string | number;

/** A notification the server sent. */
export interface ReceivedNotification {
  readonly method: string;
  readonly params: unknown;
  readonly emittedAtMs?: number;
}

/** A request the server sent to the client. */
export interface ReceivedServerRequest {
  readonly id: AppServerRequestId;
  readonly method: string;
  readonly params: unknown;
}

/** The answer to a request: its result, or its JSON-RPC error. */
export type AppServerReply = { readonly result: unknown } | { readonly error: { readonly code: number; readonly message: string; readonly data?: unknown } };

/** Answers a server→client request; what it returns is the result, what it throws becomes the error. */
export type ServerRequestHandler = (request: ReceivedServerRequest) => unknown;

/** Why the client gave up. */
export class AppServerTestClientError extends Error {
  override readonly name = 'AppServerTestClientError';
  constructor(
    readonly code: 'SchemaViolation' | 'Timeout' | 'Closed' | 'RemoteError' | 'ConnectFailed',
    message: string,
    /** For `RemoteError`: the JSON-RPC error code. */
    readonly rpcCode?: number,
  ) {
    super(message);
  }
}

/** Where the client reads and writes. */
interface ClientTransport {
  send(text: string): void;
  close(): Promise<void>;
}

/** Options shared by every way to connect. */
export interface AppServerTestClientOptions {
  /** Schema to validate with (default: the shared one). */
  readonly schema?: AppServerSchema;
  /** Default wait for `request` and `waitFor`. */
  readonly timeoutMs?: number;
}

/** Options of {@link AppServerTestClient.spawn}. */
export interface SpawnAppServerOptions extends AppServerTestClientOptions {
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Options of {@link AppServerTestClient.connectWebSocket}. */
export interface WebSocketClientOptions extends AppServerTestClientOptions {
  /** Sent as `Authorization: Bearer <token>`. */
  readonly token?: string;
}

interface Pending {
  readonly method: string;
  resolve(reply: AppServerReply): void;
  reject(error: Error): void;
}

interface Waiter {
  readonly method: string;
  readonly predicate: (params: unknown) => boolean;
  readonly resolve: (params: unknown) => void;
  readonly reject: (error: Error) => void;
}

/**
 * One app-server connection for a test.
 *
 * @example
 * const client = await AppServerTestClient.connectWebSocket(url, { token });
 * await client.initialize();
 * const { dataBase64 } = (await client.request('fs/readFile', { path })) as { dataBase64: string };
 * await client.close();
 */
export class AppServerTestClient {
  /** Every notification received, oldest first (bounded by `MAX_RECORDED_NOTIFICATIONS`). */
  readonly notifications: ReceivedNotification[] = [];
  /** Every server→client request received. */
  readonly serverRequests: ReceivedServerRequest[] = [];
  /** Schema problems seen so far; any makes `close()` throw. */
  readonly schemaFailures: string[] = [];
  private readonly schema: AppServerSchema;
  private readonly timeoutMs: number;
  private readonly pending = new Map<AppServerRequestId, Pending>();
  private waiters: Waiter[] = [];
  private nextId = 1;
  private transport: ClientTransport | undefined;
  private serverRequestHandler: ServerRequestHandler | undefined;
  private closedReason: string | undefined;
  private readonly closeListeners: (() => void)[] = [];

  private constructor(options: AppServerTestClientOptions) {
    this.schema = options.schema ?? appServerSchema();
    this.timeoutMs = options.timeoutMs ?? DEFAULT_APP_SERVER_WAIT_MS;
  }

  /** Spawns `command args…` and talks to it over its stdin/stdout (`skein app-server`, say). */
  static spawn(command: string, args: readonly string[], options: SpawnAppServerOptions = {}): AppServerTestClient & { readonly process: ChildProcessWithoutNullStreams; stderr(): string } {
    const client = new AppServerTestClient(options);
    const child = spawn(command, [...args], { cwd: options.cwd, env: options.env as NodeJS.ProcessEnv | undefined, stdio: 'pipe' });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-MAX_STDERR_CHARS);
    });
    client.attachLines(child.stdout);
    child.once('exit', (code, signal) => client.transportClosed(`the server exited (code ${code}, signal ${signal}); stderr:\n${stderr}`));
    child.stdin.on('error', () => undefined);
    client.transport = {
      send: (text) => {
        child.stdin.write(`${text}\n`);
      },
      close: async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.stdin.end();
        const timer = setTimeout(() => child.kill('SIGKILL'), client.timeoutMs);
        await exited;
        clearTimeout(timer);
      },
    };
    return Object.assign(client, { process: child, stderr: () => stderr });
  }

  /** Talks over a pair of streams: `fromServer` carries the server's lines, `toServer` takes ours. */
  static overStreams(fromServer: Readable, toServer: Writable, options: AppServerTestClientOptions = {}): AppServerTestClient {
    const client = new AppServerTestClient(options);
    client.attachLines(fromServer);
    fromServer.once('end', () => client.transportClosed('the server closed its output'));
    client.transport = {
      send: (text) => {
        toServer.write(`${text}\n`);
      },
      close: async () => {
        toServer.end();
        await Promise.resolve();
      },
    };
    return client;
  }

  /** Connects to `ws://IP:PORT`; rejects with the HTTP status when the upgrade is refused. */
  static async connectWebSocket(url: string, options: WebSocketClientOptions = {}): Promise<AppServerTestClient> {
    const client = new AppServerTestClient(options);
    const headers = options.token === undefined ? undefined : { Authorization: `Bearer ${options.token}` };
    const ws = new WebSocket(url, { headers, perMessageDeflate: false });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('unexpected-response', (_request, response) => {
        reject(new AppServerTestClientError('ConnectFailed', `upgrade refused with HTTP ${response.statusCode}`, response.statusCode));
        response.resume();
      });
      ws.once('error', (error) => reject(new AppServerTestClientError('ConnectFailed', error.message)));
    });
    ws.on('message', (data, isBinary) => {
      if (!isBinary) client.receive(rawText(data));
    });
    ws.once('close', () => client.transportClosed('the WebSocket closed'));
    client.transport = {
      send: (text) => ws.send(text),
      close: async () => {
        if (ws.readyState === WebSocket.CLOSED) return;
        const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
        ws.close();
        await closed;
      },
    };
    return client;
  }

  /** Sends `initialize` (with `experimentalApi` unless overridden) and then `initialized`; resolves to the result. */
  async initialize(params: Record<string, unknown> = {}): Promise<unknown> {
    const result = await this.request('initialize', {
      clientInfo: { name: 'skein_test', title: null, version: '0.0.0' },
      capabilities: { experimentalApi: true },
      ...params,
    });
    this.notify('initialized');
    return result;
  }

  /** Sends a request; resolves to its result, rejects with `RemoteError` (and the code in `rpcCode`) on a JSON-RPC error. */
  async request(method: string, params?: unknown, timeoutMs?: number): Promise<unknown> {
    const reply = await this.requestReply(method, params, timeoutMs);
    if ('error' in reply) {
      throw new AppServerTestClientError('RemoteError', `${method} failed with ${reply.error.code}: ${reply.error.message}`, reply.error.code);
    }
    return reply.result;
  }

  /** Sends a request and resolves to the whole reply, error or result, for tests about errors. */
  requestReply(method: string, params?: unknown, timeoutMs?: number): Promise<AppServerReply> {
    const id = this.nextId++;
    const message = params === undefined ? { id, method } : { id, method, params };
    return this.sendRequest(id, method, JSON.stringify(message), timeoutMs);
  }

  /** Sends raw text (a malformed line, say) as one message. */
  sendRaw(text: string): void {
    this.requireOpen().send(text);
  }

  /** Sends raw text that is a request with this id and method, and resolves to its reply. */
  sendRawRequest(text: string, request: { readonly id: AppServerRequestId; readonly method: string }, timeoutMs?: number): Promise<AppServerReply> {
    return this.sendRequest(request.id, request.method, text, timeoutMs);
  }

  /** Sends a notification. */
  notify(method: string, params?: unknown): void {
    this.requireOpen().send(JSON.stringify(params === undefined ? { method } : { method, params }));
  }

  /** Answers server→client requests from now on (unanswered ones before this stay unanswered). */
  onServerRequest(handler: ServerRequestHandler): void {
    this.serverRequestHandler = handler;
  }

  /** Runs `listener` when the transport closes (the server hung up, or `close()`). */
  onClose(listener: () => void): void {
    this.closeListeners.push(listener);
  }

  /** Resolves to the params of the first notification `method` (already received or to come) that `predicate` accepts. */
  waitFor(method: string, predicate: (params: unknown) => boolean = () => true, timeoutMs?: number): Promise<unknown> {
    const broken = this.brokenError();
    if (broken !== undefined) return Promise.reject(broken);
    const seen = this.notifications.find((notification) => notification.method === method && predicate(notification.params));
    if (seen !== undefined) return Promise.resolve(seen.params);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        method,
        predicate,
        resolve: (params) => {
          clearTimeout(timer);
          resolve(params);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((other) => other !== waiter);
        const methods = this.notifications.map((notification) => notification.method).join(', ');
        reject(new AppServerTestClientError('Timeout', `no ${method} notification within ${timeoutMs ?? this.timeoutMs} ms; received: [${methods}]`));
      }, timeoutMs ?? this.timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Notifications received with this method, oldest first. */
  notificationsOf(method: string): unknown[] {
    return this.notifications.filter((notification) => notification.method === method).map((notification) => notification.params);
  }

  /** Closes the connection; throws if any message the server sent failed schema validation. */
  async close(): Promise<void> {
    await this.transport?.close();
    this.transportClosed('closed by the test');
    this.throwIfBroken();
  }

  private sendRequest(id: AppServerRequestId, method: string, text: string, timeoutMs: number | undefined): Promise<AppServerReply> {
    const broken = this.brokenError();
    if (broken !== undefined) return Promise.reject(broken);
    const transport = this.transport;
    if (this.closedReason !== undefined || transport === undefined) return Promise.reject(this.closedError());
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new AppServerTestClientError('Timeout', `no reply to ${method} (id ${id}) within ${timeoutMs ?? this.timeoutMs} ms`));
      }, timeoutMs ?? this.timeoutMs);
      this.pending.set(id, {
        method,
        resolve: (reply) => {
          clearTimeout(timer);
          resolve(reply);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      transport.send(text);
    });
  }

  private attachLines(stream: Readable): void {
    let buffered = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      buffered += chunk;
      let newline = buffered.indexOf('\n');
      while (newline !== -1) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (line.trim() !== '') this.receive(line);
        newline = buffered.indexOf('\n');
      }
    });
  }

  private receive(text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.fail(`the server sent a line that is not JSON: ${text.slice(0, 200)}`);
      return;
    }
    const record = (typeof message === 'object' && message !== null ? message : {}) as Record<string, unknown>;
    const id = record.id as AppServerRequestId | undefined;
    const pending = id !== undefined && !('method' in record) ? this.pending.get(id) : undefined;
    try {
      this.schema.assertServerMessage(message, pending?.method);
    } catch (error) {
      this.fail((error as Error).message);
      return;
    }
    if ('method' in record && typeof record.method === 'string') {
      if (id !== undefined) this.answerServerRequest({ id, method: record.method, params: record.params });
      else this.recordNotification({ method: record.method, params: record.params, ...(typeof record.emittedAtMs === 'number' ? { emittedAtMs: record.emittedAtMs } : {}) });
      return;
    }
    if (pending === undefined || id === undefined) {
      this.fail(`the server answered request id ${JSON.stringify(id)}, which is not pending`);
      return;
    }
    this.pending.delete(id);
    pending.resolve('error' in record ? { error: record.error as { code: number; message: string } } : { result: record.result });
  }

  private recordNotification(notification: ReceivedNotification): void {
    this.notifications.push(notification);
    if (this.notifications.length > MAX_RECORDED_NOTIFICATIONS) this.notifications.shift();
    const matched = this.waiters.filter((waiter) => waiter.method === notification.method && waiter.predicate(notification.params));
    this.waiters = this.waiters.filter((waiter) => !matched.includes(waiter));
    for (const waiter of matched) waiter.resolve(notification.params);
  }

  private answerServerRequest(request: ReceivedServerRequest): void {
    this.serverRequests.push(request);
    const handler = this.serverRequestHandler;
    if (handler === undefined) return;
    void (async () => {
      let reply: object;
      try {
        reply = { id: request.id, result: await handler(request) };
      } catch (error) {
        reply = { id: request.id, error: { code: -32603, message: (error as Error).message } };
      }
      if (this.closedReason === undefined) this.transport?.send(JSON.stringify(reply));
    })();
  }

  private fail(problem: string): void {
    this.schemaFailures.push(problem);
    const error = new AppServerTestClientError('SchemaViolation', problem);
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
    for (const waiter of this.waiters.splice(0)) waiter.reject(error);
  }

  private transportClosed(reason: string): void {
    if (this.closedReason !== undefined) return;
    this.closedReason = reason;
    const error = new AppServerTestClientError('Closed', `connection closed before the reply: ${reason}`);
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
    for (const waiter of this.waiters.splice(0)) waiter.reject(error);
    for (const listener of this.closeListeners.splice(0)) listener();
  }

  private requireOpen(): ClientTransport {
    if (this.closedReason !== undefined || this.transport === undefined) throw this.closedError();
    return this.transport;
  }

  private closedError(): AppServerTestClientError {
    return new AppServerTestClientError('Closed', `the connection is closed: ${this.closedReason ?? 'not connected'}`);
  }

  private throwIfBroken(): void {
    const broken = this.brokenError();
    if (broken !== undefined) throw broken;
  }

  private brokenError(): AppServerTestClientError | undefined {
    if (this.schemaFailures.length === 0) return undefined;
    return new AppServerTestClientError('SchemaViolation', `the server sent messages that fail Codex's schema:\n${this.schemaFailures.join('\n')}`);
  }
}
