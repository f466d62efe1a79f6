// Helpers for this package's tests: sources with named origins and capturing the FeatureConfigError.

import { FeatureConfigError } from '../src/feature-config-error.js';
import { resolveFeatures } from '../src/resolve-features.js';
import type { FeatureSource } from '../src/resolve-features.js';

/** Origins used across the tests, one per kind of layer. */
export const USER = '/home/ada/.codex/config.toml';
export const PROJECT = '/work/repo/.codex/config.toml';
export const PROFILE = 'profile "work"';

/** A source from `origin` with the given `[features]` table. */
export function layer(origin: string, table: Record<string, unknown>): FeatureSource {
  return { origin, table };
}

/** The FeatureConfigError resolveFeatures throws for `sources`; fails if it throws nothing else. */
export function configErrorOf(sources: readonly FeatureSource[]): FeatureConfigError {
  try {
    resolveFeatures(sources);
  } catch (error) {
    if (error instanceof FeatureConfigError) return error;
    throw error;
  }
  throw new Error('expected a FeatureConfigError, but the features resolved');
}
