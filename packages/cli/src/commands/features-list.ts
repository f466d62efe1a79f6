// `skein features list`: every feature with its stage and effective state, in `codex features list`'s columns.
import { featureStageLabel, type Features } from '@skein/features';
import { loadConfigFor, type GlobalOptions, type ProcessContext } from '../global-options.js';

const KEY_COLUMN = 41;
const STAGE_COLUMN = 19;

/** The table, one line per feature: key, stage, effective value. */
export function formatFeatureList(features: Features): string {
  return features
    .list()
    .map(({ spec, enabled }) => `${spec.key.padEnd(KEY_COLUMN - 1)} ${featureStageLabel(spec.stage).padEnd(STAGE_COLUMN - 1)} ${String(enabled)}`)
    .join('\n');
}

/** Loads config for `options`, reports its warnings and prints the table. */
export async function printFeatureList(options: GlobalOptions, io: ProcessContext & { readonly stdout: (text: string) => void; readonly stderr: (text: string) => void }): Promise<void> {
  const { config, warnings } = await loadConfigFor(options, io);
  for (const warning of warnings) io.stderr(`warning: ${warning.message}\n`);
  io.stdout(`${formatFeatureList(config.features)}\n`);
}
