// Layering of `[features]` sources and the warnings: order of precedence, toggles, unknown / removed /
// deprecated keys, under-development notices, and the values a plain flag rejects.

import { describe, expect, it } from 'vitest';
import { FeatureConfigError } from './feature-config-error.js';
import { Features } from './features.js';
import { PROFILE, PROJECT, USER, configErrorOf, layer } from '../test/support.js';
import { resolveFeatures } from './resolve-features.js';

describe('resolveFeatures layering', () => {
  it('gives the registry defaults and no warnings for no sources', () => {
    const { features, warnings } = resolveFeatures([]);
    expect(warnings).toEqual([]);
    expect(features.list()).toEqual(Features.defaults().list());
    expect(features.isEnabled('goals')).toBe(true);
    expect(features.isEnabled('multi_agent_v2')).toBe(false);
    expect(features.isEnabled('auto_compaction')).toBe(true);
  });

  it('applies defaults, then each config layer, then the profile, then --enable/--disable, then -c', () => {
    const { features } = resolveFeatures([
      layer(USER, { goals: false, multi_agent_v2: true, auto_compaction: false, shell_snapshot: false }),
      layer(PROJECT, { goals: true, auto_compaction: true }),
      layer(PROFILE, { multi_agent_v2: false, shell_snapshot: true }),
      layer('--enable', { multi_agent_v2: true }),
      layer('--disable', { shell_snapshot: false }),
      layer('-c features.goals=false', { goals: false }),
    ]);
    expect(features.isEnabled('goals')).toBe(false); // -c beats the project layer
    expect(features.isEnabled('auto_compaction')).toBe(true); // project beats user
    expect(features.isEnabled('multi_agent_v2')).toBe(true); // --enable beats the profile
    expect(features.isEnabled('shell_snapshot')).toBe(false); // --disable beats the profile
    expect(features.isEnabled('apps')).toBe(true); // untouched: default
  });

  it('lets the later of two layers win whichever way round they come', () => {
    const on = layer(USER, { memories: true });
    const off = layer(PROFILE, { memories: false });
    expect(resolveFeatures([on, off]).features.isEnabled('memories')).toBe(false);
    expect(resolveFeatures([off, on]).features.isEnabled('memories')).toBe(true);
  });

  it('lists every registered feature with its effective state', () => {
    const { features } = resolveFeatures([layer('--enable', { memories: true })]);
    const memories = features.list().find((status) => status.spec.key === 'memories');
    expect(memories?.enabled).toBe(true);
    expect(features.list().map((status) => status.spec.key)).toEqual(Features.defaults().list().map((status) => status.spec.key));
  });

  it('keeps a key the registry does not know out of the set, with a warning', () => {
    const { features, warnings } = resolveFeatures([layer(USER, { not_a_feature: true })]);
    expect(features.lookup('not_a_feature')).toBeUndefined();
    expect(features.list().map((status): string => status.spec.key)).not.toContain('not_a_feature');
    expect(warnings.map((warning) => warning.code)).toEqual(['UnknownFeature']);
  });

  it('does not keep a reference to the source tables', () => {
    const table: Record<string, unknown> = { memories: true, rollout_budget: { enabled: true, limit_tokens: 100 } };
    const { features } = resolveFeatures([layer(USER, table)]);
    table['memories'] = false;
    (table['rollout_budget'] as Record<string, unknown>)['limit_tokens'] = 5;
    expect(features.isEnabled('memories')).toBe(true);
    expect(features.rolloutBudget?.limit_tokens).toBe(100);
  });
});

