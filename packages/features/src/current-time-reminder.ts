// `[features.current_time_reminder]`: the table as written in config.toml (types only) and the
// resolved CurrentTimeReminderConfig, defaults applied, that Features carries while the feature is on.

import * as z from 'zod';
import { TomlBoolean, TomlInteger } from './internal/toml-value.js';

/** Where the time comes from: the host's clock, or one the embedding host supplies (Codex's values). */
export const CurrentTimeSource = z.enum(['system', 'external'], { error: 'expected "system" or "external"' });
export type CurrentTimeSource = z.infer<typeof CurrentTimeSource>;

/** Which requests may carry a reminder: any, or only those after a user message or a tool output (Codex's values). */
export const CurrentTimeDeliveryMode = z.enum(['any_inference', 'after_user_or_tool_output'], {
  error: 'expected "any_inference" or "after_user_or_tool_output"',
});
export type CurrentTimeDeliveryMode = z.infer<typeof CurrentTimeDeliveryMode>;

/** Default of `reminder_interval_seconds`: a reminder whenever the time read differs from the last one told. */
export const DEFAULT_CURRENT_TIME_REMINDER_INTERVAL_SECONDS = 0;

/**
 * `[features.current_time_reminder]` as written in a config layer: every key optional, types
 * checked, unknown keys rejected. `enabled` turns the feature on or off; a table without it leaves
 * the state as earlier layers set it (as Codex). The keys are Codex 0.171.0's.
 */
export const CurrentTimeReminderTable = z.strictObject({
  enabled: TomlBoolean.optional(),
  reminder_interval_seconds: TomlInteger.optional(),
  clock_source: CurrentTimeSource.optional(),
  delivery_mode: CurrentTimeDeliveryMode.optional(),
});
/** `[features.current_time_reminder]` as written in a config layer; see {@link CurrentTimeReminderTable}. */
export type CurrentTimeReminderTable = z.infer<typeof CurrentTimeReminderTable>;

/**
 * The reminder settings in effect while `current_time_reminder` is on, merged over every layer,
 * defaults applied: `reminder_interval_seconds` (zero or more, default
 * {@link DEFAULT_CURRENT_TIME_REMINDER_INTERVAL_SECONDS}), `clock_source` (default `system`),
 * `delivery_mode` (default `any_inference`).
 */
export const CurrentTimeReminderConfig = z.strictObject({
  reminder_interval_seconds: z
    .number({ error: 'expected an integer' })
    .int({ error: 'expected an integer' })
    .nonnegative({ error: 'must be zero or more' }),
  clock_source: CurrentTimeSource,
  delivery_mode: CurrentTimeDeliveryMode,
});
/** The reminder settings in effect; see {@link CurrentTimeReminderConfig}. */
export type CurrentTimeReminderConfig = z.infer<typeof CurrentTimeReminderConfig>;

/** The defaults a plain `current_time_reminder = true` runs with. */
export const CURRENT_TIME_REMINDER_DEFAULTS: CurrentTimeReminderConfig = Object.freeze({
  reminder_interval_seconds: DEFAULT_CURRENT_TIME_REMINDER_INTERVAL_SECONDS,
  clock_source: 'system',
  delivery_mode: 'any_inference',
});
