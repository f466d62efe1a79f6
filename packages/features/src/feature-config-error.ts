// FeatureConfigError: a `[features]` value that cannot be used, named by its dotted key and origin.

/** Stable codes: a plain feature set to something other than a boolean, or a bad structured table. */
export type FeatureConfigErrorCode = 'InvalidValue' | 'InvalidStructuredConfig';

/**
 * Thrown by resolveFeatures. The message names the dotted key, the origin and the reason, e.g.
 * `invalid features.rollout_budget.limit_tokens in /home/u/.codex/config.toml: must be a positive
 * integer (got 0)`.
 */
export class FeatureConfigError extends Error {
  override readonly name = 'FeatureConfigError';
  /** What kind of value was rejected. */
  readonly code: FeatureConfigErrorCode;
  /** The full dotted config key, e.g. `features.rollout_budget.limit_tokens` or `features.goals`. */
  readonly key: string;
  /** The registry key of the feature concerned, e.g. `rollout_budget` (`''` for the table itself). */
  readonly feature: string;
  /** The FeatureSource origin the value came from, e.g. `/home/u/.codex/config.toml` or `--enable`. */
  readonly origin: string;
  /** The reason alone, without key and origin. */
  readonly reason: string;

  constructor(code: FeatureConfigErrorCode, fields: { key: string; feature: string; origin: string; reason: string }) {
    super(`invalid ${fields.key} in ${fields.origin}: ${fields.reason}`);
    this.code = code;
    this.key = fields.key;
    this.feature = fields.feature;
    this.origin = fields.origin;
    this.reason = fields.reason;
  }
}
