// One signal per call that fires on the caller's abort, on the owner closing, or when time runs out,
// and remembers which, so a failure is reported as what happened rather than how the SDK saw it.

/** What ended a call early. */
export type DeadlineCause = 'timeout' | 'aborted' | 'closed';

// The SDK's own request timer is pushed out of the way; ours decides (setTimeout's largest delay).
export const NO_SDK_TIMEOUT = 2_147_483_647;

/** The limits of one call. Dispose it when the call settles. */
export class CallDeadline {
  readonly signal: AbortSignal;
  #cause: DeadlineCause | undefined;
  readonly #controller = new AbortController();
  readonly #timer: NodeJS.Timeout;
  readonly #detach: () => void;

  constructor(readonly timeoutMs: number, caller: AbortSignal | undefined, owner: AbortSignal) {
    this.signal = this.#controller.signal;
    const onCaller = () => this.#fire('aborted');
    const onOwner = () => this.#fire('closed');
    caller?.addEventListener('abort', onCaller, { once: true });
    owner.addEventListener('abort', onOwner, { once: true });
    this.#detach = () => {
      caller?.removeEventListener('abort', onCaller);
      owner.removeEventListener('abort', onOwner);
    };
    this.#timer = setTimeout(() => this.#fire('timeout'), timeoutMs);
    if (owner.aborted) this.#fire('closed');
    else if (caller?.aborted === true) this.#fire('aborted');
  }

  /** Why the signal fired, or `undefined` while it has not. */
  get cause(): DeadlineCause | undefined {
    return this.#cause;
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#detach();
  }

  #fire(cause: DeadlineCause): void {
    if (this.#cause !== undefined) return;
    this.#cause = cause;
    this.#controller.abort(new Error(`call ${cause}`));
  }
}
