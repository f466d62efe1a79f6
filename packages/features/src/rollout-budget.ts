// `[features.rollout_budget]`: the table as written in config.toml (types only), the resolved
// RolloutBudgetConfig with its defaults applied, and the rule for the default reminder interval.

import * as z from 'zod';
import {
  NonNegativeNumber,
  TomlBoolean,
  TomlInteger,
  TomlNumber,
  positiveInteger,
} from './internal/toml-value.js';

/** Default of `sampling_token_weight` and `prefill_token_weight`. */
export const DEFAULT_ROLLOUT_TOKEN_WEIGHT = 1.0;

/**
 * `[features.rollout_budget]` as written in a config layer: every key optional, types checked,
 * unknown keys rejected. `enabled` turns the feature on or off; a table without it leaves the state
 * as the earlier layers set it (as Codex). `limit_budget`, `enforce_limit`,
 * `reminder_at_remaining_tokens` and `reminder_at_context_start` are Codex 0.171.0's keys.
 */
export const RolloutBudgetTable = z.strictObject({
  enabled: TomlBoolean.optional(),
  limit_tokens: TomlInteger.optional(),
  reminder_interval_tokens: TomlInteger.optional(),
  sampling_token_weight: TomlNumber.optional(),
  prefill_token_weight: TomlNumber.optional(),
  enforce_limit: TomlBoolean.optional(),
  limit_budget: TomlNumber.optional(),
  reminder_at_remaining_tokens: z.array(TomlInteger, { error: 'expected an array of integers' }).optional(),
  reminder_at_context_start: TomlBoolean.optional(),
});
/** `[features.rollout_budget]` as written in a config layer; see {@link RolloutBudgetTable}. */
export type RolloutBudgetTable = z.infer<typeof RolloutBudgetTable>;

/**
 * The rollout budget in effect while `rollout_budget` is on, merged over every layer, defaults
 * applied and range-checked:
 * - the limit is `limit_tokens` (a positive integer) or, as Codex allows, `limit_budget` (a positive
 *   number, fractions allowed); exactly one of them is required;
 * - `reminder_interval_tokens` defaults to {@link defaultReminderIntervalTokens} and may not exceed the limit;
 * - both weights default to 1.0 and must be finite and non-negative;
 * - `enforce_limit` (default true): false keeps the reminders but never stops a turn;
 * - `reminder_at_context_start` (default true): false skips the reminder that opens each context window.
 */
export const RolloutBudgetConfig = z
  .strictObject({
    limit_tokens: positiveInteger().optional(),
    limit_budget: z.number({ error: 'expected a finite number' }).positive({ error: 'must be a positive number' }).optional(),
    // Defaulted from the limit; absent only when the limit is, whose error is the one reported.
    reminder_interval_tokens: positiveInteger().optional(),
    sampling_token_weight: NonNegativeNumber,
    prefill_token_weight: NonNegativeNumber,
    enforce_limit: z.boolean().optional(),
    reminder_at_remaining_tokens: z.array(z.number().int()).readonly().optional(),
    reminder_at_context_start: z.boolean().optional(),
  })
  .superRefine((config, context) => {
    if (config.limit_tokens !== undefined && config.limit_budget !== undefined) {
      context.addIssue({ code: 'custom', path: ['limit_budget'], message: 'cannot be set together with limit_tokens' });
      return;
    }
    const limit = config.limit_tokens ?? config.limit_budget;
    if (limit === undefined) {
      context.addIssue({ code: 'custom', path: ['limit_tokens'], message: 'is required when rollout_budget is enabled' });
      return;
    }
    // A limit under one token still allows the smallest interval (its default).
    if (config.reminder_interval_tokens !== undefined && config.reminder_interval_tokens > Math.max(1, limit)) {
      context.addIssue({
        code: 'custom',
        path: ['reminder_interval_tokens'],
        message: `must not exceed ${config.limit_tokens === undefined ? 'limit_budget' : 'limit_tokens'} (${limit})`,
      });
    }
  })
  .transform(({ reminder_interval_tokens, ...config }) => ({ ...config, reminder_interval_tokens: reminder_interval_tokens ?? 1 }));
/** The rollout budget in effect; see {@link RolloutBudgetConfig}. */
export type RolloutBudgetConfig = z.output<typeof RolloutBudgetConfig>;

/** The session's limit, in weighted tokens: `limit_tokens` or `limit_budget`, whichever is set. */
export function rolloutBudgetLimit(config: RolloutBudgetConfig): number {
  return config.limit_tokens ?? config.limit_budget ?? 0;
}

/**
 * The reminder interval when none is configured: 10% of the limit, rounded to the nearest token,
 * at least 1 (so it never exceeds a positive limit).
 *
 * @example defaultReminderIntervalTokens(100_000) // 10_000
 * @example defaultReminderIntervalTokens(4) // 1
 */
export function defaultReminderIntervalTokens(limitTokens: number): number {
  return Math.max(1, Math.round(limitTokens / 10));
}
