// featuresTable(): the shape of a `[features]` table as a zod schema, so @skein/config can put it in the
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

function buildFeaturesTable() {
  return z.object(Object.fromEntries(FEATURE_REGISTRY.map((spec) => [spec.key, valueSchema(spec)]))).catchall(z.unknown());
}

let table: ReturnType<typeof buildFeaturesTable> | undefined;

/**
 * A `[features]` table: every registered key with its type (boolean, or boolean or table for the
 * features that take one), described for editors; other keys are allowed, since unknown features
 * only warn. Types only: use resolveFeatures to read a config. Built on the first call (225 schemas,
 * a few ms that a process which never writes or documents config should not pay at start).
 *
 * @example z.toJSONSchema(featuresTable()) // a JSON Schema object with one property per feature
 */
export function featuresTable(): ReturnType<typeof buildFeaturesTable> {
  return (table ??= buildFeaturesTable());
}
/** A `[features]` table; see {@link featuresTable}. */
export type FeaturesTable = z.infer<ReturnType<typeof featuresTable>>;
