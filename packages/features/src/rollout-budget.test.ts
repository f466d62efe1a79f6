// `[features.rollout_budget]`: defaults (reminder interval, weights), merging across layers, how the
// feature is turned on, and every way a value is rejected.

import { describe, expect, it } from 'vitest';
import { PROFILE, PROJECT, USER, configErrorOf, layer } from '../test/support.js';
import { resolveFeatures } from './resolve-features.js';
import { defaultReminderIntervalTokens, rolloutBudgetLimit } from './rollout-budget.js';

describe('rollout_budget defaults', () => {
  it('is off with no rollout budget by default', () => {
    const { features } = resolveFeatures([]);
    expect(features.isEnabled('rollout_budget')).toBe(false);
    expect(features.rolloutBudget).toBeUndefined();
  });

  it('fills in a 10% reminder interval and weights of 1.0', () => {
    const { features } = resolveFeatures([layer(USER, { rollout_budget: { enabled: true, limit_tokens: 100_000 } })]);
    expect(features.rolloutBudget).toEqual({
      limit_tokens: 100_000,
      reminder_interval_tokens: 10_000,
      sampling_token_weight: 1,
      prefill_token_weight: 1,
    });
  });

  it.each([
    [100_000, 10_000],
    [25, 3], // 2.5 rounds up
    [15, 2], // 1.5 rounds up
    [14, 1],
    [4, 1], // 0.4 would round to 0: at least 1
    [1, 1],
  ])('defaults the reminder interval for limit %i to %i', (limit, interval) => {
    expect(defaultReminderIntervalTokens(limit)).toBe(interval);
    const { features } = resolveFeatures([layer(USER, { rollout_budget: { enabled: true, limit_tokens: limit } })]);
    expect(features.rolloutBudget?.reminder_interval_tokens).toBe(interval);
  });

  it('keeps explicit values, including weights of zero and an interval equal to the limit', () => {
    const table = { enabled: true, limit_tokens: 500, reminder_interval_tokens: 500, sampling_token_weight: 0, prefill_token_weight: 0.25 };
    const { enabled: _enabled, ...config } = table;
    expect(resolveFeatures([layer(USER, { rollout_budget: table })]).features.rolloutBudget).toEqual(config);
  });

  it('accepts and carries the keys Codex 0.171.0 uses', () => {
    const { features } = resolveFeatures([
      layer(USER, {
        rollout_budget: { enabled: true, limit_tokens: 100, enforce_limit: true, reminder_at_remaining_tokens: [10, 50], reminder_at_context_start: true },
      }),
    ]);
    expect(features.rolloutBudget).toMatchObject({ enforce_limit: true, reminder_at_remaining_tokens: [10, 50], reminder_at_context_start: true });
  });
});

describe('rollout_budget limit_budget (Codex 0.171.0)', () => {
  it('takes a fractional limit in place of limit_tokens, the interval defaulting from it', () => {
    const { features } = resolveFeatures([layer(USER, { rollout_budget: { enabled: true, limit_budget: 50.5 } })]);
    expect(features.rolloutBudget).toMatchObject({ limit_budget: 50.5, reminder_interval_tokens: 5 });
    expect(rolloutBudgetLimit(features.rolloutBudget!)).toBe(50.5);
    // Under one token the default interval (1) is still allowed.
    expect(resolveFeatures([layer(USER, { rollout_budget: { enabled: true, limit_budget: 0.5 } })]).features.rolloutBudget).toMatchObject({ reminder_interval_tokens: 1 });
  });

  it('refuses limit_budget beside limit_tokens, and a limit_budget of zero or less', () => {
    const both = configErrorOf([layer(USER, { rollout_budget: { enabled: true, limit_tokens: 100 } }), layer(PROFILE, { rollout_budget: { limit_budget: 10 } })]);
    expect(both).toMatchObject({ key: 'features.rollout_budget.limit_budget', origin: PROFILE, reason: 'cannot be set together with limit_tokens (got 10)' });
    const zero = configErrorOf([layer(USER, { rollout_budget: { enabled: true, limit_budget: 0 } })]);
    expect(zero).toMatchObject({ key: 'features.rollout_budget.limit_budget', reason: 'must be a positive number (got 0)' });
  });
});

