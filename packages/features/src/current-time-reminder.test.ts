// `[features.current_time_reminder]`: a plain true or a table turns it on with Codex's keys, defaults
// fill what is not set, and each bad value fails with its dotted key.

import { describe, expect, it } from 'vitest';
import { PROFILE, USER, configErrorOf, layer } from '../test/support.js';
import { resolveFeatures } from './resolve-features.js';

describe('current_time_reminder tables', () => {
  it('is off with no settings by default', () => {
    const { features } = resolveFeatures([]);
    expect(features.isEnabled('current_time_reminder')).toBe(false);
    expect(features.currentTimeReminder).toBeUndefined();
  });

  it('turns on with a plain true and runs with the defaults', () => {
    const { features } = resolveFeatures([layer('--enable', { current_time_reminder: true })]);
    expect(features.currentTimeReminder).toEqual({ reminder_interval_seconds: 0, clock_source: 'system', delivery_mode: 'any_inference' });
  });

  it('merges a table over the defaults and across layers', () => {
    const { features } = resolveFeatures([
      layer(USER, { current_time_reminder: { reminder_interval_seconds: 120, delivery_mode: 'after_user_or_tool_output' } }),
      layer(PROFILE, { current_time_reminder: { enabled: true, reminder_interval_seconds: 300 } }),
    ]);
    expect(features.isEnabled('current_time_reminder')).toBe(true);
    expect(features.currentTimeReminder).toEqual({ reminder_interval_seconds: 300, clock_source: 'system', delivery_mode: 'after_user_or_tool_output' });
  });

  it.each([
    [{ reminder_interval_seconds: -1 }, 'features.current_time_reminder.reminder_interval_seconds', 'must be zero or more (got -1)'],
    [{ reminder_interval_seconds: 1.5 }, 'features.current_time_reminder.reminder_interval_seconds', 'expected an integer'],
    [{ delivery_mode: 'bogus' }, 'features.current_time_reminder.delivery_mode', 'expected "any_inference" or "after_user_or_tool_output"'],
    [{ clock_source: 'sundial' }, 'features.current_time_reminder.clock_source', 'expected "system" or "external"'],
    [{ every: 5 }, 'features.current_time_reminder.every', 'unknown key'],
  ])('rejects %j with its dotted key', (table, key, reason) => {
    const error = configErrorOf([layer(USER, { current_time_reminder: { enabled: true, ...table } })]);
    expect(error.key).toBe(key);
    expect(error.origin).toBe(USER);
    expect(error.reason).toContain(reason);
  });
});
