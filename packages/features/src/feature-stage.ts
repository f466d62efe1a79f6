// The lifecycle stage of a feature flag, as Codex 0.171.0 puts it on the wire, and the label
// `codex features list` prints for it.

import * as z from 'zod';

/**
 * How far along a feature is. Wire names match Codex's app-server (`experimentalFeature/list`):
 * Codex's "under development" is `underDevelopment`, its "experimental" is `beta`.
 */
export const FeatureStage = z.enum(['underDevelopment', 'beta', 'stable', 'deprecated', 'removed']);
/** How far along a feature is; see {@link FeatureStage}. */
export type FeatureStage = z.infer<typeof FeatureStage>;

const LABELS = {
  underDevelopment: 'under development',
  beta: 'experimental',
  stable: 'stable',
  deprecated: 'deprecated',
  removed: 'removed',
} as const satisfies Record<FeatureStage, string>;

/**
 * The stage as `codex features list` prints it (`under development`, `experimental`, `stable`,
 * `deprecated`, `removed`), so `skein features list` can show the same columns.
 */
export function featureStageLabel(stage: FeatureStage): string {
  return LABELS[stage];
}
