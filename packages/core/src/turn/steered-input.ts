// Input the user adds while a turn runs (`turn/steer`): held until the next sampling request, which
// carries it; a turn whose model just answered samples once more for it.
import type { ResponseItem } from '@skein/protocol';
import type { BeforeSamplingHook } from './turn-hooks.js';

/** The steered input of one turn, as a before-sampling hook. */
export class SteeredInput implements BeforeSamplingHook {
  readonly name = 'steered-input';
  readonly #waiting: ResponseItem[] = [];

  /** Adds items for the next request. */
  push(...items: readonly ResponseItem[]): void {
    this.#waiting.push(...items);
  }

  hasPending(): boolean {
    return this.#waiting.length > 0;
  }

  beforeSampling(): readonly ResponseItem[] {
    return this.#waiting.splice(0);
  }
}