describe('resolveFeatures warnings', () => {
  it('warns about an unknown key, suggests the nearest one, and still loads', () => {
    const { features, warnings } = resolveFeatures([layer(USER, { gaols: false, not_a_feature: true })]);
    expect(features.isEnabled('goals')).toBe(true);
    expect(warnings).toEqual([
      {
        code: 'UnknownFeature',
        key: 'gaols',
        origin: USER,
        message: `unknown feature features.gaols in ${USER} is ignored (did you mean features.goals?)`,
      },
      {
        code: 'UnknownFeature',
        key: 'not_a_feature',
        origin: USER,
        message: `unknown feature features.not_a_feature in ${USER} is ignored`,
      },
    ]);
  });

  it('warns about an unknown key whatever its value, without validating it', () => {
    const { warnings } = resolveFeatures([layer(USER, { future_feature: { mode: 'fast' } })]);
    expect(warnings.map((warning) => warning.code)).toEqual(['UnknownFeature']);
  });

  it('warns about a removed key and changes nothing: item_ids stays on, tool_search stays off', () => {
    const { features, warnings } = resolveFeatures([
      layer(USER, { item_ids: false }),
      layer('--enable', { tool_search: true, multi_agent_mode: true }),
    ]);
    expect(features.isEnabled('item_ids')).toBe(true);
    expect(features.isEnabled('tool_search')).toBe(false);
    expect(features.isEnabled('multi_agent_mode')).toBe(false);
    expect(warnings).toEqual([
      {
        code: 'RemovedFeature',
        key: 'item_ids',
        origin: USER,
        message: `features.item_ids in ${USER} has no effect: the feature was removed and stays on`,
      },
      {
        code: 'RemovedFeature',
        key: 'tool_search',
        origin: '--enable',
        message: 'features.tool_search in --enable has no effect: the feature was removed and stays off',
      },
      {
        code: 'RemovedFeature',
        key: 'multi_agent_mode',
        origin: '--enable',
        message: 'features.multi_agent_mode in --enable has no effect: the feature was removed and stays off',
      },
    ]);
  });

  it('loads a removed key whatever its value, since nothing reads it', () => {
    const { warnings } = resolveFeatures([layer(USER, { tool_search: 'yes', apps_mcp_path_override: { path: '/x' } })]);
    expect(warnings.map((warning) => [warning.code, warning.key])).toEqual([
      ['RemovedFeature', 'tool_search'],
      ['RemovedFeature', 'apps_mcp_path_override'],
    ]);
  });

  it('quotes a removed key with a dot in it, as TOML would need', () => {
    const { warnings } = resolveFeatures([layer(USER, { 'guardianv2.thread_context': true })]);
    expect(warnings[0]?.message).toContain('features."guardianv2.thread_context"');
  });

  it('warns about a deprecated key and applies it', () => {
    const { features, warnings } = resolveFeatures([layer(PROFILE, { multi_agent: false })]);
    expect(features.isEnabled('multi_agent')).toBe(false);
    expect(warnings).toEqual([
      {
        code: 'DeprecatedFeature',
        key: 'multi_agent',
        origin: PROFILE,
        message: `features.multi_agent in ${PROFILE} is deprecated and may be removed in a later release`,
      },
    ]);
  });

  it('warns once per source that sets a deprecated or removed key', () => {
    const { warnings } = resolveFeatures([layer(USER, { web_search_request: true }), layer(PROJECT, { web_search_request: true })]);
    expect(warnings.map((warning) => warning.origin)).toEqual([USER, PROJECT]);
  });

  it('warns when an under-development feature is turned on, naming the origin', () => {
    const { features, warnings } = resolveFeatures([layer('--enable', { deferred_executor: true })]);
    expect(features.isEnabled('deferred_executor')).toBe(true);
    expect(warnings).toEqual([
      {
        code: 'UnderDevelopmentEnabled',
        key: 'deferred_executor',
        origin: '--enable',
        message: 'features.deferred_executor is under development and was turned on by --enable; it may change or break',
      },
    ]);
  });

  it('warns once per under-development feature, naming the last layer that turned it on', () => {
    const { warnings } = resolveFeatures([
      layer(USER, { code_mode: true }),
      layer(PROFILE, { code_mode: false }),
      layer('-c features.code_mode=true', { code_mode: true }),
    ]);
    expect(warnings.map((warning) => [warning.code, warning.key, warning.origin])).toEqual([
      ['UnderDevelopmentEnabled', 'code_mode', '-c features.code_mode=true'],
    ]);
  });

  it('does not warn when a later layer turns the under-development feature off again', () => {
    const { warnings } = resolveFeatures([layer(USER, { current_time_reminder: true }), layer('--disable', { current_time_reminder: false })]);
    expect(warnings).toEqual([]);
  });

  it('does not warn for an under-development feature that is on by default but not set', () => {
    const { features, warnings } = resolveFeatures([]);
    expect(features.isEnabled('instant_interrupt')).toBe(true);
    expect(warnings).toEqual([]);
  });

  it('warns when a layer explicitly turns on an under-development feature that is on by default', () => {
    const { warnings } = resolveFeatures([layer(USER, { instant_interrupt: true })]);
    expect(warnings.map((warning) => warning.key)).toEqual(['instant_interrupt']);
  });

  it('does not warn for experimental (beta) or stable features', () => {
    expect(resolveFeatures([layer(USER, { network_proxy: true, multi_agent_v2: true })]).warnings).toEqual([]);
  });

  it('warns when a table turns an under-development feature on, naming that table\'s origin', () => {
    const { warnings } = resolveFeatures([layer(USER, { token_budget: { enabled: true } })]);
    expect(warnings.map((warning) => [warning.code, warning.key, warning.origin])).toEqual([['UnderDevelopmentEnabled', 'token_budget', USER]]);
  });
});

