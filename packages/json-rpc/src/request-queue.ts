// RequestQueue: one connection's bounded queue of requests, worked at a fixed concurrency in arrival
// order. Past its limit a request is answered -32001 "overloaded" at once instead of being buffered.
import { JsonRpcErrorCode, type JsonRpcErrorObject } from '@skein/protocol/executor';

/** How a {@link RequestQueue} runs. */
export interface RequestQueueOptions<T> {
  /** Requests that may be waiting or running at once; one more is answered "overloaded". */
  readonly maxQueued: number;
  /** Requests run at once (they start in arrival order). */
  readonly concurrency: number;
  /**
   * Requests that only read (`isRead`) may also run together, up to `concurrency`, while nothing
   * else runs: past the queue's own concurrency of 1, but never overtaking anything (a read waits
   * for an earlier write to finish, a write for every earlier request), so a client sees its writes
   * in order. A queue concurrency above 1 already lets any requests run together, as configured.
   */
  readonly reads?: { readonly isRead: (request: T) => boolean; readonly concurrency: number };
  /** The message of the overload answer (each server words it as Codex's counterpart does). */
  readonly overloadedMessage: string;
  /** Runs one request to its answer; it must not throw (it answers errors itself). */
  readonly run: (request: T) => Promise<void>;
  /** Sends the overload answer for a request the queue had no room for. */
  readonly refuse: (request: T, error: JsonRpcErrorObject) => void;
}

/** The JSON-RPC error a full queue answers with: `-32001` and the server's message. */
export function overloadedError(message: string): JsonRpcErrorObject {
  return { code: JsonRpcErrorCode.ServerOverloaded, message };
}

function positive(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}

/**
 * A bounded request queue.
 *
 * @example
 * const queue = new RequestQueue({ maxQueued: 128, concurrency: 1, overloadedMessage: 'too many requests',
 *   run: (request) => handle(request), refuse: (request, error) => send({ id: request.id, error }) });
 * queue.push(request);
 */
export class RequestQueue<T> {
  readonly #waiting: T[] = [];
  readonly #options: RequestQueueOptions<T>;
  #active = 0;
  /** How many of the running requests are not reads. */
  #activeOthers = 0;
  #closed = false;
  #idleWaiters: (() => void)[] = [];

  constructor(options: RequestQueueOptions<T>) {
    positive('maxQueued', options.maxQueued);
    positive('concurrency', options.concurrency);
    if (options.reads !== undefined) positive('reads.concurrency', options.reads.concurrency);
    this.#options = options;
  }

  /** Requests waiting or running. */
  get size(): number {
    return this.#waiting.length + this.#active;
  }

  /** Queues `request`, or answers it "overloaded" when the queue is full; false when it was refused or the queue is closed. */
  push(request: T): boolean {
    if (this.#closed) return false;
    if (this.size >= this.#options.maxQueued) {
      this.#options.refuse(request, overloadedError(this.#options.overloadedMessage));
      return false;
    }
    this.#waiting.push(request);
    this.#pump();
    return true;
  }

  /** Resolves once every request pushed so far has finished (at once after `close`). */
  drain(): Promise<void> {
    if (this.#closed || this.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /** Drops the waiting requests and starts no more; running ones finish on their own. Safe to call twice. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#waiting.length = 0;
    this.#wakeIdle();
  }

  #pump(): void {
    while (!this.#closed && this.#waiting.length > 0) {
      const request = this.#waiting[0] as T;
      const isRead = this.#options.reads?.isRead(request) === true;
      if (!this.#mayStart(isRead)) break;
      this.#waiting.shift();
      this.#active += 1;
      if (!isRead) this.#activeOthers += 1;
      void this.#options.run(request).finally(() => {
        this.#active -= 1;
        if (!isRead) this.#activeOthers -= 1;
        this.#pump();
      });
    }
    if (this.size === 0) this.#wakeIdle();
  }

  /** Whether the request at the head may start now (nothing behind it ever starts before it). */
  #mayStart(isRead: boolean): boolean {
    if (this.#active < this.#options.concurrency) return true;
    const reads = this.#options.reads;
    return isRead && reads !== undefined && this.#activeOthers === 0 && this.#active < reads.concurrency;
  }

  #wakeIdle(): void {
    for (const wake of this.#idleWaiters.splice(0)) wake();
  }
}
