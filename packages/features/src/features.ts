// Features: the immutable set of effective feature states built from config layers, with the
// structured configs (token_budget, rollout_budget, current_time_reminder) of the features that are on.

import { FEATURE_REGISTRY, isFeatureKey } from './feature-registry.js';
import type { FeatureKey, FeatureSpec } from './feature-registry.js';
import { FEATURES_KEY } from './internal/features-key.js';
import type { FeaturesState } from './internal/features-key.js';
import type { CurrentTimeReminderConfig } from './current-time-reminder.js';
import type { RolloutBudgetConfig } from './rollout-budget.js';
import type { TokenBudgetConfig } from './token-budget.js';

/** A registered feature with its effective state, as `skein features list` shows it. */
export interface FeatureStatus {
  readonly spec: FeatureSpec<FeatureKey>;
  readonly enabled: boolean;
}

let defaults: Features | undefined;

/**
 * The effective feature set. Immutable (frozen, configs frozen deep); build one with
 * `resolveFeatures(sources)` or `Features.defaults()`.
 *
 * @example
 * const { features } = resolveFeatures([{ origin: '--enable', table: { multi_agent_v2: true } }]);
 * features.isEnabled('multi_agent_v2'); // true
 * features.isEnabled('item_ids'); // true, always: removed features keep their default
 */
export class Features {
  /** The token budget while `token_budget` is on, else undefined. */
  readonly tokenBudget: TokenBudgetConfig | undefined;
  /** The rollout budget (defaults applied) while `rollout_budget` is on, else undefined. */
  readonly rolloutBudget: RolloutBudgetConfig | undefined;
  /** The reminder settings (defaults applied) while `current_time_reminder` is on, else undefined. */
  readonly currentTimeReminder: CurrentTimeReminderConfig | undefined;
  readonly #enabled: ReadonlyMap<FeatureKey, boolean>;
  readonly #list: readonly FeatureStatus[];

  /** Internal: use `resolveFeatures` or `Features.defaults()`; the key is not exported. */
  constructor(key: typeof FEATURES_KEY, state: FeaturesState) {
    if (key !== FEATURES_KEY) throw new TypeError('Features are built by resolveFeatures() or Features.defaults()');
    this.tokenBudget = state.tokenBudget;
    this.rolloutBudget = state.rolloutBudget;
    this.currentTimeReminder = state.currentTimeReminder;
    // Removed features ignore every setting: they report their default (item_ids stays on).
    const effective = (spec: FeatureSpec<FeatureKey>): boolean =>
      spec.stage === 'removed' ? spec.defaultEnabled : (state.toggles.get(spec.key) ?? spec.defaultEnabled);
    this.#list = Object.freeze(FEATURE_REGISTRY.map((spec) => Object.freeze({ spec, enabled: effective(spec) })));
    this.#enabled = new Map(this.#list.map((status) => [status.spec.key, status.enabled]));
    Object.freeze(this);
  }

  /**
   * Whether the feature is on. `key` must be a registered key, so a typo does not compile; for a
   * name that arrives as a string, use {@link Features.lookup}.
   */
  isEnabled(key: FeatureKey): boolean {
    const enabled = this.#enabled.get(key);
    // Only reachable by casting a string past the type: say so rather than answer `false`.
    if (enabled === undefined) throw new TypeError(`unknown feature \`${String(key)}\`: the registry has no such key`);
    return enabled;
  }

  /** The state of the feature named by a string from outside (config, a flag), or undefined if there is none. */
  lookup(name: string): boolean | undefined {
    return isFeatureKey(name) ? this.#enabled.get(name) : undefined;
  }

  /** Every registered feature with its effective state, sorted by key (a frozen array). */
  list(): readonly FeatureStatus[] {
    return this.#list;
  }

  /** Every feature at its registry default, no structured config: what an empty config means. */
  static defaults(): Features {
    defaults ??= new Features(FEATURES_KEY, { toggles: new Map(), tokenBudget: undefined, rolloutBudget: undefined, currentTimeReminder: undefined });
    return defaults;
  }
}
