// ExecServerClient: one connection to an exec-server (WebSocket, or a child process's stdio) with the
// initialize handshake done, typed requests with a bound on those in flight, and notifications.
import { spawn } from 'node:child_process';
import { JsonRpcParseError, parseJsonRpcMessage, type JsonRpcNotification } from '@skein/protocol/executor';
import type WebSocket from 'ws';
import type { z } from 'zod';
import { DEFAULT_KEEPALIVE_INTERVAL_MS, MAX_QUEUED_REQUESTS } from '../limits.js';
import { ExecServerMethod, ExecServerNotification, InitializeResponse, type EnvironmentInfo } from '../protocol/messages.js';
import { LineSplitter } from '@skein/json-rpc/framing';
import { ExecServerClientError, RpcErrorAnswer } from './exec-server-client-error.js';

/** The largest message the client accepts: a file at the server's readFile limit, in base64, plus slack. */
export const MAX_CLIENT_MESSAGE_BYTES = 256 * 1024 * 1024;

/** A duplex message pipe to a server. */
interface ClientTransport {
  send(text: string): void;
  close(): void;
  onMessage(listener: (text: string) => void): void;
  onClose(listener: (reason: string) => void): void;
}

/** How to reach a server over WebSocket. */
export interface WebSocketConnectOptions {
  /** `ws://host:port`. */
  readonly url: string;
  /** The capability token, sent as `Authorization: Bearer <token>`. */
  readonly token?: string | undefined;
  /** Sent on `initialize` (default `skein`). */
  readonly clientName?: string | undefined;
  /** Give up on a WebSocket upgrade that has not been answered after this long (default: wait). */
  readonly handshakeTimeoutMs?: number | undefined;
  /**
   * Ping the server every this many ms, and drop the connection when a ping gets no answer (nor any
   * message) before the next (default `DEFAULT_KEEPALIVE_INTERVAL_MS`; 0: never).
   */
  readonly keepAliveIntervalMs?: number | undefined;
}

/** How to start a server process and talk to it over its stdin/stdout. */
export interface StdioConnectOptions {
  /** Program and arguments, e.g. `[process.execPath, 'dist/bin.js', '--listen', 'stdio']`. */
  readonly command: readonly string[];
  readonly cwd?: string | undefined;
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  readonly clientName?: string | undefined;
}

type Waiter = { resolve: (result: unknown) => void; reject: (error: Error) => void };

async function openWebSocket(options: WebSocketConnectOptions): Promise<ClientTransport> {
  const headers: Record<string, string> = options.token === undefined ? {} : { Authorization: `Bearer ${options.token}` };
  // Imported with the first connection: a host with only a local environment never loads it (issue #18).
  const { default: WebSocketClient } = await import('ws');
  const socket = new WebSocketClient(options.url, {
    headers,
    maxPayload: MAX_CLIENT_MESSAGE_BYTES,
    perMessageDeflate: false,
    ...(options.handshakeTimeoutMs === undefined ? {} : { handshakeTimeout: options.handshakeTimeoutMs }),
  });
  return new Promise((resolve, reject) => {
    let refused = false;
    socket.once('unexpected-response', (_request, response) => {
      refused = true;
      const status = response.statusCode ?? 0;
      let body = '';
      response.on('data', (chunk: Buffer) => {
        if (body.length < 4096) body += chunk.toString('utf8');
      });
      response.on('end', () => {
        let detail = body;
        try {
          const parsed = JSON.parse(body) as { error?: { message?: unknown } };
          if (typeof parsed.error?.message === 'string') detail = parsed.error.message;
        } catch {
          // A plain-text body (Codex's own server) is shown as it is.
        }
        reject(new ExecServerClientError(status === 401 ? 'Unauthorized' : 'ConnectFailed', `the exec-server refused the connection (HTTP ${status}): ${detail}`));
        socket.terminate();
      });
    });
    socket.on('error', (error) => {
      // After a refusal the answer's body, not the socket error, explains what happened.
      if (!refused) reject(new ExecServerClientError('ConnectFailed', `cannot connect to ${options.url}: ${error.message}`));
    });
    socket.once('open', () => {
      socket.removeAllListeners('error');
      socket.on('error', () => socket.terminate());
      const silence = keepAlive(socket, options.keepAliveIntervalMs ?? DEFAULT_KEEPALIVE_INTERVAL_MS);
      resolve({
        send: (text) => socket.send(text),
        close: () => socket.close(),
        onMessage: (listener) => socket.on('message', (data: Buffer) => listener(data.toString('utf8'))),
        onClose: (listener) =>
          socket.once('close', (code, reason) => listener(silence() ?? `WebSocket closed (${code}${reason.length > 0 ? `: ${reason.toString()}` : ''})`)),
      });
    });
  });
}

