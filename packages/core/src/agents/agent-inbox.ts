// An agent's inbox: envelopes and notifications for it wait here and are recorded in its history at
// its next sampling boundary — the running turn's next request, or the next turn's first. Delivery
// never makes a turn sample again by itself; `followup_task` starts a turn where one is needed.
import type { ResponseItem } from '@skein/protocol';
import type { BeforeSamplingHook } from '../turn/turn-hooks.js';

export class AgentInbox implements BeforeSamplingHook {
  readonly name = 'agent-inbox';
  readonly #waiting: ResponseItem[] = [];
  readonly #listeners = new Set<() => void>();

  /** Queues `items` and wakes whoever waits on this inbox. */
  deliver(...items: readonly ResponseItem[]): void {
    this.#waiting.push(...items);
    for (const listener of [...this.#listeners]) listener();
  }

  get pending(): number {
    return this.#waiting.length;
  }

  /** Calls `listener` on each delivery until the returned function is called. */
  onDelivery(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  beforeSampling(): readonly ResponseItem[] {
    return this.#waiting.splice(0);
  }
}
