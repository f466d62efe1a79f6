// Letting loaded threads go: unloading one now (shutdown, a lease lost) and, once no client holds a
// thread, unloading it after `thread_unload_delay_secs` unless a client takes it again.
import type { LiveThread } from './live-thread.js';
import type { ThreadHubServer } from './thread-hub-options.js';
import { threadUnloadDelayMs } from './thread-unload-delay.js';

export class ThreadUnloader {
  /** Unload timers of loaded threads no client holds. */
  readonly #unheld = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly threads: Map<string, LiveThread>,
    private readonly server: ThreadHubServer,
  ) {}

  /**
   * Unloads a thread: a running turn is interrupted and allowed to end, its commands end, its file
   * is released; then its subscribers hear `notLoaded` and are let go.
   */
  async unload(threadId: string): Promise<void> {
    const thread = this.threads.get(threadId);
    if (thread === undefined) return;
    this.hold(threadId);
    this.threads.delete(threadId);
    this.server.threadUnloading?.(threadId);
    thread.handle.interruptIfRunning();
    await thread.settled();
    await thread.handle.close();
    this.server.broadcast(threadId, 'thread/status/changed', { threadId, status: { type: 'notLoaded' } });
    for (const subscriber of this.server.subscribers(threadId)) this.server.unsubscribe(threadId, subscriber);
  }

  /**
   * Called when a client let go of a thread (unsubscribed or disconnected): once no client holds
   * it, it is unloaded after `thread_unload_delay_secs` unless a client takes it again; a running
   * turn is allowed to finish first. Everyone hears it go (`notLoaded`, then `thread/closed`), as
   * Codex tells even the client that just unsubscribed.
   */
  releaseIfUnheld(threadId: string): void {
    const thread = this.threads.get(threadId);
    if (thread === undefined || this.server.subscribers(threadId).length > 0 || this.#unheld.has(threadId)) return;
    const timer = setTimeout(() => {
      this.#unheld.delete(threadId);
      if (this.threads.get(threadId) !== thread || this.server.subscribers(threadId).length > 0) return;
      if (thread.activeTurnId !== undefined) {
        void thread.settled().then(() => this.releaseIfUnheld(threadId));
        return;
      }
      void this.unload(threadId).then(
        () => {
          this.server.broadcastToAll('thread/status/changed', { threadId, status: { type: 'notLoaded' } });
          this.server.broadcastToAll('thread/closed', { threadId });
        },
        () => undefined,
      );
    }, threadUnloadDelayMs(thread.config));
    // A pending unload must not keep the process alive.
    timer.unref();
    this.#unheld.set(threadId, timer);
  }

  /** Cancels a pending unload: a client holds the thread again. */
  hold(threadId: string): void {
    clearTimeout(this.#unheld.get(threadId));
    this.#unheld.delete(threadId);
  }
}
