// The mock OpenAI Realtime API WebSocket server on 127.0.0.1, for `thread/realtime/*` tests: it
// accepts any path (the test asserts Codex's `/v1/realtime?model=…`), records what each client
// sends, answers `session.update`, and lets the test send server events and cut or close sockets.
import type { IncomingMessage } from 'node:http';
// eslint-disable-next-line skein/transport-from-json-rpc -- a test fake of OpenAI's Realtime endpoint, not a JSON-RPC listener
import { WebSocketServer, type WebSocket } from 'ws';
import { DEFAULT_REALTIME_WAIT_MS, RealtimeConnection } from './mock-realtime-connection.js';
import type { MockRealtimeConnection, RealtimeClientEvent } from './mock-realtime-connection.js';
import { MockServerError } from './mock-server-error.js';

/** Options of `startMockRealtimeServer`. */
export interface MockRealtimeServerOptions {
  /**
   * Answer to a client's `session.update`; default `{type:'session.updated', session:{id:'sess_mock_<n>', type:'realtime'}}`
   * with n = connectionIndex + 1 (the mocks number ids from 1). Return undefined to send nothing.
   */
  readonly sessionUpdated?: (update: RealtimeClientEvent, connectionIndex: number) => object | undefined;
}

/** A running mock Realtime server. Close it (or `await using` it) when the test ends. */
export interface MockRealtimeServer extends AsyncDisposable {
  /** 'ws://127.0.0.1:PORT' (no path): the base URL a client is configured with. */
  readonly url: string;
  /** Every connection accepted, in order. */
  readonly connections: readonly MockRealtimeConnection[];
  /**
   * Resolves with the next connection not yet taken (already-open ones first, in order); rejects
   * with `Timeout` (default `DEFAULT_REALTIME_WAIT_MS`) or, when the server closes, `ServerClosed`.
   */
  nextConnection(options?: { readonly timeoutMs?: number }): Promise<MockRealtimeConnection>;
  /** Terminates every connection and stops listening. Safe to call more than once. */
  close(): Promise<void>;
}

interface ConnectionWaiter {
  readonly resolve: (connection: MockRealtimeConnection) => void;
  readonly reject: (error: Error) => void;
}

/**
 * Starts a mock Realtime server on an ephemeral loopback port.
 * @example
 * await using server = await startMockRealtimeServer();
 * // … configure the client's realtime base URL as server.url and start a realtime thread
 * const connection = await server.nextConnection();
 * await connection.waitFor('session.update');
 * connection.send(realtimeEvents.handoff({ callId: 'call_1', prompt: 'run the tests' }));
 */
export async function startMockRealtimeServer(options: MockRealtimeServerOptions = {}): Promise<MockRealtimeServer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  const port = await new Promise<number>((resolve, reject) => {
    wss.once('error', (error) => reject(new MockServerError('ListenFailed', `the mock Realtime server could not listen: ${error.message}`)));
    wss.once('listening', () => {
      const address = wss.address();
      if (address !== null && typeof address === 'object') resolve(address.port);
      else reject(new MockServerError('ListenFailed', 'the mock Realtime server has no TCP address'));
    });
  });
  return new MockRealtimeServerImpl(wss, `ws://127.0.0.1:${port}`, options.sessionUpdated ?? defaultSessionUpdated);
}

function defaultSessionUpdated(_update: RealtimeClientEvent, connectionIndex: number): object {
  return { type: 'session.updated', session: { id: `sess_mock_${connectionIndex + 1}`, type: 'realtime' } };
}

class MockRealtimeServerImpl implements MockRealtimeServer {
  readonly url: string;
  readonly #wss: WebSocketServer;
  readonly #sessionUpdated: NonNullable<MockRealtimeServerOptions['sessionUpdated']>;
  readonly #connections: RealtimeConnection[] = [];
  /** How many of `#connections` `nextConnection()` has handed out. */
  #taken = 0;
  readonly #waiters: ConnectionWaiter[] = [];
  #closing: Promise<void> | undefined;

  constructor(wss: WebSocketServer, url: string, sessionUpdated: NonNullable<MockRealtimeServerOptions['sessionUpdated']>) {
    this.#wss = wss;
    this.url = url;
    this.#sessionUpdated = sessionUpdated;
    wss.on('connection', (socket: WebSocket, request: IncomingMessage) => this.#accept(socket, request));
  }

  get connections(): readonly MockRealtimeConnection[] {
    return this.#connections;
  }

  nextConnection(options: { readonly timeoutMs?: number } = {}): Promise<MockRealtimeConnection> {
    const ready = this.#connections[this.#taken];
    if (ready !== undefined) {
      this.#taken += 1;
      return Promise.resolve(ready);
    }
    if (this.#closing !== undefined) return Promise.reject(new MockServerError('ServerClosed', 'nextConnection() was called after the mock Realtime server was closed'));
    const timeoutMs = options.timeoutMs ?? DEFAULT_REALTIME_WAIT_MS;
    return new Promise((resolve, reject) => {
      const settle = (): void => {
        clearTimeout(timer);
        const at = this.#waiters.indexOf(waiter);
        if (at >= 0) this.#waiters.splice(at, 1);
      };
      const waiter: ConnectionWaiter = {
        resolve: (connection) => (settle(), resolve(connection)),
        reject: (error) => (settle(), reject(error)),
      };
      const timer = setTimeout(() => {
        const accepted = this.#connections.length;
        waiter.reject(new MockServerError('Timeout', `mock Realtime server: no new connection within ${timeoutMs} ms (${accepted} accepted, all taken)`));
      }, timeoutMs);
      this.#waiters.push(waiter);
    });
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutDown();
    return this.#closing;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #shutDown(): Promise<void> {
    for (const waiter of [...this.#waiters]) waiter.reject(new MockServerError('ServerClosed', 'the mock Realtime server closed while nextConnection() waited'));
    const stopped = new Promise<void>((resolve, reject) => this.#wss.close((error) => (error === undefined ? resolve() : reject(error))));
    // The listening socket closes only once every upgraded socket is gone.
    for (const connection of this.#connections) connection.drop();
    await Promise.all([stopped, ...this.#connections.map((connection) => connection.closed)]);
  }

  #accept(socket: WebSocket, request: IncomingMessage): void {
    if (this.#closing !== undefined) {
      socket.terminate();
      return;
    }
    const index = this.#connections.length;
    const connection: RealtimeConnection = new RealtimeConnection(socket, request, index, (event) => this.#answer(connection, index, event));
    this.#connections.push(connection);
    const waiter = this.#waiters[0];
    if (waiter === undefined) return;
    this.#taken += 1;
    waiter.resolve(connection);
  }

  #answer(connection: RealtimeConnection, index: number, event: RealtimeClientEvent): void {
    if (event.type !== 'session.update') return;
    let reply: object | undefined;
    try {
      reply = this.#sessionUpdated(event, index);
    } catch (error) {
      connection.recordProblem(`sessionUpdated threw: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    if (reply !== undefined && connection.isOpen) connection.send(reply);
  }
}
