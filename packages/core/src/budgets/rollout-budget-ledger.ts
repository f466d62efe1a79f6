// The rollout budget's weighted ledger: what every thread of one session has spent together. The
// host's thread registry keeps one per session id; nothing is persisted, so a new process starts
// every session from its full budget (as Codex 0.171.0 does).
import type { RolloutBudgetConfig } from '@skein/features';
import type { TokenUsage } from '../model-client/response-event.js';

/** A response's usage as the budget charges it: `sampling × output + prefill × non-cached input`. */
export function weightedTokens(usage: TokenUsage, settings: Pick<RolloutBudgetConfig, 'sampling_token_weight' | 'prefill_token_weight'>): number {
  const cached = Math.min(usage.input_tokens, usage.input_tokens_details?.cached_tokens ?? 0);
  return settings.sampling_token_weight * usage.output_tokens + settings.prefill_token_weight * (usage.input_tokens - cached);
}

/** The weighted tokens one session's threads have spent. */
export class RolloutBudgetLedger {
  #spent = 0;

  /** Weighted tokens spent so far by every thread of the session. */
  get spent(): number {
    return this.#spent;
  }

  /** Adds `weighted` tokens (never negative) and returns the new total. */
  charge(weighted: number): number {
    this.#spent += Math.max(0, weighted);
    return this.#spent;
  }
}

/** The ledgers of one host process, one per session id, made when a session's thread first asks. */
export class RolloutBudgetLedgers {
  readonly #bySession = new Map<string, RolloutBudgetLedger>();

  /** The ledger every thread of `sessionId` shares. */
  ledgerOf(sessionId: string): RolloutBudgetLedger {
    let ledger = this.#bySession.get(sessionId);
    if (ledger === undefined) {
      ledger = new RolloutBudgetLedger();
      this.#bySession.set(sessionId, ledger);
    }
    return ledger;
  }
}
