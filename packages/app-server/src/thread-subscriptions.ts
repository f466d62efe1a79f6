// Which connections follow which threads, so a thread's notifications reach exactly its subscribers.
// The thread methods fill the sets; a disconnect empties the client's memberships.
import { SharedParams } from './shared-params.js';

/** Something that can be subscribed to a thread (a connection). */
export interface ThreadSubscriber {
  readonly id: number;
  /** `shared` is `params` serialised once for all the subscribers a broadcast reaches. */
  notify(method: string, params: unknown, shared?: SharedParams): void;
}

/** Subscription sets keyed by thread id. */
export class ThreadSubscriptions {
  readonly #byThread = new Map<string, Set<ThreadSubscriber>>();

  /** Subscribes `subscriber` to `threadId`; returns false when it already was. */
  subscribe(threadId: string, subscriber: ThreadSubscriber): boolean {
    let set = this.#byThread.get(threadId);
    if (set === undefined) {
      set = new Set();
      this.#byThread.set(threadId, set);
    }
    if (set.has(subscriber)) return false;
    set.add(subscriber);
    return true;
  }

  /** Unsubscribes; returns false when it was not subscribed. */
  unsubscribe(threadId: string, subscriber: ThreadSubscriber): boolean {
    const set = this.#byThread.get(threadId);
    if (set?.delete(subscriber) !== true) return false;
    if (set.size === 0) this.#byThread.delete(threadId);
    return true;
  }

  /** Whether `subscriber` follows `threadId`. */
  isSubscribed(threadId: string, subscriber: ThreadSubscriber): boolean {
    return this.#byThread.get(threadId)?.has(subscriber) ?? false;
  }

  /** The subscribers of `threadId` (a copy). */
  subscribers(threadId: string): ThreadSubscriber[] {
    return [...(this.#byThread.get(threadId) ?? [])];
  }

  /** Thread ids `subscriber` follows. */
  threadsOf(subscriber: ThreadSubscriber): string[] {
    return [...this.#byThread].filter(([, set]) => set.has(subscriber)).map(([threadId]) => threadId);
  }

  /** Removes `subscriber` everywhere (on disconnect); returns the threads it followed. */
  removeSubscriber(subscriber: ThreadSubscriber): string[] {
    const threads = this.threadsOf(subscriber);
    for (const threadId of threads) this.unsubscribe(threadId, subscriber);
    return threads;
  }

  /** Sends a notification to every subscriber of `threadId`; returns how many it was sent to. */
  broadcast(threadId: string, method: string, params: unknown): number {
    const subscribers = this.subscribers(threadId);
    const shared = new SharedParams(params);
    for (const subscriber of subscribers) subscriber.notify(method, params, shared);
    return subscribers.length;
  }
}
