// The realtime conversations of one app-server: at most one per thread (a new start replaces the
// running one, as in Codex), what each thread's model should know of its conversation, and the
// conversation items still being written (a list reads after them).
import type { Extension } from '@skein/extension-api';
import { realtimeContextExtension, type RealtimeContextState } from './realtime-context-extension.js';
import { RealtimeConversation, type RealtimeConversationOptions, type RealtimeThreadPort } from './realtime-conversation.js';

export class RealtimeConversations {
  readonly #live = new Map<string, RealtimeConversation>();
  readonly #context = new Map<string, RealtimeContextState>();
  readonly #writes = new Map<string, Promise<void>>();
  /** Tells each thread's model when its conversation starts and ends (install it with the threads' extensions). */
  readonly extension: Extension = realtimeContextExtension((threadId) => this.#context.get(threadId));

  /** Starts a conversation for `port`'s thread, ending the one it has. */
  start(port: RealtimeThreadPort, options: Omit<RealtimeConversationOptions, 'onEnded'>, instructions: { readonly start: string | null; readonly end: string | null }): void {
    const { threadId } = port;
    this.stop(threadId);
    this.#context.set(threadId, { active: true, instructions: instructions.start });
    const conversation = RealtimeConversation.start(port, {
      ...options,
      onEnded: () => {
        if (this.#live.get(threadId) !== conversation) return;
        this.#live.delete(threadId);
        this.#context.set(threadId, { active: false, instructions: instructions.end });
      },
    });
    this.#live.set(threadId, conversation);
  }

  /** The thread's running conversation. */
  get(threadId: string): RealtimeConversation | undefined {
    return this.#live.get(threadId);
  }

  /** Ends the thread's conversation, if it has one. */
  stop(threadId: string): void {
    this.#live.get(threadId)?.stop();
  }

  /** Ends every conversation (the server stops). */
  stopAll(): void {
    for (const conversation of [...this.#live.values()]) conversation.stop();
  }

  /** Remembers a write of the thread's items (one that reports its own failure), so {@link written} can wait for it. */
  track(threadId: string, write: Promise<void>): void {
    const previous = this.#writes.get(threadId) ?? Promise.resolve();
    const next = Promise.all([previous, write]).then(() => undefined);
    this.#writes.set(threadId, next);
    void next.then(() => {
      if (this.#writes.get(threadId) === next) this.#writes.delete(threadId);
    });
  }

  /** Resolves once every item of the thread recorded so far is written. */
  async written(threadId: string): Promise<void> {
    await this.#writes.get(threadId);
  }
}