/**
 * Pings `socket` every `intervalMs` and terminates it when an interval passes after a ping without
 * a pong or a message. Returns what to report as the close reason when that is why it closed.
 */
function keepAlive(socket: WebSocket, intervalMs: number): () => string | undefined {
  if (intervalMs <= 0) return () => undefined;
  let heard = true;
  let silent: string | undefined;
  const alive = (): void => {
    heard = true;
  };
  socket.on('pong', alive);
  socket.on('message', alive);
  const timer = setInterval(() => {
    if (!heard) {
      silent = `no answer from the exec-server to a keep-alive ping within ${intervalMs} ms`;
      socket.terminate();
      return;
    }
    heard = false;
    socket.ping();
  }, intervalMs);
  // The pings must not keep a process alive that is otherwise done.
  timer.unref();
  socket.once('close', () => clearInterval(timer));
  return () => silent;
}

function spawnStdio(options: StdioConnectOptions): ClientTransport {
  const [program, ...args] = options.command;
  if (program === undefined) throw new ExecServerClientError('ConnectFailed', 'the server command is empty');
  const child = spawn(program, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'inherit'] });
  const messageListeners: ((text: string) => void)[] = [];
  const splitter = new LineSplitter(MAX_CLIENT_MESSAGE_BYTES, {
    line: (text) => messageListeners.forEach((listener) => listener(text)),
    oversized: () => child.kill('SIGKILL'),
  });
  child.stdout.on('data', (chunk: Buffer) => splitter.push(chunk));
  child.stdin.on('error', () => undefined);
  return {
    send: (text) => child.stdin.write(`${text}\n`),
    close: () => child.stdin.end(),
    onMessage: (listener) => messageListeners.push(listener),
    onClose: (listener) => {
      child.once('error', (error) => listener(`the server process failed: ${error.message}`));
      child.once('close', (code, signal) => listener(`the server process exited (${code ?? signal})`));
    },
  };
}

/** A connected, initialized exec-server client. */
export class ExecServerClient {
  private nextId = 1;
  private readonly waiting = new Map<number, Waiter>();
  private readonly listeners = new Set<(notification: JsonRpcNotification) => void>();
  #closedReason: string | undefined;
  private closedListeners: (() => void)[] = [];
  /** The server's session id, from `initialize`. */
  sessionId = '';
  /** What the server reported about its machine. */
  environment: EnvironmentInfo | undefined;

  private constructor(private readonly transport: ClientTransport) {
    transport.onMessage((text) => this.onMessage(text));
    transport.onClose((reason) => this.onClose(reason));
  }

  /** Connects over WebSocket and initializes. */
  static async connect(options: WebSocketConnectOptions): Promise<ExecServerClient> {
    const client = new ExecServerClient(await openWebSocket(options));
    await client.initialize(options.clientName ?? 'skein');
    return client;
  }

  /** Starts a server process (`--listen stdio`), connects over its stdio and initializes. */
  static async spawn(options: StdioConnectOptions): Promise<ExecServerClient> {
    const client = new ExecServerClient(spawnStdio(options));
    await client.initialize(options.clientName ?? 'skein');
    return client;
  }

