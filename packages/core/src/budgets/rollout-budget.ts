// One thread's view of the rollout budget (`[features.rollout_budget]`): it charges each response's
// and each compaction's usage to the session's shared ledger, tells the model what is left (in the
// first request of each context window, and again once the session's usage has crossed another
// `reminder_interval_tokens` mark), and stops the turn at the usage boundary that finds the ledger
// exhausted — the response that exhausted it, and every later one of every thread — before the
// tools that response asked for run.
import { rolloutBudgetLimit, type RolloutBudgetConfig } from '@skein/features';
import { ROLLOUT_BUDGET_FRAGMENT, type ResponseItem } from '@skein/protocol';
import type { TokenUsage } from '../model-client/response-event.js';
import type { BeforeSamplingHook, ResponseGate, SampledResponse, TurnStep } from '../turn/turn-hooks.js';
import { BudgetExhaustedError } from './budget-exhausted-error.js';
import { weightedTokens, type RolloutBudgetLedger } from './rollout-budget-ledger.js';

/** What the budget reads: its settings now (undefined while the feature is off), the ledger and the window. */
export interface RolloutBudgetOptions {
  readonly settings: () => RolloutBudgetConfig | undefined;
  /** The ledger of the thread's session (shared with its other threads). */
  readonly ledger: RolloutBudgetLedger;
  readonly windowId: () => string;
}

/** The message that tells the model how many weighted tokens the session has left. */
export function rolloutBudgetText(remaining: number): string {
  return ROLLOUT_BUDGET_FRAGMENT.render(`The session's shared token budget has ${remaining} weighted tokens left.`).text;
}

/** The rollout budget of one thread: a before-sampling reminder and a charge when each response completes. */
export class RolloutBudget implements BeforeSamplingHook, ResponseGate {
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
    const remaining = remainingOf(settings, spent);
    // Several marks crossed since the last reminder still make one reminder. Codex's
    // `reminder_at_remaining_tokens` levels count as marks too, so a Codex config reminds where Codex does.
    const mark = Math.floor(spent / settings.reminder_interval_tokens);
    const levels = (settings.reminder_at_remaining_tokens ?? []).filter((level) => remaining <= level).length;
    let told = this.#told;
    // Without the reminder that opens a window, a new window starts from what was already told.
    if (settings.reminder_at_context_start === false && told?.windowId !== windowId) told = { windowId, mark, levels: told?.levels ?? 0 };
    if (told !== undefined && told.windowId === windowId && told.mark >= mark && told.levels >= levels) {
      this.#told = told;
      return [];
    }
    this.#told = { windowId, mark, levels };
    return [{ type: 'message', role: 'developer', content: [{ type: 'input_text', text: rolloutBudgetText(remaining) }] }];
  }

  gateResponse(_step: TurnStep, response: SampledResponse): BudgetExhaustedError | undefined {
    return this.#chargeAndCheck(response.usage) === 'exhausted' ? new BudgetExhaustedError() : undefined;
  }

  /**
   * Charges a compaction's usage; `exhausted` when the ledger is spent (the compaction then ends
   * without retry, and its turn fails with {@link BudgetExhaustedError}).
   */
  chargeCompaction(usage: TokenUsage | undefined): 'exhausted' | undefined {
    return this.#chargeAndCheck(usage);
  }

  /**
   * Charges `usage`; `exhausted` when the ledger has reached the limit (also with nothing to charge)
   * and the limit is enforced.
   */
  #chargeAndCheck(usage: TokenUsage | undefined): 'exhausted' | undefined {
    const settings = this.#options.settings();
    if (settings === undefined) return undefined;
    const { ledger } = this.#options;
    const spent = usage === undefined ? ledger.spent : ledger.charge(weightedTokens(usage, settings));
    return settings.enforce_limit !== false && spent >= rolloutBudgetLimit(settings) ? 'exhausted' : undefined;
  }
}

/**
 * What the session has left: whole tokens under `limit_tokens`; under a fractional `limit_budget`
 * the exact figure, as Codex prints it (`50.5`).
 */
function remainingOf(settings: RolloutBudgetConfig, spent: number): number {
  const remaining = Math.max(0, rolloutBudgetLimit(settings) - spent);
  return settings.limit_tokens === undefined ? remaining : Math.floor(remaining);
}
