// FeatureWarning: a `[features]` setting that loads but deserves a notice (unknown, removed,
// deprecated, or an under-development feature switched on).

/** Stable warning codes; callers switch on these, never on messages. */
export type FeatureWarningCode = 'UnknownFeature' | 'RemovedFeature' | 'DeprecatedFeature' | 'UnderDevelopmentEnabled';

/** A notice from resolveFeatures. Never fatal: the config loads. */
export interface FeatureWarning {
  readonly code: FeatureWarningCode;
  /** The feature key as written under `[features]`, e.g. `tool_search`. */
  readonly key: string;
  /** The FeatureSource origin that set it (for UnderDevelopmentEnabled: the one that turned it on). */
  readonly origin: string;
  /** One sentence for a person, naming the dotted key and the origin. */
  readonly message: string;
}