  private async initialize(clientName: string): Promise<void> {
    const answer = await this.request(ExecServerMethod.Initialize, { clientName }, InitializeResponse, (error) => new ExecServerClientError('Rejected', error.message, error));
    this.sessionId = answer.sessionId;
    this.environment = answer.environmentInfo;
    this.notify(ExecServerNotification.Initialized, {});
  }

  /** Why the connection closed (`WebSocket closed (1006)`, …), or undefined while it is open. */
  get closedReason(): string | undefined {
    return this.#closedReason;
  }

  /** True once the connection has closed. */
  get closed(): boolean {
    return this.#closedReason !== undefined;
  }

  /**
   * Sends a request and parses its result with `schema`. An error answer is turned into the caller's
   * error class by `onError`; transport problems reject with ExecServerClientError.
   */
  request<S extends z.ZodType>(method: string, params: unknown, schema: S, onError: (error: RpcErrorAnswer['error']) => Error): Promise<z.output<S>> {
    if (this.#closedReason !== undefined) {
      return Promise.reject(new ExecServerClientError('ConnectionClosed', `the exec-server connection is closed: ${this.#closedReason}`));
    }
    if (this.waiting.size >= MAX_QUEUED_REQUESTS) {
      return Promise.reject(new ExecServerClientError('TooManyRequests', `${MAX_QUEUED_REQUESTS} requests are already waiting for answers`));
    }
    const id = this.nextId;
    this.nextId += 1;
    const answer = new Promise<unknown>((resolve, reject) => this.waiting.set(id, { resolve, reject }));
    this.transport.send(JSON.stringify({ id, method, params }));
    return answer.then(
      (result) => {
        const parsed = schema.safeParse(result);
        if (!parsed.success) throw new ExecServerClientError('Protocol', `unexpected ${method} result: ${parsed.error.message}`);
        return parsed.data;
      },
      (error: unknown) => {
        throw error instanceof RpcErrorAnswer ? onError(error.error) : error;
      },
    );
  }

  /** Sends a notification. */
  notify(method: string, params: unknown): void {
    if (this.#closedReason === undefined) this.transport.send(JSON.stringify({ method, params }));
  }

  /** Calls `listener` for each server notification; returns the unsubscribe function. */
  onNotification(listener: (notification: JsonRpcNotification) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Calls `listener` once the connection has closed (at once if it already has). */
  onClosed(listener: () => void): void {
    if (this.#closedReason !== undefined) listener();
    else this.closedListeners.push(listener);
  }

  /** Closes the connection; the server then ends this client's processes. */
  close(): Promise<void> {
    if (this.#closedReason !== undefined) return Promise.resolve();
    return new Promise((resolve) => {
      this.onClosed(resolve);
      this.transport.close();
    });
  }

  private onMessage(text: string): void {
    let message;
    try {
      message = parseJsonRpcMessage(text);
    } catch (error) {
      if (error instanceof JsonRpcParseError) return;
      throw error;
    }
    switch (message.kind) {
      case 'response': {
        const waiter = typeof message.message.id === 'number' ? this.waiting.get(message.message.id) : undefined;
        if (waiter === undefined) return;
        this.waiting.delete(message.message.id as number);
        waiter.resolve(message.message.result);
        return;
      }
      case 'error': {
        const id = message.message.id;
        const waiter = typeof id === 'number' ? this.waiting.get(id) : undefined;
        if (waiter === undefined || typeof id !== 'number') return;
        this.waiting.delete(id);
        waiter.reject(new RpcErrorAnswer(message.message.error));
        return;
      }
      case 'notification':
        for (const listener of this.listeners) listener(message.message);
        return;
      case 'request':
        // The exec-server protocol has no server-to-client requests.
        return;
    }
  }

  private onClose(reason: string): void {
    if (this.#closedReason !== undefined) return;
    this.#closedReason = reason;
    const error = new ExecServerClientError('ConnectionClosed', `the exec-server connection closed: ${reason}`);
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
    const listeners = this.closedListeners;
    this.closedListeners = [];
    for (const listener of listeners) listener();
  }
}
