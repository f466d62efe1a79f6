// Builds `config/read`'s answer from a loaded config: the effective table in config.toml's
// snake_case (Codex's top-level keys, unset ones null), the layer each dotted key came from, and
// optionally every layer's own table, highest precedence first.
import { createHash } from 'node:crypto';
import { CODEX_CONFIG_KEYS, DEFAULT_PROJECT_ROOT_MARKERS, type ConfigLayer, type LoadedConfig } from '@skein/config';
import { RUNTIME_ENABLEMENT_FEATURES } from '@skein/features';
import type { ConfigLayerMetadata, ConfigLayerSource, ConfigReadLayer, ConfigReadResponse } from '@skein/protocol';
import path from 'node:path';

type Table = Record<string, unknown>;

/** Every field Codex reports for a `[model_providers.*]` entry; unset ones are null. */
const PROVIDER_FIELDS = [
  'name', 'base_url', 'model_catalog_url', 'env_key', 'env_key_instructions', 'experimental_bearer_token', 'auth',
  'gateway_oauth', 'aws', 'project_id', 'location', 'credential_file', 'wire_api', 'capabilities', 'query_params',
  'http_headers', 'env_http_headers', 'request_max_retries', 'stream_max_retries', 'stream_idle_timeout_ms',
  'websocket_connect_timeout_ms', 'requires_openai_auth', 'supports_websockets', 'supports_standalone_web_search',
] as const;
const PROVIDER_FLAG_DEFAULTS: Table = { requires_openai_auth: false, supports_websockets: false, supports_standalone_web_search: false };

function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `over` on top of `under`, tables merged key by key (what config layering does). */
function merge(under: Table, over: Readonly<Table>): Table {
  const out: Table = { ...under };
  for (const [key, value] of Object.entries(over)) {
    const below = out[key];
    out[key] = isTable(below) && isTable(value) ? merge(below, value) : value;
  }
  return out;
}

/** Dotted paths of every non-table value in `table`. */
function leafKeys(table: Readonly<Table>, prefix = ''): string[] {
  return Object.entries(table).flatMap(([key, value]) => (isTable(value) && Object.keys(value).length > 0 ? leafKeys(value, `${prefix}${key}.`) : [`${prefix}${key}`]));
}

function source(layer: ConfigLayer): ConfigLayerSource {
  switch (layer.name.type) {
    case 'system':
      return { type: 'system', file: layer.name.file };
    case 'user':
      return { type: 'user', file: layer.name.file, profile: null };
    case 'profile':
      // Codex has no profile layer of its own: a profile is the user layer with its name.
      return { type: 'user', file: layer.name.file, profile: layer.name.profile };
    case 'project':
      return { type: 'project', dotCodexFolder: path.dirname(layer.name.file) };
    case 'sessionFlags':
      return { type: 'sessionFlags' };
  }
}

/** Reads a layer's file for its version; undefined when it does not exist. */
export type ReadLayerFile = (file: string) => Promise<Uint8Array | undefined>;

async function version(layer: ConfigLayer, readLayerFile: ReadLayerFile): Promise<string> {
  const bytes = layer.name.type === 'sessionFlags' ? Buffer.from(JSON.stringify(layer.table)) : ((await readLayerFile(layer.name.file)) ?? new Uint8Array());
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** A layer's name and version, as `config/read` reports it. */
export async function layerMetadata(layer: ConfigLayer, readLayerFile: ReadLayerFile): Promise<ConfigLayerMetadata> {
  return { name: source(layer), version: await version(layer, readLayerFile) };
}

/** Every field Codex reports for `[shell_environment_policy]`; unset ones are null. */
const SHELL_ENVIRONMENT_POLICY_FIELDS = ['inherit', 'ignore_default_excludes', 'exclude', 'set', 'include_only', 'filters', 'experimental_use_profile'] as const;

/** The effective config table: Codex's top-level keys (null when unset), what Skein resolves, then every layer. */
function effectiveTable(loaded: LoadedConfig): Table {
  const { config } = loaded;
  const base: Table = Object.fromEntries([...CODEX_CONFIG_KEYS].map((key) => [key, null]));
  Object.assign(base, {
    model: config.model,
    model_provider: config.modelProviderId,
    model_providers: {},
    mcp_servers: {},
    profiles: {},
    project_doc_max_bytes: config.projectDocMaxBytes,
    project_root_markers: [...DEFAULT_PROJECT_ROOT_MARKERS],
    // Tables Codex always reports, with its defaults; layers fill them in below.
    marketplaces: {},
    // The features a client can switch at runtime, always reported, as Codex reports them.
    features: Object.fromEntries(RUNTIME_ENABLEMENT_FEATURES.map((key) => [key, config.features.lookup(key) ?? false])),
    plugins: {},
    history: { persistence: 'save-all', max_bytes: null },
    shell_environment_policy: Object.fromEntries(SHELL_ENVIRONMENT_POLICY_FIELDS.map((field) => [field, null])),
  });
  const merged = config.layers.reduce<Table>((below, layer) => merge(below, layer.table), base);
  // A profile's table already sits in its own layer; the raw `profiles` tables stay as written.
  const providers = isTable(merged.model_providers) ? merged.model_providers : {};
  merged.model_providers = Object.fromEntries(
    Object.entries(providers).map(([id, provider]) => [
      id,
      { ...Object.fromEntries(PROVIDER_FIELDS.map((field) => [field, PROVIDER_FLAG_DEFAULTS[field] ?? null])), ...(isTable(provider) ? provider : {}) },
    ]),
  );
  return merged;
}

/** `config/read`'s result for `loaded`. */
export async function configReadResult(loaded: LoadedConfig, includeLayers: boolean, readLayerFile: ReadLayerFile): Promise<ConfigReadResponse> {
  const metadata: { layer: ConfigLayer; meta: ConfigLayerMetadata }[] = [];
  for (const layer of loaded.config.layers) metadata.push({ layer, meta: { name: source(layer), version: await version(layer, readLayerFile) } });
  const origins: Record<string, ConfigLayerMetadata> = {};
  for (const { layer, meta } of metadata) for (const key of leafKeys(layer.table)) origins[key] = meta;
  const result: ConfigReadResponse = { config: effectiveTable(loaded), origins };
  if (includeLayers) {
    result.layers = metadata.toReversed().map(({ layer, meta }): ConfigReadLayer => ({ ...meta, config: { ...layer.table } }));
  }
  return result;
}
