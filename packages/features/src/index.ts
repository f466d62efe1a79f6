// @skein/features — the feature registry and the Features set built from config layers. Re-exports only.

export { FeatureStage, featureStageLabel } from './feature-stage.js';

export { FEATURE_REGISTRY, featureSpec, isFeatureKey } from './feature-registry.js';
export type { FeatureKey, FeatureSpec } from './feature-registry.js';

export { Features } from './features.js';
export { RUNTIME_ENABLEMENT_FEATURES } from './runtime-features.js';
export type { FeatureStatus } from './features.js';

export { resolveFeatures } from './resolve-features.js';
export type { FeatureResolution, FeatureSource } from './resolve-features.js';

export { FeatureConfigError } from './feature-config-error.js';
export type { FeatureConfigErrorCode } from './feature-config-error.js';
export type { FeatureWarning, FeatureWarningCode } from './feature-warning.js';

export {
  TOKEN_BUDGET_REMAINING_PLACEHOLDER,
  TOKEN_BUDGET_TEXT_MAX_BYTES,
  TokenBudgetConfig,
  TokenBudgetTable,
} from './token-budget.js';
export {
  DEFAULT_ROLLOUT_TOKEN_WEIGHT,
  RolloutBudgetConfig,
  RolloutBudgetTable,
  defaultReminderIntervalTokens,
  rolloutBudgetLimit,
} from './rollout-budget.js';
export {
  CURRENT_TIME_REMINDER_DEFAULTS,
  CurrentTimeDeliveryMode,
  CurrentTimeReminderConfig,
  CurrentTimeReminderTable,
  CurrentTimeSource,
  DEFAULT_CURRENT_TIME_REMINDER_INTERVAL_SECONDS,
} from './current-time-reminder.js';

export { featuresTable, type FeaturesTable } from './features-table.js';
