// Who else watches a loaded thread's notifications besides its clients (a realtime conversation
// watches its handoff turns). An observer's failure is its own: the thread and its clients go on.

/** Called with each notification the thread sends. */
export type ThreadObserver = (method: string, params: unknown) => void;

export class ThreadObservers {
  readonly #observers = new Set<ThreadObserver>();

  /** Adds `observer`; returns the way to remove it. */
  add(observer: ThreadObserver): () => void {
    this.#observers.add(observer);
    return () => this.#observers.delete(observer);
  }

  /** Tells every observer; a failure is reported through `warn`. */
  notify(method: string, params: unknown, warn: (message: string) => void): void {
    for (const observer of this.#observers) {
      try {
        observer(method, params);
      } catch (error) {
        warn(`a thread observer failed: ${(error as Error).message}`);
      }
    }
  }
}
