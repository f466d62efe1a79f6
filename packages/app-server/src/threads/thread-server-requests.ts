// Server requests that belong to a thread (approvals, questions), as Codex keeps them: sent to every
// subscriber, answered by whichever answers first, and still pending when a client leaves, so a
// client that resumes the thread later is sent them again, under the same ids.
import { ServerRequestError } from '../app-server-error.js';

/** A client that thread requests can be sent to (a connection). */
export interface ServerRequestRecipient {
  /** Sends `{ id, method, params }`; false when the client has gone. */
  sendRequest(id: number, method: string, params: unknown): boolean;
}

/** What the client answered: a result, or a JSON-RPC error. */
export type ServerRequestAnswer = { readonly result: unknown } | { readonly error: ServerRequestError };

interface PendingThreadRequest {
  readonly threadId: string;
  readonly method: string;
  readonly params: unknown;
  readonly recipients: Set<ServerRequestRecipient>;
  settle(answer: ServerRequestAnswer): void;
}

/** Options of {@link ThreadServerRequests.ask}. */
export interface AskOptions {
  /** Aborting withdraws the request: a late answer is dropped. */
  readonly signal?: AbortSignal;
  /** Called with the request id once it has been sent. */
  readonly onSent?: (requestId: number) => void;
}

/** The pending thread requests of one server; ids come from the server's request id sequence. */
export class ThreadServerRequests {
  readonly #pending = new Map<number, PendingThreadRequest>();

  constructor(private readonly nextId: () => number) {}

  /**
   * Sends `method` to `recipients` and resolves to the first answer's result; rejects with a
   * `ServerRequestError` on an error answer, when it is withdrawn, or when no recipient could be sent it.
   */
  ask(threadId: string, method: string, params: unknown, recipients: readonly ServerRequestRecipient[], options: AskOptions = {}): Promise<unknown> {
    const { signal } = options;
    if (signal?.aborted === true) return Promise.reject(new ServerRequestError('Withdrawn', `${method} was withdrawn`));
    const id = this.nextId();
    const sentTo = new Set(recipients.filter((recipient) => recipient.sendRequest(id, method, params)));
    if (sentTo.size === 0) return Promise.reject(new ServerRequestError('ConnectionClosed', `no client is subscribed to thread ${threadId} to answer ${method}`));
    options.onSent?.(id);
    return new Promise((resolve, reject) => {
      const withdraw = (): void => {
        if (this.#pending.delete(id)) reject(new ServerRequestError('Withdrawn', `${method} was withdrawn`));
      };
      this.#pending.set(id, {
        threadId,
        method,
        params,
        recipients: sentTo,
        settle: (answer) => {
          signal?.removeEventListener('abort', withdraw);
          if ('error' in answer) reject(answer.error);
          else resolve(answer.result);
        },
      });
      signal?.addEventListener('abort', withdraw, { once: true });
    });
  }

  /**
   * Takes `from`'s answer to request `id`; false when it is not a pending thread request sent to
   * `from` (answered already, withdrawn, or someone else's), so the caller can ignore it.
   */
  answer(from: ServerRequestRecipient, id: number, answer: ServerRequestAnswer): boolean {
    const pending = this.#pending.get(id);
    if (pending === undefined || !pending.recipients.has(from)) return false;
    this.#pending.delete(id);
    pending.settle(answer);
    return true;
  }

  /**
   * Sends the thread's pending requests to `recipient` (a client that just resumed it), with their
   * ids; one it was already sent is not sent twice.
   */
  replay(threadId: string, recipient: ServerRequestRecipient): void {
    for (const [id, pending] of this.#pending) {
      if (pending.threadId !== threadId || pending.recipients.has(recipient)) continue;
      if (recipient.sendRequest(id, pending.method, pending.params)) pending.recipients.add(recipient);
    }
  }

  /** Forgets a client that has gone; its requests stay pending for the thread's other and later clients. */
  forget(recipient: ServerRequestRecipient): void {
    for (const pending of this.#pending.values()) pending.recipients.delete(recipient);
  }

  /** Ids of the thread's pending requests, oldest first. */
  pendingIds(threadId: string): number[] {
    return [...this.#pending].filter(([, pending]) => pending.threadId === threadId).map(([id]) => id);
  }
}
