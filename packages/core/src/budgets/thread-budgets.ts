// A thread's budgets and reminders, as turn hooks: the current-time reminder, the token budget
// (its reminder, its figure for get_context_remaining, and the lineage block of each window's
// context) and the rollout budget (its reminder and its charge of each response's usage). Each
// reads the thread's settings at the time, so turning a feature on or off takes effect with the
// next request.
import type { Config } from '@skein/config';
import type { ResponseItem } from '@skein/protocol';
import type { ContextWindow } from '../compaction/context-window.js';
import type { ModelInfo } from '../model/model-catalog.js';
import type { TurnHooks } from '../turn/turn-hooks.js';
import { ContextBudget } from './context-budget.js';
import { contextWindowLineage } from './context-window-lineage.js';
import { CurrentTimeReminder } from './current-time-reminder.js';
import { RolloutBudget } from './rollout-budget.js';
import { RolloutBudgetLedger } from './rollout-budget-ledger.js';
import type { TokenUsage } from '../model-client/response-event.js';
import { TokenBudgetReminder } from './token-budget-reminder.js';

/** What a thread's budgets read. */
export interface ThreadBudgetsOptions {
  /** The thread's id, for the token budget's lineage block. */
  readonly threadId: string;
  readonly config: () => Config;
  readonly model: () => ModelInfo;
  /** The thread's injected clock. */
  readonly now: () => Date;
  readonly window: () => ContextWindow;
  /** The tokens the window holds by the last response's account. */
  readonly windowTokens: () => number;
  /** The history as the next request would carry it. */
  readonly history: () => readonly ResponseItem[];
  /**
   * The items recorded so far, without the outputs a request would stand in for calls still running
   * (what a tool call sees of the window while it runs).
   */
  readonly recorded: () => readonly ResponseItem[];
  /** The rollout budget's ledger of the thread's session (a thread of its own when none is given). */
  readonly rolloutLedger?: RolloutBudgetLedger | undefined;
}

/** The budgets of one thread. */
export class ThreadBudgets {
  readonly #options: ThreadBudgetsOptions;
  readonly #context: ContextBudget;
  readonly #time: CurrentTimeReminder;
  readonly #tokens: TokenBudgetReminder;
  readonly #rollout: RolloutBudget;

  constructor(options: ThreadBudgetsOptions) {
    this.#options = options;
    const windowId = () => options.window().windowId;
    this.#context = new ContextBudget({ config: options.config, model: options.model, windowTokens: options.windowTokens, windowId });
    this.#time = new CurrentTimeReminder({ settings: () => options.config().features.currentTimeReminder, now: options.now, windowId });
    this.#tokens = new TokenBudgetReminder({ settings: () => options.config().features.tokenBudget, budget: this.#context, windowId });
    this.#rollout = new RolloutBudget({
      settings: () => options.config().features.rolloutBudget,
      ledger: options.rolloutLedger ?? new RolloutBudgetLedger(),
      windowId,
    });
  }

  /**
   * The hooks every turn runs: the reminders before each request, the rollout budget's charge as
   * each response completes, the context budget's mark after it.
   */
  get hooks(): TurnHooks {
    return { beforeSampling: [this.#time, this.#tokens, this.#rollout], responseGates: [this.#rollout], afterResponse: [this.#context] };
  }

  /** Charges a compaction's usage to the rollout budget; `exhausted` once it is spent. */
  chargeCompaction(usage: TokenUsage | undefined): 'exhausted' | undefined {
    return this.#rollout.chargeCompaction(usage);
  }

  /** The tokens the current window has left before automatic compaction. */
  contextRemaining(): number {
    return this.#context.remaining(this.#options.recorded());
  }

  /** The lineage message of `window` (default: the current one) while the token budget is on. */
  lineage(config: Config, window: ContextWindow = this.#options.window()): ResponseItem | undefined {
    return config.features.tokenBudget === undefined ? undefined : contextWindowLineage(this.#options.threadId, window);
  }

  /** Continues from recorded history: the reminders are due again, the budget counts from the record. */
  restore(): void {
    this.#context.restore(this.#options.history());
    this.#time.reset();
    this.#tokens.reset();
    this.#rollout.reset();
  }
}
