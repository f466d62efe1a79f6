// One thread's view of the rollout budget (`[features.rollout_budget]`): it charges each response's
// and each compaction's usage to the session's shared ledger, tells the model what is left (in the
// first request of each context window, and again once the session's usage has crossed another
// `reminder_interval_tokens` mark), and aborts the turn at the usage boundary that finds the
// ledger exhausted — the response that exhausted it, and every later one of every thread.
import type { RolloutBudgetConfig } from '@skein/features';
import { ROLLOUT_BUDGET_FRAGMENT, type ResponseItem } from '@skein/protocol';
import type { TokenUsage } from '../model-client/response-event.js';
import type { AfterResponseHook, BeforeSamplingHook, SampledResponse, TurnStep } from '../turn/turn-hooks.js';
import { weightedTokens, type RolloutBudgetLedger } from './rollout-budget-ledger.js';

/** What the budget reads: its settings now (undefined while the feature is off), the ledger and the window. */
export interface RolloutBudgetOptions {
  readonly settings: () => RolloutBudgetConfig | undefined;
  /** The ledger of the thread's session (shared with its other threads). */
  readonly ledger: RolloutBudgetLedger;
  readonly windowId: () => string;
  /** Aborts the running turn (its normal aborted-turn lifecycle follows). */
  readonly abortTurn: () => void;
}

/** The message that tells the model how many weighted tokens the session has left. */
export function rolloutBudgetText(remaining: number): string {
  return ROLLOUT_BUDGET_FRAGMENT.render(`The session's shared token budget has ${remaining} weighted tokens left.`).text;
}

/** The rollout budget of one thread: a before-sampling reminder and an after-response charge. */
export class RolloutBudget implements BeforeSamplingHook, AfterResponseHook {
  readonly name = 'rollout-budget';
  readonly #options: RolloutBudgetOptions;
  /** The window last told, the interval mark the session's usage had reached then, and how many remaining-token levels it had passed. */
  #told: { readonly windowId: string; readonly mark: number; readonly levels: number } | undefined;

  constructor(options: RolloutBudgetOptions) {
    this.#options = options;
  }

  /** Forgets what was told (a resumed thread is told the budget again before its next request). */
  reset(): void {
    this.#told = undefined;
  }

  beforeSampling(): readonly ResponseItem[] {
    const settings = this.#options.settings();
    if (settings === undefined) return [];
    const { spent } = this.#options.ledger;
    const windowId = this.#options.windowId();
    const remaining = Math.max(0, Math.floor(settings.limit_tokens - spent));
    // Several marks crossed since the last reminder still make one reminder. Codex's
    // `reminder_at_remaining_tokens` levels count as marks too, so a Codex config reminds where Codex does.
    const mark = Math.floor(spent / settings.reminder_interval_tokens);
    const levels = (settings.reminder_at_remaining_tokens ?? []).filter((level) => remaining <= level).length;
    const told = this.#told;
    if (told !== undefined && told.windowId === windowId && told.mark >= mark && told.levels >= levels) return [];
    this.#told = { windowId, mark, levels };
    return [{ type: 'message', role: 'developer', content: [{ type: 'input_text', text: rolloutBudgetText(remaining) }] }];
  }

  afterResponse(_step: TurnStep, response: SampledResponse): undefined {
    if (this.#chargeAndCheck(response.usage) === 'exhausted') this.#options.abortTurn();
    return undefined;
  }

  /**
   * Charges a compaction's usage; `exhausted` when the ledger is spent, after aborting the turn (the
   * compaction then ends without retry and without an error of its own).
   */
  chargeCompaction(usage: TokenUsage | undefined): 'exhausted' | undefined {
    const verdict = this.#chargeAndCheck(usage);
    if (verdict === 'exhausted') this.#options.abortTurn();
    return verdict;
  }

  /** Charges `usage`; `exhausted` when the ledger has reached the limit (also with nothing to charge). */
  #chargeAndCheck(usage: TokenUsage | undefined): 'exhausted' | undefined {
    const settings = this.#options.settings();
    if (settings === undefined) return undefined;
    const { ledger } = this.#options;
    const spent = usage === undefined ? ledger.spent : ledger.charge(weightedTokens(usage, settings));
    return spent >= settings.limit_tokens ? 'exhausted' : undefined;
  }
}