describe('resolveFeatures plain flags', () => {
  it.each([
    ['a string', 'yes', 'expected true or false (got "yes")'],
    ['a number', 1, 'expected true or false (got 1)'],
    ['a table', { enabled: true }, 'expected true or false (got a table)'],
    ['an array', [true], 'expected true or false (got an array)'],
    ['a date', new Date(0), 'expected true or false (got a date)'],
  ])('rejects %s for a plain feature, naming the key and origin', (_name, value, reason) => {
    const error = configErrorOf([layer(USER, { goals: value })]);
    expect(error).toBeInstanceOf(FeatureConfigError);
    expect(error).toMatchObject({ code: 'InvalidValue', key: 'features.goals', feature: 'goals', origin: USER, reason });
    expect(error.message).toBe(`invalid features.goals in ${USER}: ${reason}`);
  });

  it('rejects a non-boolean for a deprecated feature too', () => {
    expect(configErrorOf([layer(USER, { multi_agent: 'on' })]).key).toBe('features.multi_agent');
  });

  it('rejects a [features] value that is not a table', () => {
    const error = configErrorOf([{ origin: '-c features=1', table: 1 as unknown as Record<string, unknown> }]);
    expect(error).toMatchObject({ code: 'InvalidValue', key: 'features', origin: '-c features=1' });
    expect(error.message).toBe('invalid features in -c features=1: expected a table (got 1)');
  });

  it('accepts a table for a feature Codex configures with one, using only its enabled key', () => {
    const { features } = resolveFeatures([
      layer(USER, { multi_agent_v2: { enabled: true, max_concurrent_threads_per_session: 4 } }),
      layer(PROFILE, { code_mode: { excluded_tool_namespaces: ['x'] } }),
    ]);
    expect(features.isEnabled('multi_agent_v2')).toBe(true);
    expect(features.isEnabled('code_mode')).toBe(false);
  });

  it('rejects such a table when its enabled key is not a boolean', () => {
    const error = configErrorOf([layer(USER, { current_time_reminder: { enabled: 'yes' } })]);
    expect(error).toMatchObject({
      code: 'InvalidStructuredConfig',
      key: 'features.current_time_reminder.enabled',
      origin: USER,
      reason: 'expected true or false (got "yes")',
    });
  });

  it('rejects a value that is neither a boolean nor a table for a feature that takes a table', () => {
    expect(configErrorOf([layer(USER, { network_proxy: 'on' })])).toMatchObject({
      code: 'InvalidValue',
      key: 'features.network_proxy',
      reason: 'expected true, false or a table (got "on")',
    });
  });
});
