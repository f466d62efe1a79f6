// `[features.token_budget]`: how a table turns the feature on, merging across layers, and every way a
// value is rejected (type errors in any layer, range errors once the feature is on).

import { describe, expect, it } from 'vitest';
import { PROFILE, PROJECT, USER, configErrorOf, layer } from '../test/support.js';
import { resolveFeatures } from './resolve-features.js';
import { TOKEN_BUDGET_TEXT_MAX_BYTES } from './token-budget.js';

const TEMPLATE = 'Only {n_remaining} tokens left in this window.';

describe('token_budget tables', () => {
  it('is off with no token budget by default', () => {
    const { features } = resolveFeatures([]);
    expect(features.isEnabled('token_budget')).toBe(false);
    expect(features.tokenBudget).toBeUndefined();
  });

  it('turns on with enabled = true and carries the configured values', () => {
    const { features } = resolveFeatures([
      layer(USER, { token_budget: { enabled: true, reminder_threshold_tokens: 6144, reminder_message_template: TEMPLATE } }),
    ]);
    expect(features.isEnabled('token_budget')).toBe(true);
    expect(features.tokenBudget).toEqual({ reminder_threshold_tokens: 6144, reminder_message_template: TEMPLATE });
  });

  it('turns on with a plain true and has an empty config (the model\'s defaults apply)', () => {
    expect(resolveFeatures([layer('--enable', { token_budget: true })]).features.tokenBudget).toEqual({});
  });

  it('stays off for a table without enabled, as in Codex', () => {
    const { features, warnings } = resolveFeatures([layer(USER, { token_budget: { reminder_threshold_tokens: 6144 } })]);
    expect(features.isEnabled('token_budget')).toBe(false);
    expect(features.tokenBudget).toBeUndefined();
    expect(warnings).toEqual([]);
  });

  it('merges tables key by key across layers, later layers winning', () => {
    const { features } = resolveFeatures([
      layer(USER, { token_budget: { reminder_threshold_tokens: 1000, reminder_message_template: TEMPLATE } }),
      layer(PROJECT, { token_budget: { reminder_threshold_tokens: 2000 } }),
      layer(PROFILE, { token_budget: { enabled: true } }),
    ]);
    expect(features.tokenBudget).toEqual({ reminder_threshold_tokens: 2000, reminder_message_template: TEMPLATE });
  });

  it('keeps the table keys when a later layer toggles with a plain boolean', () => {
    const sources = [layer(USER, { token_budget: { enabled: false, reminder_threshold_tokens: 500 } }), layer('--enable', { token_budget: true })];
    expect(resolveFeatures(sources).features.tokenBudget).toEqual({ reminder_threshold_tokens: 500 });
  });

  it('is turned off by a later false', () => {
    const { features } = resolveFeatures([layer(USER, { token_budget: { enabled: true } }), layer('--disable', { token_budget: false })]);
    expect(features.isEnabled('token_budget')).toBe(false);
    expect(features.tokenBudget).toBeUndefined();
  });

  it('accepts the keys Codex 0.171.0 knows besides the issue\'s', () => {
    const table = {
      enabled: true,
      use_history_notes_extension: false,
      context_window_as_tool_output: true,
      guidance_message: 'Write notes before the window fills.',
      auto_compact_fallback_prompt: 'Wrap up.',
      auto_compact_fallback_buffer_tokens: 16384,
    };
    const { enabled: _enabled, ...config } = table;
    expect(resolveFeatures([layer(USER, { token_budget: table })]).features.tokenBudget).toEqual(config);
  });

  it('accepts a template of exactly the byte limit', () => {
    const template = `{n_remaining}${'x'.repeat(TOKEN_BUDGET_TEXT_MAX_BYTES - 13)}`;
    const { features } = resolveFeatures([layer(USER, { token_budget: { enabled: true, reminder_message_template: template } })]);
    expect(features.tokenBudget?.reminder_message_template).toBe(template);
  });

  it('checks only types while the feature is off, as Codex', () => {
    const { features } = resolveFeatures([layer(USER, { token_budget: { reminder_threshold_tokens: 0, reminder_message_template: '' } })]);
    expect(features.tokenBudget).toBeUndefined();
  });
});

