// The threads requests are using, each open while at least one request holds it: the last request
// to finish closes it, so a service that runs for months holds only the threads in use, and a later
// request with the same id resumes it from its file.
import type { HostThread, SkeinRuntime } from '@skein/core/host';

/** A thread lent to one request; `release` once the request is done with it. */
export interface ThreadLease {
  readonly thread: HostThread;
  release(): Promise<void>;
}

export class OpenThreads {
  readonly #runtime: SkeinRuntime;
  /** By thread id: the thread (or its opening) and how many requests hold it. */
  readonly #held = new Map<string, { readonly opening: Promise<HostThread>; holders: number }>();
  /** By thread id: a close under way, which a request for the same thread waits out before resuming it. */
  readonly #closing = new Map<string, Promise<void>>();

  constructor(runtime: SkeinRuntime) {
    this.#runtime = runtime;
  }

  /** A new thread, or the stored one `threadId` names, resumed unless a request has it open already. */
  async lease(threadId: string | undefined): Promise<ThreadLease> {
    if (threadId === undefined) {
      const thread = await this.#runtime.startThread();
      return this.#hold(thread.id, { opening: Promise.resolve(thread), holders: 0 });
    }
    const held = this.#held.get(threadId);
    if (held !== undefined) return this.#hold(threadId, held);
    const closing = this.#closing.get(threadId);
    const opening = (closing ?? Promise.resolve()).then(() => this.#runtime.resumeThread(threadId));
    return this.#hold(threadId, { opening, holders: 0 });
  }

  async #hold(key: string, entry: { readonly opening: Promise<HostThread>; holders: number }): Promise<ThreadLease> {
    this.#held.set(key, entry);
    entry.holders += 1;
    const release = async (): Promise<void> => {
      entry.holders -= 1;
      if (entry.holders > 0) return;
      this.#held.delete(key);
      const closed = entry.opening.then((thread) => thread.close());
      // What a later request waits for: the close, failed or not, and then it is forgotten.
      const settled: Promise<void> = closed.then(
        () => undefined,
        () => undefined,
      ).finally(() => {
        if (this.#closing.get(key) === settled) this.#closing.delete(key);
      });
      this.#closing.set(key, settled);
      await closed;
    };
    let thread: HostThread;
    try {
      thread = await entry.opening;
    } catch (error) {
      // Not opened (an unknown id, say): forget it, so the next request tries again.
      entry.holders -= 1;
      if (entry.holders === 0) this.#held.delete(key);
      throw error;
    }
    return { thread, release };
  }
}