describe('rollout_budget layering', () => {
  it('merges tables key by key across layers, later layers winning', () => {
    const { features } = resolveFeatures([
      layer(USER, { rollout_budget: { enabled: true, limit_tokens: 100_000, sampling_token_weight: 2 } }),
      layer(PROJECT, { rollout_budget: { reminder_interval_tokens: 5_000 } }),
      layer(PROFILE, { rollout_budget: { prefill_token_weight: 0.5 } }),
      layer('-c features.rollout_budget.limit_tokens=200000', { rollout_budget: { limit_tokens: 200_000 } }),
    ]);
    expect(features.rolloutBudget).toEqual({
      limit_tokens: 200_000,
      reminder_interval_tokens: 5_000,
      sampling_token_weight: 2,
      prefill_token_weight: 0.5,
    });
  });

  it('derives the default interval from the final limit', () => {
    const { features } = resolveFeatures([
      layer(USER, { rollout_budget: { enabled: true, limit_tokens: 1_000 } }),
      layer(PROFILE, { rollout_budget: { limit_tokens: 50_000 } }),
    ]);
    expect(features.rolloutBudget?.reminder_interval_tokens).toBe(5_000);
  });

  it('stays off for a table without enabled, as in Codex', () => {
    const { features } = resolveFeatures([layer(USER, { rollout_budget: { limit_tokens: 100 } })]);
    expect(features.isEnabled('rollout_budget')).toBe(false);
    expect(features.rolloutBudget).toBeUndefined();
  });

  it('is turned on by --enable while keeping the limit a config file set', () => {
    const { features, warnings } = resolveFeatures([layer(USER, { rollout_budget: { limit_tokens: 100 } }), layer('--enable', { rollout_budget: true })]);
    expect(features.rolloutBudget?.limit_tokens).toBe(100);
    expect(warnings.map((warning) => [warning.code, warning.origin])).toEqual([['UnderDevelopmentEnabled', '--enable']]);
  });

  it('is turned on by a later enabled = true inside a table', () => {
    const { features } = resolveFeatures([
      layer(USER, { rollout_budget: { limit_tokens: 100 } }),
      layer('-c features.rollout_budget.enabled=true', { rollout_budget: { enabled: true } }),
    ]);
    expect(features.rolloutBudget?.limit_tokens).toBe(100);
  });

  it('is turned off by a later enabled = false or false, dropping the config', () => {
    const on = layer(USER, { rollout_budget: { enabled: true, limit_tokens: 100 } });
    expect(resolveFeatures([on, layer(PROFILE, { rollout_budget: { enabled: false } })]).features.rolloutBudget).toBeUndefined();
    expect(resolveFeatures([on, layer('--disable', { rollout_budget: false })]).features.rolloutBudget).toBeUndefined();
  });
});

