// The thread's token total, kept by an after-response hook: each response's usage is added and the
// client is told the last and total usage with the model's context window.
import type { CoreEvent } from '../turn/core-event.js';
import type { AfterResponseHook, SampledResponse, TurnStep } from '../turn/turn-hooks.js';
import { addUsage, breakdownOf, NO_TOKENS, type TokenUsageBreakdown } from './thread-token-usage.js';

/** Adds up a thread's usage across turns (restored on resume). */
export class TokenAccounting implements AfterResponseHook {
  readonly name = 'token-accounting';
  #total: TokenUsageBreakdown = NO_TOKENS;

  constructor(
    private readonly emit: (event: CoreEvent) => void,
    /** The window of the model the thread uses now. */
    private readonly contextWindow: () => number,
  ) {}

  /** Tokens used since the thread began. */
  get total(): TokenUsageBreakdown {
    return this.#total;
  }

  /** Continues from a recorded total (resume). */
  restore(total: TokenUsageBreakdown): void {
    this.#total = total;
  }

  afterResponse(step: TurnStep, response: SampledResponse): undefined {
    if (response.usage === undefined) return undefined;
    const last = breakdownOf(response.usage);
    this.#total = addUsage(this.#total, last);
    this.emit({ type: 'threadTokenUsage', turnId: step.turnId, last, total: this.#total, modelContextWindow: this.contextWindow() });
    return undefined;
  }
}
