// `config/value/write`, `config/batchWrite` and `experimentalFeature/enablement/set`: editing the
// user's config.toml in place, and switching features for the whole process.
import * as z from 'zod';
import { ConfigLayerMetadata } from './config-read.js';
import { lazySchema } from '../lazy-schema.js';

/** `replace` sets the value as given; `upsert` merges a table value into the table already there. */
export const MergeStrategy = lazySchema(() => z.enum(['replace', 'upsert']));
export type MergeStrategy = z.infer<typeof MergeStrategy>;

/** One edit: a dotted key (`model_providers.mock.name`), its new value (`null` removes the key) and how to apply it. */
export const ConfigEdit = lazySchema(() => z.object({
  keyPath: z.string(),
  value: z.unknown().refine((value) => value !== undefined, { error: 'expected a value (null removes the key)' }),
  // A string first, so a missing one reads `missing field`; then serde's wording for another word.
  mergeStrategy: z.string().pipe(z.enum(MergeStrategy.options, { error: (issue) => `unknown variant \`${String(issue.input)}\`, expected \`replace\` or \`upsert\`` })),
}));
export type ConfigEdit = z.infer<typeof ConfigEdit>;

/** Where a write goes and which version of that file the client last read. */
const WriteTarget = lazySchema(() => ({
  /** The file to write; only the user's `config.toml` is writable, and it is the default. */
  filePath: z.string().nullish(),
  /** The `sha256:<hex>` version the client read; a different file on disk refuses the write. */
  expectedVersion: z.string().nullish(),
}));

export const ConfigValueWriteParams = lazySchema(() => ConfigEdit.extend(WriteTarget));
export type ConfigValueWriteParams = z.infer<typeof ConfigValueWriteParams>;

export const ConfigBatchWriteParams = lazySchema(() => z.object({
  edits: z.array(ConfigEdit),
  ...WriteTarget,
  /** Apply the new settings to loaded threads as well (Skein's threads read config when they start). */
  reloadUserConfig: z.boolean().optional(),
}));
export type ConfigBatchWriteParams = z.infer<typeof ConfigBatchWriteParams>;

/** `ok`, or `okOverridden` when a layer above the user's file still decides the value. */
export const WriteStatus = lazySchema(() => z.enum(['ok', 'okOverridden']));
export type WriteStatus = z.infer<typeof WriteStatus>;

/** The layer that overrides a written value, and the value in effect. */
export const OverriddenMetadata = lazySchema(() => z.object({ message: z.string(), overridingLayer: ConfigLayerMetadata, effectiveValue: z.unknown() }));
export type OverriddenMetadata = z.infer<typeof OverriddenMetadata>;

export const ConfigWriteResponse = lazySchema(() => z.object({
  status: WriteStatus,
  /** The file's new version (`sha256:<hex>` of its bytes), for the next `expectedVersion`. */
  version: z.string(),
  filePath: z.string(),
  overriddenMetadata: OverriddenMetadata.nullable(),
}));
export type ConfigWriteResponse = z.infer<typeof ConfigWriteResponse>;

/** Why a config write was refused, in the error's `data.config_write_error_code`. */
export const ConfigWriteErrorCode = lazySchema(() => z.enum([
  'configLayerReadonly',
  'configVersionConflict',
  'configValidationError',
  'configPathNotFound',
  'configSchemaUnknownKey',
  'userLayerNotFound',
]));
export type ConfigWriteErrorCode = z.infer<typeof ConfigWriteErrorCode>;

export const ExperimentalFeatureEnablementSetParams = lazySchema(() => z.object({
  /** Feature name → on/off, for this process; features not named keep their state. */
  enablement: z.record(z.string(), z.boolean()),
}));
export type ExperimentalFeatureEnablementSetParams = z.infer<typeof ExperimentalFeatureEnablementSetParams>;

/** The entries the server applied (names it does not switch at runtime are left out). */
export const ExperimentalFeatureEnablementSetResponse = lazySchema(() => z.object({ enablement: z.record(z.string(), z.boolean()) }));
export type ExperimentalFeatureEnablementSetResponse = z.infer<typeof ExperimentalFeatureEnablementSetResponse>;
