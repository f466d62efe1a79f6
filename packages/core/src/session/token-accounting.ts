// The thread's token total, kept by an after-response hook: each response's usage is added and the
// client is told the last and total usage with the model's context window.
import type { TokenUsage } from '../model-client/response-event.js';
import type { CoreEvent } from '../turn/core-event.js';
import type { AfterResponseHook, SampledResponse, TurnStep } from '../turn/turn-hooks.js';
import { addUsage, breakdownOf, NO_TOKENS, type TokenUsageBreakdown } from './thread-token-usage.js';

/** A thread's usage so far, as `thread/tokenUsage/updated` carries it. */
export interface TokenUsageReport {
  readonly total: TokenUsageBreakdown;
  readonly last: TokenUsageBreakdown;
  readonly modelContextWindow: number;
}

/** Adds up a thread's usage across turns (restored on resume). */
export class TokenAccounting implements AfterResponseHook {
  readonly name = 'token-accounting';
  #total: TokenUsageBreakdown = NO_TOKENS;
  /** What the last response reported as its total (what fills the window now); compaction compares it with its limit. */
  #windowTokens = 0;
  #last: TokenUsageBreakdown = NO_TOKENS;

  constructor(
    private readonly emit: (event: CoreEvent) => void,
    /** The window of the model the thread uses now. */
    private readonly contextWindow: () => number,
  ) {}

  /** Tokens used since the thread began. */
  get total(): TokenUsageBreakdown {
    return this.#total;
  }

  /** The usage as a client is told it: the total, the last response's, and the model's window. */
  get report(): TokenUsageReport {
    return { total: this.#total, last: this.#last, modelContextWindow: this.contextWindow() };
  }

  /** The tokens the window holds by the last response's account (or the estimate after a compaction). */
  get windowTokens(): number {
    return this.#windowTokens;
  }

  /** Continues from a recorded total and last usage (resume). */
  restore(total: TokenUsageBreakdown, last?: TokenUsageBreakdown): void {
    this.#total = total;
    this.#last = last ?? NO_TOKENS;
    this.#windowTokens = this.#last.totalTokens;
  }

  /** Tells the client the usage as it stands (a compaction opens with it). */
  announce(turnId: string): void {
    this.emit({ type: 'threadTokenUsage', turnId, last: this.#last, total: this.#total, modelContextWindow: this.contextWindow() });
  }

  /**
   * A compaction's accounts: its request's usage joins the total, and the window now holds about
   * `estimatedTokens` (reported as the last usage with no input, as Codex reports it).
   */
  compacted(turnId: string, usage: TokenUsage | undefined, estimatedTokens: number): void {
    if (usage !== undefined) {
      const last = breakdownOf(usage);
      this.#total = addUsage(this.#total, last);
      this.emit({ type: 'threadTokenUsage', turnId, last, total: this.#total, modelContextWindow: this.contextWindow() });
    }
    this.#windowTokens = estimatedTokens;
    this.#last = { ...NO_TOKENS, totalTokens: estimatedTokens };
    this.emit({ type: 'threadTokenUsage', turnId, last: this.#last, total: this.#total, modelContextWindow: this.contextWindow() });
  }

  afterResponse(step: TurnStep, response: SampledResponse): undefined {
    if (response.usage === undefined) return undefined;
    const last = breakdownOf(response.usage);
    this.#total = addUsage(this.#total, last);
    this.#last = last;
    this.#windowTokens = last.totalTokens;
    this.emit({ type: 'threadTokenUsage', turnId: step.turnId, last, total: this.#total, modelContextWindow: this.contextWindow() });
    return undefined;
  }
}
