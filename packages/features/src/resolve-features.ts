// Layering: turns the `[features]` tables of every config layer, lowest precedence first, into one
// Features value plus the warnings a user should see. Nothing half-applies: it returns or throws.

import type { z } from 'zod';
import { FeatureConfigError } from './feature-config-error.js';
import { FEATURE_REGISTRY, featureSpec } from './feature-registry.js';
import type { FeatureSpec } from './feature-registry.js';
import type { FeatureWarning } from './feature-warning.js';
import { Features } from './features.js';
import { closestKey } from './internal/closest-key.js';
import { describeValue, dottedKey, isTable } from './internal/config-path.js';
import { deepFreeze } from './internal/deep-freeze.js';
import { isStructuredFeature, tableSchemaOf } from './internal/feature-tables.js';
import type { StructuredFeatureKey } from './internal/feature-tables.js';
import { FEATURES_KEY } from './internal/features-key.js';
import { CURRENT_TIME_REMINDER_DEFAULTS, CurrentTimeReminderConfig } from './current-time-reminder.js';
import { RolloutBudgetConfig, defaultReminderIntervalTokens, DEFAULT_ROLLOUT_TOKEN_WEIGHT } from './rollout-budget.js';
import { TokenBudgetConfig } from './token-budget.js';

/**
 * One layer's contribution, lowest precedence first. `origin` names where it came from for messages,
 * e.g. "/home/u/.codex/config.toml", "profile \"work\"", "--enable", "-c features.x=…".
 */
export interface FeatureSource {
  readonly origin: string;
  /** A raw `[features]` table as parsed from TOML (values: boolean, or a table for structured features). */
  readonly table: Readonly<Record<string, unknown>>;
}

/** What resolveFeatures returns: the effective set and the notices for the user, in source order. */
export interface FeatureResolution {
  readonly features: Features;
  readonly warnings: FeatureWarning[];
}

/** A value and the layer it came from. */
interface Setting<T> {
  readonly value: T;
  readonly origin: string;
}

/**
 * Resolves feature sources, lowest precedence first: defaults → each config layer's `[features]` →
 * profile → `--enable x` / `--disable x` (pass `{ origin: '--enable', table: { x: true } }`) → `-c`.
 *
 * - A boolean sets a feature on or off; for a structured feature it toggles only, keeping
 *   the table keys earlier layers set.
 * - A table (for features that take one) merges key by key over earlier layers; its `enabled` key,
 *   if present, sets the state; without it the state stays as before (Codex does the same).
 * - Unknown, removed and deprecated keys give warnings; removed keys change nothing.
 * - Turning on an under-development feature gives one warning naming the origin that turned it on.
 *
 * @throws FeatureConfigError for a non-boolean plain flag, a table key of the wrong type or unknown
 *   (in any layer), and — once a structured feature ends up on — a value out of range or missing.
 */
export function resolveFeatures(sources: readonly FeatureSource[]): FeatureResolution {
  const toggles = new Map<string, Setting<boolean>>();
  const fields: Record<StructuredFeatureKey, Map<string, Setting<unknown>>> = {
    token_budget: new Map(),
    rollout_budget: new Map(),
    current_time_reminder: new Map(),
  };
  const warnings: FeatureWarning[] = [];

  for (const { origin, table } of sources) {
    if (!isTable(table)) {
      throw new FeatureConfigError('InvalidValue', {
        key: 'features',
        feature: '',
        origin,
        reason: `expected a table (got ${describeValue(table)})`,
      });
    }
    for (const [key, value] of Object.entries(table)) {
      const spec = featureSpec(key);
      if (spec === undefined) {
        warnings.push(unknownFeature(key, origin));
        continue;
      }
      if (spec.stage === 'removed') {
        warnings.push(removedFeature(spec, origin));
        continue;
      }
      if (spec.stage === 'deprecated') warnings.push(deprecatedFeature(spec, origin));

      if (typeof value === 'boolean') {
        toggles.set(key, { value, origin });
        continue;
      }
      const schema = tableSchemaOf(key);
      if (schema === undefined || !isTable(value)) {
        throw new FeatureConfigError('InvalidValue', {
          key: dottedKey(['features', key]),
          feature: key,
          origin,
          reason: `${schema === undefined ? 'expected true or false' : 'expected true, false or a table'} (got ${describeValue(value)})`,
        });
      }
      const shape = schema.safeParse(value);
      if (!shape.success) throw errorFromIssues(shape.error.issues, key, value, () => origin, Object.keys(schema.shape));
      const enabled = value['enabled'];
      if (typeof enabled === 'boolean') toggles.set(key, { value: enabled, origin });
      if (isStructuredFeature(key)) {
        for (const [field, fieldValue] of Object.entries(value)) {
          if (field !== 'enabled') fields[key].set(field, { value: fieldValue, origin });
        }
      }
    }
  }

  const tokenBudget = toggles.get('token_budget')?.value === true
    ? resolveStructured('token_budget', TokenBudgetConfig, fields.token_budget, toggles, {})
    : undefined;
  const rolloutBudget = toggles.get('rollout_budget')?.value === true
    ? resolveStructured('rollout_budget', RolloutBudgetConfig, fields.rollout_budget, toggles, rolloutDefaults(fields.rollout_budget))
    : undefined;
  const currentTimeReminder = toggles.get('current_time_reminder')?.value === true
    ? resolveStructured('current_time_reminder', CurrentTimeReminderConfig, fields.current_time_reminder, toggles, CURRENT_TIME_REMINDER_DEFAULTS)
    : undefined;

  for (const spec of FEATURE_REGISTRY) {
    const toggle = toggles.get(spec.key);
    if (spec.stage === 'underDevelopment' && toggle?.value === true) warnings.push(underDevelopmentEnabled(spec, toggle.origin));
  }

  const state = {
    toggles: new Map([...toggles].map(([key, setting]) => [key, setting.value])),
    tokenBudget,
    rolloutBudget,
    currentTimeReminder,
  };
  return { features: new Features(FEATURES_KEY, state), warnings };
}

