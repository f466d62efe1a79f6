// `config/read`: the effective config (snake_case, as config.toml spells it), where each key came
// from, and optionally every layer's own table (CODEX-FACTS §12.11).
import * as z from 'zod';
import { lazySchema } from '../lazy-schema.js';

export const ConfigReadParams = lazySchema(() => z.object({
  /** Read the config as a thread started in this directory would see it (project layers). */
  cwd: z.string().nullish(),
  includeLayers: z.boolean().optional(),
}));
export type ConfigReadParams = z.infer<typeof ConfigReadParams>;

/** Where a layer came from. */
export const ConfigLayerSource = lazySchema(() => z.discriminatedUnion('type', [
  z.object({ type: z.literal('user'), file: z.string(), profile: z.string().nullable() }),
  z.object({ type: z.literal('project'), dotCodexFolder: z.string() }),
  z.object({ type: z.literal('system'), file: z.string() }),
  z.object({ type: z.literal('sessionFlags') }),
]));
export type ConfigLayerSource = z.infer<typeof ConfigLayerSource>;

/** A layer's name and the version (`sha256:<hex>`) of its contents. */
export const ConfigLayerMetadata = lazySchema(() => z.object({ name: ConfigLayerSource, version: z.string() }));
export type ConfigLayerMetadata = z.infer<typeof ConfigLayerMetadata>;

/** One layer with its own table, highest precedence first in a response. */
export const ConfigReadLayer = lazySchema(() => ConfigLayerMetadata.extend({ config: z.record(z.string(), z.unknown()), disabledReason: z.string().nullish() }));
export type ConfigReadLayer = z.infer<typeof ConfigReadLayer>;

export const ConfigReadResponse = lazySchema(() => z.object({
  config: z.record(z.string(), z.unknown()),
  /** Each dotted key a layer sets → that layer. */
  origins: z.record(z.string(), ConfigLayerMetadata),
  layers: z.array(ConfigReadLayer).nullish(),
}));
export type ConfigReadResponse = z.infer<typeof ConfigReadResponse>;
