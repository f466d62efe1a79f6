// FeaturesTable: the shape of a `[features]` table as a zod schema, so @skein/config can put it in the
// JSON Schema of config.toml. Meaning (layering, warnings, ranges) belongs to resolveFeatures.

import * as z from 'zod';
import { FEATURE_REGISTRY } from './feature-registry.js';
import type { FeatureSpec } from './feature-registry.js';
import { featureStageLabel } from './feature-stage.js';
import { tableSchemaOf } from './internal/feature-tables.js';

function describe(spec: FeatureSpec): string {
  const state = spec.defaultEnabled ? 'on' : 'off';
  if (spec.stage === 'removed') return `${spec.description} Removed: setting it has no effect (stays ${state}).`;
  return `${spec.description} (${featureStageLabel(spec.stage)}; ${state} by default)`;
}

function valueSchema(spec: FeatureSpec): z.ZodOptional {
  const table = tableSchemaOf(spec.key);
  const value = table === undefined ? z.boolean() : z.union([z.boolean(), table]);
  return value.optional().describe(describe(spec));
}

// Called as pure below, so a bundle that never reads FeaturesTable (the `skein` executable) drops
// the 225 schemas it builds.
function featuresTable() {
  return z.object(Object.fromEntries(FEATURE_REGISTRY.map((spec) => [spec.key, valueSchema(spec)]))).catchall(z.unknown());
}

/**
 * A `[features]` table: every registered key with its type (boolean, or boolean or table for the
 * features that take one), described for editors; other keys are allowed, since unknown features
 * only warn. Types only: use resolveFeatures to read a config.
 *
 * @example z.toJSONSchema(FeaturesTable) // a JSON Schema object with one property per feature
 */
export const FeaturesTable = /* @__PURE__ */ featuresTable();
/** A `[features]` table; see {@link FeaturesTable}. */
export type FeaturesTable = z.infer<typeof FeaturesTable>;