/** The rollout_budget defaults that depend on nothing or on limit_tokens. */
function rolloutDefaults(given: ReadonlyMap<string, Setting<unknown>>): Record<string, unknown> {
  const limit = given.get('limit_tokens')?.value ?? given.get('limit_budget')?.value;
  return {
    sampling_token_weight: DEFAULT_ROLLOUT_TOKEN_WEIGHT,
    prefill_token_weight: DEFAULT_ROLLOUT_TOKEN_WEIGHT,
    // With no usable limit there is no default; the limit's own error is the one to report.
    ...(typeof limit === 'number' && Number.isFinite(limit) && limit > 0
      ? { reminder_interval_tokens: defaultReminderIntervalTokens(limit) }
      : {}),
  };
}

/** Merges a structured feature's fields over its defaults and range-checks them with `schema`. */
function resolveStructured<T>(
  feature: StructuredFeatureKey,
  schema: z.ZodType<T>,
  given: ReadonlyMap<string, Setting<unknown>>,
  toggles: ReadonlyMap<string, Setting<boolean>>,
  defaults: Readonly<Record<string, unknown>>,
): T {
  const values: Record<string, unknown> = { ...defaults };
  for (const [field, setting] of given) values[field] = setting.value;
  const result = schema.safeParse(values);
  if (result.success) return deepFreeze(result.data);
  // A value that is missing was due from whoever turned the feature on.
  const enabledBy = toggles.get(feature)?.origin ?? 'defaults';
  throw errorFromIssues(result.error.issues, feature, values, (field) => given.get(field)?.origin ?? enabledBy, []);
}

/** A FeatureConfigError for the first zod issue, keyed `features.<feature>.<path>`. */
function errorFromIssues(
  issues: readonly z.core.$ZodIssue[],
  feature: string,
  values: Readonly<Record<string, unknown>>,
  originOf: (field: string) => string,
  knownKeys: readonly string[],
): FeatureConfigError {
  const issue = issues[0];
  if (issue === undefined) throw new Error('zod reported a failure without issues');
  let path: readonly PropertyKey[] = issue.path;
  let reason: string;
  if (issue.code === 'unrecognized_keys') {
    // Typo protection: name the first stray key and what would have been accepted.
    path = [...issue.path, issue.keys[0] ?? ''];
    reason = `unknown key (expected one of: ${knownKeys.join(', ')})`;
  } else {
    const value = valueAt(values, path);
    reason = value === undefined ? issue.message : `${issue.message} (got ${describeValue(value)})`;
  }
  return new FeatureConfigError('InvalidStructuredConfig', {
    key: dottedKey(['features', feature, ...path]),
    feature,
    origin: originOf(String(path[0] ?? '')),
    reason,
  });
}

/** The value at a zod issue path, or undefined if the path leads nowhere. */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const segment of path) {
    if (typeof current !== 'object' || current === null || typeof segment === 'symbol') return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

function unknownFeature(key: string, origin: string): FeatureWarning {
  const suggestion = closestKey(key, FEATURE_REGISTRY.map((spec) => spec.key));
  const hint = suggestion === undefined ? '' : ` (did you mean ${dottedKey(['features', suggestion])}?)`;
  return {
    code: 'UnknownFeature',
    key,
    origin,
    message: `unknown feature ${dottedKey(['features', key])} in ${origin} is ignored${hint}`,
  };
}

function removedFeature(spec: FeatureSpec, origin: string): FeatureWarning {
  return {
    code: 'RemovedFeature',
    key: spec.key,
    origin,
    message: `${dottedKey(['features', spec.key])} in ${origin} has no effect: the feature was removed and stays ${onOff(spec.defaultEnabled)}`,
  };
}

function deprecatedFeature(spec: FeatureSpec, origin: string): FeatureWarning {
  return {
    code: 'DeprecatedFeature',
    key: spec.key,
    origin,
    message: `${dottedKey(['features', spec.key])} in ${origin} is deprecated and may be removed in a later release`,
  };
}

function underDevelopmentEnabled(spec: FeatureSpec, origin: string): FeatureWarning {
  return {
    code: 'UnderDevelopmentEnabled',
    key: spec.key,
    origin,
    message: `${dottedKey(['features', spec.key])} is under development and was turned on by ${origin}; it may change or break`,
  };
}

function onOff(enabled: boolean): string {
  return enabled ? 'on' : 'off';
}
