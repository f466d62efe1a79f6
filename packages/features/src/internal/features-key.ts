// The capability to construct a Features value: only this package holds it, so every Features comes
// from resolveFeatures (validated) or Features.defaults().

import type { CurrentTimeReminderConfig } from '../current-time-reminder.js';
import type { RolloutBudgetConfig } from '../rollout-budget.js';
import type { TokenBudgetConfig } from '../token-budget.js';

/** Passed to the Features constructor; not exported from the package. */
export const FEATURES_KEY: unique symbol = Symbol('@skein/features: construct Features');

/** What resolution decided: the explicit toggles that stuck and the structured configs in effect. */
export interface FeaturesState {
  /** Explicit on/off per registered, non-removed key; absent keys keep their default. */
  readonly toggles: ReadonlyMap<string, boolean>;
  readonly tokenBudget: TokenBudgetConfig | undefined;
  readonly rolloutBudget: RolloutBudgetConfig | undefined;
  readonly currentTimeReminder: CurrentTimeReminderConfig | undefined;
}
