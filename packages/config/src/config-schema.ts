// The JSON Schema of config.toml, generated from the zod schema so editors can validate and complete
// the file. The committed copy (config.schema.json) is checked against this by a test.
import { featuresTable } from '@skein/features';
import * as z from 'zod';
import { ConfigToml, ProfileToml } from './config-toml.js';

/** JSON Schema (draft 2020-12) of one config.toml file. */
export function configJsonSchema(): Record<string, unknown> {
  // Loading keeps `[features]` raw for @skein/features to judge; the schema spells out every flag.
  // Built here, not at import: loading config never needs it.
  const DocumentedConfigToml = ConfigToml.extend({
    features: featuresTable().optional(),
    profiles: z.record(z.string(), ProfileToml.extend({ features: featuresTable().optional() })).optional(),
  });
  return {
    ...z.toJSONSchema(DocumentedConfigToml, { io: 'input', unrepresentable: 'any' }),
    $id: 'https://skein.dev/schemas/config.schema.json',
    title: 'Skein / Codex config.toml',
  };
}
