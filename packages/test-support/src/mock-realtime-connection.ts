// One client's WebSocket to the mock Realtime server: every event the client sends, parsed and kept
// in order for the test to wait on, and the server's end of the socket for the test to drive.
import type { IncomingMessage } from 'node:http';
import { WebSocket, type RawData } from 'ws';
import * as z from 'zod';
import { MockServerError } from './mock-server-error.js';

/** How long `waitFor` and `nextConnection` wait by default. */
export const DEFAULT_REALTIME_WAIT_MS = 5000;

/** An event a Realtime client sent: a JSON object with a string `type`. */
export type RealtimeClientEvent = { readonly type: string; readonly [key: string]: unknown };

const ClientEvent = z.looseObject({ type: z.string() });

/** What a test matches client events by: a `type`, or a predicate over the whole event. */
export type RealtimeEventMatch = string | ((event: RealtimeClientEvent) => boolean);

/** Options of `waitFor`. */
export interface RealtimeWaitOptions {
  /** Default `DEFAULT_REALTIME_WAIT_MS`. */
  readonly timeoutMs?: number;
  /** Resolve with the count-th matching event, counting those already received; default 1. */
  readonly count?: number;
}

/** One client connection to the mock Realtime server. */
export interface MockRealtimeConnection {
  /** Request path with query, e.g. '/v1/realtime?model=gpt-realtime-1.5'. */
  readonly path: string;
  /** The upgrade request's headers (names lower-cased, as Node gives them). */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Every client text frame that was a JSON object with a string `type`, in order. */
  readonly received: readonly RealtimeClientEvent[];
  /** Frames that were not (binary, bad JSON, no `type`), a `sessionUpdated` that threw, socket errors. */
  readonly problems: readonly string[];
  /**
   * Resolves with the count-th event matching `match`, counting those already received; rejects
   * (`MockServerError`, code `Timeout` or `ConnectionClosed`) with the types received so far.
   */
  waitFor(match: RealtimeEventMatch, options?: RealtimeWaitOptions): Promise<RealtimeClientEvent>;
  /** Sends one server event as a JSON text frame; throws `ConnectionClosed` once the socket is not open. */
  send(event: object): void;
  /** Cuts the TCP connection without a close frame: the client sees 1006. */
  drop(): void;
  /** A clean close handshake; default code 1000. */
  close(code?: number, reason?: string): void;
  /** Settles when the socket is closed either way, with the code the server side saw (1006 when cut). */
  readonly closed: Promise<{ readonly code: number; readonly reason: string }>;
}

interface Waiter {
  readonly matches: (event: RealtimeClientEvent) => boolean;
  remaining: number;
  /** What is still missing, for a failure message: `no "x" event`, `fewer than 3 "x" events (1 so far)`. */
  readonly missing: () => string;
  readonly resolve: (event: RealtimeClientEvent) => void;
  readonly reject: (error: Error) => void;
}

export class RealtimeConnection implements MockRealtimeConnection {
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly closed: Promise<{ readonly code: number; readonly reason: string }>;
  readonly #socket: WebSocket;
  readonly #name: string;
  readonly #received: RealtimeClientEvent[] = [];
  readonly #problems: string[] = [];
  readonly #waiters = new Set<Waiter>();
  #frames = 0;
  #closeCode: number | undefined;