describe('rollout_budget errors', () => {
  // Wrong TOML types and unknown keys: rejected in every layer, whether or not the feature is on.
  it.each([
    ['enabled', 1, 'expected true or false (got 1)'],
    ['limit_tokens', '100', 'expected an integer (got "100")'],
    ['limit_tokens', 1.5, 'expected an integer (got 1.5)'],
    ['reminder_interval_tokens', 0.5, 'expected an integer (got 0.5)'],
    ['sampling_token_weight', 'heavy', 'expected a finite number (got "heavy")'],
    ['sampling_token_weight', Number.POSITIVE_INFINITY, 'expected a finite number (got Infinity)'],
    ['prefill_token_weight', Number.NaN, 'expected a finite number (got NaN)'],
    ['enforce_limit', 'yes', 'expected true or false (got "yes")'],
    ['limit_budget', true, 'expected a finite number (got true)'],
    ['reminder_at_remaining_tokens', 10, 'expected an array of integers (got 10)'],
    ['reminder_at_context_start', 'system', 'expected true or false (got "system")'],
  ])('rejects %s = %j in any layer', (field, value, reason) => {
    const error = configErrorOf([layer(PROJECT, { rollout_budget: { [field]: value } })]);
    expect(error).toMatchObject({ code: 'InvalidStructuredConfig', key: `features.rollout_budget.${field}`, feature: 'rollout_budget', origin: PROJECT, reason });
    expect(error.message).toBe(`invalid features.rollout_budget.${field} in ${PROJECT}: ${reason}`);
  });

  it('names the array element that is not an integer', () => {
    const error = configErrorOf([layer(USER, { rollout_budget: { reminder_at_remaining_tokens: [10, 'x'] } })]);
    expect(error.key).toBe('features.rollout_budget.reminder_at_remaining_tokens[1]');
    expect(error.reason).toBe('expected an integer (got "x")');
  });

  it('rejects an unknown key, such as a misspelt one', () => {
    const error = configErrorOf([layer(USER, { rollout_budget: { enabled: true, limit_tokens: 100, limit_token: 5 } })]);
    expect(error).toMatchObject({ key: 'features.rollout_budget.limit_token', origin: USER });
    expect(error.reason).toMatch(/^unknown key \(expected one of: enabled, limit_tokens, reminder_interval_tokens, /);
  });

  it('requires limit_tokens once on, blaming the layer that turned it on', () => {
    const error = configErrorOf([layer(USER, { rollout_budget: { sampling_token_weight: 2 } }), layer('--enable', { rollout_budget: true })]);
    expect(error).toMatchObject({
      code: 'InvalidStructuredConfig',
      key: 'features.rollout_budget.limit_tokens',
      origin: '--enable',
      reason: 'is required when rollout_budget is enabled',
    });
    expect(error.message).toBe('invalid features.rollout_budget.limit_tokens in --enable: is required when rollout_budget is enabled');
  });

  // Ranges: checked on the merged table once the feature is on.
  it.each([
    ['limit_tokens', 0, 'must be a positive integer (got 0)'],
    ['limit_tokens', -100, 'must be a positive integer (got -100)'],
    ['reminder_interval_tokens', 0, 'must be a positive integer (got 0)'],
    ['reminder_interval_tokens', 1_001, 'must not exceed limit_tokens (1000) (got 1001)'],
    ['sampling_token_weight', -0.5, 'must be a finite number of zero or more (got -0.5)'],
    ['prefill_token_weight', -1, 'must be a finite number of zero or more (got -1)'],
  ])('rejects %s = %j once the feature is on', (field, value, reason) => {
    const error = configErrorOf([
      layer(USER, { rollout_budget: { enabled: true, limit_tokens: 1_000 } }),
      layer(PROFILE, { rollout_budget: { [field]: value } }),
    ]);
    expect(error).toMatchObject({ code: 'InvalidStructuredConfig', key: `features.rollout_budget.${field}`, origin: PROFILE, reason });
    expect(error.message).toBe(`invalid features.rollout_budget.${field} in ${PROFILE}: ${reason}`);
  });

  it('rejects an interval over a limit that a later layer lowered, blaming the interval\'s layer', () => {
    const error = configErrorOf([
      layer(USER, { rollout_budget: { enabled: true, limit_tokens: 100_000, reminder_interval_tokens: 20_000 } }),
      layer(PROFILE, { rollout_budget: { limit_tokens: 10_000 } }),
    ]);
    expect(error).toMatchObject({ key: 'features.rollout_budget.reminder_interval_tokens', origin: USER });
    expect(error.reason).toBe('must not exceed limit_tokens (10000) (got 20000)');
  });

  it('checks only types while the feature is off, as Codex', () => {
    const { features } = resolveFeatures([layer(USER, { rollout_budget: { limit_tokens: 0, reminder_interval_tokens: 5 } })]);
    expect(features.rolloutBudget).toBeUndefined();
  });
});
