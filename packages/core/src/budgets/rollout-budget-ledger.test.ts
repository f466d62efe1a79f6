import { describe, expect, it } from 'vitest';
import { RolloutBudgetLedgers, weightedTokens } from './rollout-budget-ledger.js';

const usage = (input: number, cached: number, output: number) => ({ input_tokens: input, input_tokens_details: { cached_tokens: cached }, output_tokens: output, total_tokens: input + output });

describe('weightedTokens', () => {
  it('weighs output by sampling and only the non-cached input by prefill', () => {
    expect(weightedTokens(usage(500, 0, 10), { sampling_token_weight: 1, prefill_token_weight: 1 })).toBe(510);
    expect(weightedTokens(usage(500, 100, 10), { sampling_token_weight: 2, prefill_token_weight: 0.25 })).toBe(120);
    expect(weightedTokens(usage(500, 500, 10), { sampling_token_weight: 0, prefill_token_weight: 1 })).toBe(0);
  });

  it('never charges for more cached tokens than were sent', () => {
    expect(weightedTokens(usage(100, 400, 0), { sampling_token_weight: 1, prefill_token_weight: 1 })).toBe(0);
  });
});

describe('RolloutBudgetLedgers', () => {
  it('gives the threads of one session one ledger, and each session its own', () => {
    const ledgers = new RolloutBudgetLedgers();
    ledgers.ledgerOf('s1').charge(30);
    expect(ledgers.ledgerOf('s1').charge(12)).toBe(42);
    expect(ledgers.ledgerOf('s2').spent).toBe(0);
  });
});
