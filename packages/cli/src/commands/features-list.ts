// `skein features list`: every feature with its stage and effective state, in `codex features list`'s columns.
import { featureStageLabel, type Features } from '@skein/features';

const KEY_COLUMN = 41;
const STAGE_COLUMN = 19;

/** The table, one line per feature: key, stage, effective value. */
export function formatFeatureList(features: Features): string {
  return features
    .list()
    .map(({ spec, enabled }) => `${spec.key.padEnd(KEY_COLUMN - 1)} ${featureStageLabel(spec.stage).padEnd(STAGE_COLUMN - 1)} ${String(enabled)}`)
    .join('\n');
}