describe('token_budget errors', () => {
  // Wrong TOML types and unknown keys: rejected in every layer, whether or not the feature is on.
  it.each([
    ['enabled', 'yes', 'expected true or false (got "yes")'],
    ['reminder_threshold_tokens', '6144', 'expected an integer (got "6144")'],
    ['reminder_threshold_tokens', 1.5, 'expected an integer (got 1.5)'],
    ['reminder_message_template', 42, 'expected a string (got 42)'],
    ['use_history_notes_extension', 1, 'expected true or false (got 1)'],
    ['context_window_as_tool_output', 'no', 'expected true or false (got "no")'],
    ['guidance_message', false, 'expected a string (got false)'],
    ['auto_compact_fallback_prompt', ['a'], 'expected a string (got an array)'],
    ['auto_compact_fallback_buffer_tokens', 2.5, 'expected an integer (got 2.5)'],
  ])('rejects %s = %j in any layer', (field, value, reason) => {
    const error = configErrorOf([layer(PROJECT, { token_budget: { [field]: value } })]);
    expect(error).toMatchObject({ code: 'InvalidStructuredConfig', key: `features.token_budget.${field}`, feature: 'token_budget', origin: PROJECT, reason });
    expect(error.message).toBe(`invalid features.token_budget.${field} in ${PROJECT}: ${reason}`);
  });

  it('rejects an unknown key, naming it and the accepted ones', () => {
    const error = configErrorOf([layer(USER, { token_budget: { enabled: true, reminder_threshold: 10 } })]);
    expect(error.key).toBe('features.token_budget.reminder_threshold');
    expect(error.origin).toBe(USER);
    expect(error.reason).toMatch(/^unknown key \(expected one of: enabled, reminder_threshold_tokens, reminder_message_template, /);
  });

  // Ranges: checked on the merged table once the feature is on.
  it.each([
    ['reminder_threshold_tokens', 0, 'must be a positive integer (got 0)'],
    ['reminder_threshold_tokens', -5, 'must be a positive integer (got -5)'],
    ['reminder_message_template', '', 'must not be empty (got "")'],
    ['reminder_message_template', '   ', 'must not be empty (got "   ")'],
    ['reminder_message_template', 'Few tokens left.', 'must contain the {n_remaining} placeholder (got "Few tokens left.")'],
    ['reminder_message_template', `{n_remaining}${'x'.repeat(TOKEN_BUDGET_TEXT_MAX_BYTES)}`, `must be at most ${TOKEN_BUDGET_TEXT_MAX_BYTES} bytes of UTF-8`],
    // 1013 characters but 2013 bytes: the bound is in bytes, as Codex's.
    ['reminder_message_template', `{n_remaining}${'é'.repeat(1000)}`, `must be at most ${TOKEN_BUDGET_TEXT_MAX_BYTES} bytes of UTF-8`],
    ['guidance_message', 'g'.repeat(TOKEN_BUDGET_TEXT_MAX_BYTES + 1), `must be at most ${TOKEN_BUDGET_TEXT_MAX_BYTES} bytes of UTF-8`],
    ['auto_compact_fallback_prompt', 'p'.repeat(TOKEN_BUDGET_TEXT_MAX_BYTES + 1), `must be at most ${TOKEN_BUDGET_TEXT_MAX_BYTES} bytes of UTF-8`],
    ['auto_compact_fallback_buffer_tokens', 0, 'must be a positive integer (got 0)'],
  ])('rejects %s = %j once the feature is on', (field, value, reason) => {
    const error = configErrorOf([layer(USER, { token_budget: { [field]: value } }), layer('--enable', { token_budget: true })]);
    expect(error).toMatchObject({ code: 'InvalidStructuredConfig', key: `features.token_budget.${field}`, origin: USER });
    expect(error.reason.startsWith(reason)).toBe(true);
    expect(error.message).toContain(`features.token_budget.${field} in ${USER}: `);
  });

  it('requires a buffer when a fallback prompt is set, blaming the layer that turned the feature on', () => {
    const error = configErrorOf([layer(USER, { token_budget: { auto_compact_fallback_prompt: 'Wrap up.' } }), layer(PROFILE, { token_budget: true })]);
    expect(error).toMatchObject({
      key: 'features.token_budget.auto_compact_fallback_buffer_tokens',
      origin: PROFILE,
      reason: 'is required when auto_compact_fallback_prompt is set',
    });
  });

  it('names the layer that supplied the bad value, not the last layer', () => {
    const error = configErrorOf([
      layer(USER, { token_budget: { reminder_threshold_tokens: 0 } }),
      layer(PROJECT, { token_budget: { reminder_message_template: TEMPLATE } }),
      layer(PROFILE, { token_budget: { enabled: true } }),
    ]);
    expect(error.origin).toBe(USER);
  });

  it('lets a later layer repair an earlier bad value', () => {
    const { features } = resolveFeatures([
      layer(USER, { token_budget: { enabled: true, reminder_threshold_tokens: 0 } }),
      layer('-c features.token_budget.reminder_threshold_tokens=100', { token_budget: { reminder_threshold_tokens: 100 } }),
    ]);
    expect(features.tokenBudget?.reminder_threshold_tokens).toBe(100);
  });
});
