// Items a client adds to a thread's model-visible history (`thread/inject_items`). Between turns
// they are recorded at once (after the initial context, on a thread that has none yet); while a
// turn runs they wait for its next sampling request, as steered input does, but never make the
// turn sample again: what no request carried is recorded when the turn ends. They belong to no
// turn, so no turn's record lists them.
import type { ResponseItem } from '@skein/protocol';
import type { ThreadHistory } from '../history/thread-history.js';
import type { BeforeSamplingHook } from '../turn/turn-hooks.js';
import type { TurnContextAssembly } from './turn-context-assembly.js';

/** What injection reads from its thread. */
export interface InjectedItemsOptions {
  readonly history: ThreadHistory;
  readonly context: TurnContextAssembly;
  /** Whether a turn runs now. */
  readonly running: () => boolean;
  /** The thread's initial context as it would open its next turn. */
  readonly opening: () => ReturnType<TurnContextAssembly['openingContext']>;
}

/** A thread's injected items, and the running turn's hook that hands them to its next request. */
export class InjectedItems implements BeforeSamplingHook {
  readonly name = 'injected-items';
  readonly #options: InjectedItemsOptions;
  readonly #waiting: ResponseItem[] = [];

  constructor(options: InjectedItemsOptions) {
    this.#options = options;
  }

  /** Adds `items` to the history now, or with the running turn's next request. */
  async inject(items: readonly ResponseItem[]): Promise<void> {
    const { history, context, running, opening } = this.#options;
    const initial = !running() && context.needsInitialContext ? await opening() : undefined;
    // A turn that started meanwhile opens with its own context; the items wait for its next request.
    if (running()) {
      this.#waiting.push(...items);
      return;
    }
    if (initial !== undefined && context.needsInitialContext) {
      history.record(initial.items, undefined);
      initial.onRecorded();
    }
    history.record(items, undefined);
  }

  /** Records what is waiting, untagged (the turn ended before a request carried it). */
  recordWaiting(): void {
    if (this.#waiting.length > 0) this.#options.history.record(this.#waiting.splice(0), undefined);
  }

  beforeSampling(): readonly ResponseItem[] {
    // Recorded here rather than returned: returned items would be announced as the turn's own.
    this.recordWaiting();
    return [];
  }
}
