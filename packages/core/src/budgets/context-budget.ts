// How many tokens a context window has left before the next automatic compaction: the limit, less
// what the window held by the last account (a response's usage, a resume's record, a compaction's
// estimate), less an estimate of what was recorded since (the response's calls and their outputs,
// reminders, new prompts). The token budget's reminder and `get_context_remaining` both read it.
import type { Config } from '@skein/config';
import { withoutResponseItemMetadata, type ResponseItem } from '@skein/protocol';
import { isHandoffSummary } from '../compaction/handoff-summary.js';
import { approximateTokens } from '../history/truncate-output.js';
import { autoCompactTokenLimit, type ModelInfo } from '../model/model-catalog.js';
import type { AfterResponseHook, SampledResponse, TurnStep } from '../turn/turn-hooks.js';

/** What the figure is computed from. */
export interface ContextBudgetOptions {
  readonly config: () => Config;
  readonly model: () => ModelInfo;
  /** The tokens the window holds by the last response's account (or the estimate after a compaction). */
  readonly windowTokens: () => number;
  readonly windowId: () => string;
}

/** The tokens left in the current window; an after-response hook marks where the last response's account ends. */
export class ContextBudget implements AfterResponseHook {
  readonly name = 'context-budget';
  readonly #options: ContextBudgetOptions;
  /** The last item the last response produced, in the window it was produced in. */
  #countedThrough: { readonly itemId: string; readonly windowId: string } | undefined;

  constructor(options: ContextBudgetOptions) {
    this.#options = options;
  }

  /** Tokens left before the auto-compaction limit, never below zero. */
  remaining(history: readonly ResponseItem[]): number {
    const { config, model, windowTokens } = this.#options;
    const limit = autoCompactTokenLimit(model(), config().modelAutoCompactTokenLimit);
    const uncounted = this.#uncounted(history);
    // Estimated as the model is sent them: without Skein's bookkeeping.
    const estimate = uncounted.length === 0 ? 0 : approximateTokens(JSON.stringify(uncounted.map(withoutResponseItemMetadata)));
    return Math.max(0, limit - windowTokens() - estimate);
  }

  /** Continues from recorded history, whose account is the record's: only what follows it is estimated. */
  restore(history: readonly ResponseItem[]): void {
    const itemId = history.at(-1)?.id;
    this.#countedThrough = typeof itemId === 'string' ? { itemId, windowId: this.#options.windowId() } : undefined;
  }

  afterResponse(_step: TurnStep, response: SampledResponse): undefined {
    const itemId = response.produced.at(-1)?.id;
    if (response.usage !== undefined && typeof itemId === 'string') this.#countedThrough = { itemId, windowId: this.#options.windowId() };
    return undefined;
  }

  /**
   * The items the last account does not cover: those after the mark in this window; in a window no
   * response was accounted in yet, those after the compaction's summary (its estimate covered the
   * replacement history), else all of them.
   */
  #uncounted(history: readonly ResponseItem[]): readonly ResponseItem[] {
    const mark = this.#countedThrough;
    const index = mark !== undefined && mark.windowId === this.#options.windowId()
      ? history.findLastIndex((item) => item.id === mark.itemId)
      : history.findLastIndex(isHandoffSummary);
    return history.slice(index + 1);
  }
}