  /** @param onEvent sees each event after it is recorded and offered to waiters. */
  constructor(socket: WebSocket, request: IncomingMessage, index: number, onEvent: (event: RealtimeClientEvent) => void) {
    this.#socket = socket;
    this.path = request.url ?? '/';
    this.headers = { ...request.headers };
    this.#name = `connections[${index}] ${this.path}`;
    socket.on('message', (data, isBinary) => {
      const event = this.#parse(data, isBinary);
      if (event === undefined) return;
      this.#received.push(event);
      for (const waiter of [...this.#waiters]) this.#offer(waiter, event);
      onEvent(event);
    });
    // Without a listener, a bad frame from the client would throw out of the socket.
    socket.on('error', (error) => this.recordProblem(`the socket failed: ${error.message}`));
    this.closed = new Promise((resolve) => {
      socket.once('close', (code, reason) => {
        this.#closeCode = code;
        for (const waiter of [...this.#waiters]) waiter.reject(this.#closedError(waiter));
        resolve({ code, reason: reason.toString('utf8') });
      });
    });
  }

  get received(): readonly RealtimeClientEvent[] {
    return this.#received;
  }

  get problems(): readonly string[] {
    return this.#problems;
  }

  get isOpen(): boolean {
    return this.#socket.readyState === WebSocket.OPEN;
  }

  recordProblem(problem: string): void {
    this.#problems.push(problem);
  }

  waitFor(match: RealtimeEventMatch, options: RealtimeWaitOptions = {}): Promise<RealtimeClientEvent> {
    const count = options.count ?? 1;
    const timeoutMs = options.timeoutMs ?? DEFAULT_REALTIME_WAIT_MS;
    if (!Number.isSafeInteger(count) || count < 1) throw new MockServerError('InvalidScript', `waitFor count must be a positive integer, not ${count}`);
    const what = typeof match === 'string' ? `"${match}"` : 'matching';
    const matches = typeof match === 'string' ? (event: RealtimeClientEvent) => event.type === match : match;
    return new Promise((resolve, reject) => {
      const settle = (): void => {
        clearTimeout(timer);
        this.#waiters.delete(waiter);
      };
      const waiter: Waiter = {
        matches,
        remaining: count,
        missing: () => (count === 1 ? `no ${what} event` : `fewer than ${count} ${what} events (${count - waiter.remaining} so far)`),
        resolve: (event) => (settle(), resolve(event)),
        reject: (error) => (settle(), reject(error)),
      };
      const timer = setTimeout(
        () => waiter.reject(new MockServerError('Timeout', `${this.#name}: ${waiter.missing()} within ${timeoutMs} ms; ${this.#summary()}`)),
        timeoutMs,
      );
      for (const event of this.#received) if (this.#offer(waiter, event)) return;
      if (this.#closeCode !== undefined) waiter.reject(this.#closedError(waiter));
      else this.#waiters.add(waiter);
    });
  }

  send(event: object): void {
    if (!this.isOpen) throw new MockServerError('ConnectionClosed', `${this.#name}: send() after the socket closed`);
    this.#socket.send(JSON.stringify(event));
  }

  drop(): void {
    this.#socket.terminate();
  }

  close(code = 1000, reason = ''): void {
    this.#socket.close(code, reason);
  }

  /** Counts `event` for `waiter`; true once the waiter is settled (matched, or its predicate threw). */
  #offer(waiter: Waiter, event: RealtimeClientEvent): boolean {
    let matched: boolean;
    try {
      matched = waiter.matches(event);
    } catch (error) {
      waiter.reject(error instanceof Error ? error : new Error(String(error)));
      return true;
    }
    if (!matched) return false;
    waiter.remaining -= 1;
    if (waiter.remaining > 0) return false;
    waiter.resolve(event);
    return true;
  }

  #parse(data: RawData, isBinary: boolean): RealtimeClientEvent | undefined {
    const frame = this.#frames++;
    const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    if (isBinary) {
      this.recordProblem(`frame ${frame}: a binary frame of ${bytes.length} bytes; the Realtime API takes JSON text frames`);
      return undefined;
    }
    const text = bytes.toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      this.recordProblem(`frame ${frame}: not JSON: ${clip(text)}`);
      return undefined;
    }
    const parsed = ClientEvent.safeParse(json);
    if (parsed.success) return parsed.data;
    this.recordProblem(`frame ${frame}: not a JSON object with a string \`type\`: ${clip(text)}`);
    return undefined;
  }

  #closedError(waiter: Waiter): MockServerError {
    return new MockServerError('ConnectionClosed', `${this.#name}: ${waiter.missing()} before the socket closed (${this.#closeCode}); ${this.#summary()}`);
  }

  /** The types received, runs collapsed (audio appends come by the hundred), and the problems. */
  #summary(): string {
    const runs: { type: string; count: number }[] = [];
    for (const { type } of this.#received) {
      const last = runs.at(-1);
      if (last?.type === type) last.count += 1;
      else runs.push({ type, count: 1 });
    }
    const types = runs.map(({ type, count }) => (count > 1 ? `${type} ×${count}` : type));
    const received = `received ${this.#received.length} event${this.#received.length === 1 ? '' : 's'}${types.length > 0 ? `: ${types.join(', ')}` : ''}`;
    return this.#problems.length === 0 ? received : `${received}; problems: ${this.#problems.join('; ')}`;
  }
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
