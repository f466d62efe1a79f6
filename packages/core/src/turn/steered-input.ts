// Input the user adds while a turn runs (`turn/steer`): held until the next sampling request, which
// carries it; a turn whose model just answered samples once more for it.
import type { ResponseItem } from '@skein/protocol';
import type { BeforeSamplingHook } from './turn-hooks.js';

/** The steered input of one turn, as a before-sampling hook. */
export class SteeredInput implements BeforeSamplingHook {
  readonly name = 'steered-input';
  readonly #waiting: ResponseItem[] = [];
  #closed = false;
  #screen: ((items: readonly ResponseItem[], signal?: AbortSignal) => Promise<readonly ResponseItem[]>) | undefined;

  /** What the input passes through before a request carries it (the UserPromptSubmit hooks): it may drop or add items. */
  screenWith(screen: (items: readonly ResponseItem[], signal?: AbortSignal) => Promise<readonly ResponseItem[]>): void {
    this.#screen = screen;
  }

  /** `close()`, with what no request carried passed through the screen too (under its own signal: the turn is over). */
  async closeScreened(): Promise<ResponseItem[]> {
    const leftover = this.close();
    return this.#screen === undefined || leftover.length === 0 ? leftover : [...(await this.#screen(leftover, new AbortController().signal))];
  }

  /** Adds items for the next request; false once the turn has ended (the caller keeps them). */
  push(...items: readonly ResponseItem[]): boolean {
    if (this.#closed) return false;
    this.#waiting.push(...items);
    return true;
  }

  /** Ends the turn's intake and returns what no request carried (an interrupted or ended turn's leftovers). */
  close(): ResponseItem[] {
    this.#closed = true;
    return this.#waiting.splice(0);
  }

  hasPending(): boolean {
    return this.#waiting.length > 0;
  }

  beforeSampling(): readonly ResponseItem[] | Promise<readonly ResponseItem[]> {
    const items = this.#waiting.splice(0);
    return this.#screen === undefined || items.length === 0 ? items : this.#screen(items);
  }
}
