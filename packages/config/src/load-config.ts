// Discovers and stacks the config layers — the system file, user file, selected profile, trusted project files,
// `-c` overrides, `--enable`/`--disable` — validates each one, and resolves the immutable Config.
// Nothing is applied unless everything loads: any error leaves the caller with no Config at all.
// A load is cached (loaded-config-cache.ts): an unchanged config is not read and validated again.
import * as z from 'zod';
import path from 'node:path';
import { FeatureConfigError, isFeatureKey, resolveFeatures, type FeatureSource } from '@skein/features';
import { overridesToTable, parseConfigOverride } from './cli-override.js';
import { ConfigError } from './config-error.js';
import { ConfigReads } from './config-reads.js';
import { ConfigToml, type McpServerToml, type ProfileToml } from './config-toml.js';
import type { ConfigWarning } from './config-warning.js';
import { DEFAULT_EXEC_YIELD_TIME_MS, DEFAULT_MODEL, DEFAULT_PROJECT_DOC_MAX_BYTES, SYSTEM_CONFIG_FILE, deepFreeze, type Config, type ConfigLayer, type ExtensionSpec } from './config.js';
import { resolveHomeDir } from './home-dir.js';
import { builtInProviders, resolveProvider, type ModelProviderInfo } from './model-providers.js';
import { DEFAULT_PROJECT_ROOT_MARKERS, findProjectRoot, isProjectTrusted, projectConfigFiles } from './project-layers.js';
import { LoadedConfigCache } from './loaded-config-cache.js';
import { isTable, mergeTables, readTomlFile, type TomlTable } from './toml-table.js';
import { validateLayer } from './validate-layer.js';
import { webSearchSettings } from './web-search-settings.js';
import { realtimeSettings } from './realtime-settings.js';
import { checkpointSettings } from './checkpoint-settings.js';
import { threadStoreSettings } from './thread-store-settings.js';
import { pluginSettings } from './plugin-settings.js';

/** What the caller (cli, app-server) knows: where it runs and what the user passed. */
export interface LoadConfigOptions {
  /** Absolute working directory; project config is looked up from here. */
  readonly cwd: string;
  /** Environment to read `SKEIN_HOME` / `CODEX_HOME` from. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Home directory; overrides the environment. */
  readonly homeDir?: string;
  /** `--profile NAME`; overrides `profile = "…"` in the files. */
  readonly profile?: string | undefined;
  /** Raw `-c key=value` arguments, in order. */
  readonly overrides?: readonly string[];
  /** `--enable FEATURE` / `--disable FEATURE`, applied after everything else. */
  readonly enable?: readonly string[];
  readonly disable?: readonly string[];
  /**
   * Feature states that replace the registry defaults, below every layer (the process-wide runtime
   * enablement a client sets with `experimentalFeature/enablement/set`).
   */
  readonly featureDefaults?: Readonly<Record<string, boolean>>;
  /** `--strict-config`: unknown and not-yet-supported keys are errors. */
  readonly strict?: boolean;
  /** The machine-wide file under the user's (default `/etc/codex/config.toml`, as Codex; null for none). */
  readonly systemConfigFile?: string | null;
}

/** A loaded config and what the user should be told about it. */
export interface LoadedConfig {
  readonly config: Config;
  readonly warnings: readonly ConfigWarning[];
}

/** Every process's loads share one cache: the config files are the process's too. */
const cache = new LoadedConfigCache();

/**
 * Loads the effective configuration. Throws `ConfigError` (file, key, reason) on the first problem.
 * An earlier result is reused while the files it read are unchanged on disk (see LoadedConfigCache).
 */
export async function loadConfig(options: LoadConfigOptions): Promise<LoadedConfig> {
  if (!path.isAbsolute(options.cwd)) throw new ConfigError('InvalidValue', 'cwd', undefined, `must be absolute, got '${options.cwd}'`);
  const inputs = { ...options, homeDir: options.homeDir ?? resolveHomeDir(options.env), systemConfigFile: systemConfigFile(options) };
  const key = loadKey(inputs);
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const reads = new ConfigReads();
  const loaded = await loadFresh(inputs, reads);
  cache.set(key, loaded, reads);
  return loaded;
}

/** The machine-wide file (`/etc/codex/config.toml` unless the caller names one; none on Windows). */
function systemConfigFile(options: LoadConfigOptions): string | null {
  if (options.systemConfigFile !== undefined) return options.systemConfigFile;
  return process.platform === 'win32' ? null : SYSTEM_CONFIG_FILE;
}

/**
 * Everything a load depends on besides the disk: the options, with the environment narrowed to the
 * one variable read past the home directory (already resolved).
 */
function loadKey(options: LoadConfigOptions & { readonly homeDir: string; readonly systemConfigFile: string | null }): string {
  return JSON.stringify([
    options.cwd,
    options.homeDir,
    options.systemConfigFile,
    options.profile ?? null,
    options.overrides ?? [],
    options.enable ?? [],
    options.disable ?? [],
    Object.entries(options.featureDefaults ?? {}),
    options.strict ?? false,
    options.env['CODEX_OSS_BASE_URL'] ?? null,
  ]);
}

async function loadFresh(options: LoadConfigOptions & { readonly homeDir: string; readonly systemConfigFile: string | null }, reads: ConfigReads): Promise<LoadedConfig> {
  const strict = options.strict ?? false;
  const homeDir = options.homeDir;
  const warnings: ConfigWarning[] = [];
  const check = (table: TomlTable, origin: string): TomlTable => {
    warnings.push(...validateLayer(table, origin, strict));
    return table;
  };
  const readText = (file: string) => reads.readText(file);

  const systemFile = options.systemConfigFile;
  const systemTable = systemFile === null ? undefined : check((await readTomlFile(systemFile, readText)) ?? {}, systemFile);
  const userFile = path.join(homeDir, 'config.toml');
  const userTable = check((await readTomlFile(userFile, readText)) ?? {}, userFile);
  const overrides = (options.overrides ?? []).map(parseConfigOverride);
  for (const override of overrides) check(overridesToTable([override]), `-c ${override.raw}`);
  const sessionTable = overridesToTable(overrides);

  const projectLayers = await readProjectLayers(options.cwd, homeDir, mergeTables(mergeTables(systemTable ?? {}, userTable), sessionTable), check, warnings, reads);

  // Codex lists the system layer even when its file does not exist.
  const layers: ConfigLayer[] = [
    ...(systemFile === null ? [] : [{ name: { type: 'system' as const, file: systemFile }, origin: systemFile, table: systemTable ?? {} }]),
    { name: { type: 'user', file: userFile }, origin: userFile, table: userTable },
  ];
  const profile = selectProfile(options.profile, [...(systemTable === undefined ? [] : [systemTable]), userTable, ...projectLayers.map((layer) => layer.table), sessionTable]);
  if (profile !== undefined) layers.push(profileLayer(profile, userFile, [...layers], projectLayers));
  layers.push(...projectLayers);
  if (overrides.length > 0) layers.push({ name: { type: 'sessionFlags' }, origin: '-c', table: sessionTable });

  const merged = ConfigToml.parse(layers.reduce<TomlTable>((below, layer) => mergeTables(below, layer.table), {}));
  const features = loadFeatures(layers, overrides, options, warnings);
  const providers = resolveProviders(merged, userFile, warnings, options.env['CODEX_OSS_BASE_URL']?.trim() || undefined);
  const modelProviderId = merged.model_provider ?? 'openai';
  const modelProvider = providers[modelProviderId];
  if (modelProvider === undefined) {
    throw new ConfigError('UnknownProvider', originOf(layers, 'model_provider'), 'model_provider',
      `no provider '${modelProviderId}'; define [model_providers.${modelProviderId}] or use one of: ${Object.keys(providers).sort().join(', ')}`);
  }

  const config: Config = {
    homeDir,
    cwd: options.cwd,
    profile,
    model: merged.model ?? DEFAULT_MODEL,
    modelProviderId,
    modelProvider,
    modelProviders: providers,
    approvalPolicy: merged.approval_policy ?? 'on-request',
    sandboxMode: merged.sandbox_mode ?? 'read-only',
    sandboxWorkspaceWrite: {
      writableRoots: merged.sandbox_workspace_write?.writable_roots ?? [],
      networkAccess: merged.sandbox_workspace_write?.network_access ?? false,
      excludeTmpdirEnvVar: merged.sandbox_workspace_write?.exclude_tmpdir_env_var ?? false,
      excludeSlashTmp: merged.sandbox_workspace_write?.exclude_slash_tmp ?? false,
    },
    modelReasoningEffort: merged.model_reasoning_effort,
    modelReasoningSummary: merged.model_reasoning_summary,
    modelVerbosity: merged.model_verbosity,
    modelAutoCompactTokenLimit: merged.model_auto_compact_token_limit,
    modelContextWindow: merged.model_context_window,
    developerInstructions: merged.developer_instructions,
    baseInstructions: await readBaseInstructions(merged, layers, options.cwd, reads),
    projectDocMaxBytes: merged.project_doc_max_bytes ?? DEFAULT_PROJECT_DOC_MAX_BYTES,
    projectRootMarkers: merged.project_root_markers ?? DEFAULT_PROJECT_ROOT_MARKERS,
    toolOutputTokenLimit: merged.tool_output_token_limit,
    shellEnvironmentPolicy: merged.shell_environment_policy ?? {},
    orchestrator: {
      skillsEnabled: merged.orchestrator?.skills?.enabled ?? true,
      mcpEnabled: merged.orchestrator?.mcp?.enabled ?? true,
    },
    mcpServers: merged.mcp_servers ?? {},
    mcpSkillSources: skillSources(merged.mcp_servers ?? {}),
    features,
    webSearch: webSearchSettings(merged.web_search, merged.tools, features),
    realtime: realtimeSettings(merged.realtime, merged),
    codeMode: {
      defaultExecYieldTimeMs: merged.code_mode?.default_exec_yield_time_ms ?? DEFAULT_EXEC_YIELD_TIME_MS,
      excludedToolNamespaces: merged.code_mode?.excluded_tool_namespaces ?? [],
      directOnlyToolNamespaces: merged.code_mode?.direct_only_tool_namespaces ?? [],
      toolInputSchemaMaxBytes: merged.code_mode?.tool_input_schema_max_bytes,
    },
    goals: { maxTokenBudget: merged.goals?.max_goal_token_budget },
    checkpoints: checkpointSettings(merged.skein?.checkpoints, merged.ghost_snapshot),
    threadStore: threadStoreSettings(merged.skein?.thread_store),
    plugins: pluginSettings(merged.marketplaces, merged.plugins, merged.skein?.plugin_recommendations, merged.tool_suggest),
    agents: {
      maxDepth: merged.agents?.max_depth ?? 1,
      defaultSubagentModel: merged.agents?.default_subagent_model,
      maxConcurrentThreads: maxConcurrentAgents(merged.features, layers),
      jobMaxRuntimeSeconds: merged.agents?.job_max_runtime_seconds,
    },
    skillToggles: layers.flatMap((layer) => ConfigToml.shape.skills.parse(layer.table.skills)?.config ?? []),
    extensions: extensionSpecs(layers, options.cwd),
    layers,
  };
  // Features is immutable on its own; everything else is plain data frozen here (a cached result is shared).
  const { features: _features, ...data } = config;
  deepFreeze(data);
  deepFreeze(warnings);
  return Object.freeze({ config: Object.freeze(config), warnings });
}

/** The servers a skills catalog lists `mcp/skill` resources of: marked, and not switched off. */
function skillSources(servers: Readonly<Record<string, McpServerToml>>): string[] {
  return Object.entries(servers)
    .filter(([, server]) => server.skein_skill_source === true && server.enabled !== false)
    .map(([name]) => name)
    .sort();
}

/** Each layer's `[skein] extensions`, in layer order; a spec is resolved from its file's directory. */
function extensionSpecs(layers: readonly ConfigLayer[], cwd: string): ExtensionSpec[] {
  return layers.flatMap((layer) => {
    const specs = ConfigToml.shape.skein.parse(layer.table.skein)?.extensions ?? [];
    const baseDir = layer.name.type === 'sessionFlags' ? cwd : path.dirname(layer.name.file);
    return specs.map((spec) => ({ spec, baseDir, origin: layer.origin }));
  });
}

/** Trusted project layers, root first; warns once when an untrusted project has config of its own. */
async function readProjectLayers(
  cwd: string,
  homeDir: string,
  userAndSession: TomlTable,
  check: (table: TomlTable, origin: string) => TomlTable,
  warnings: ConfigWarning[],
  reads: ConfigReads,
): Promise<ConfigLayer[]> {
  const parsed = ConfigToml.parse(userAndSession);
  const markers = parsed.project_root_markers ?? DEFAULT_PROJECT_ROOT_MARKERS;
  const root = findProjectRoot(cwd, markers, (candidate) => reads.exists(candidate));
  const trusted = isProjectTrusted(parsed.projects ?? {}, root, cwd);
  const layers: ConfigLayer[] = [];
  for (const file of projectConfigFiles(root, cwd, homeDir)) {
    // A project's `.codex/hooks.json` needs no config.toml beside it (as in Codex): its layer is then
    // empty, named after the config.toml its hooks.json is found beside.
    const hooksJson = path.join(path.dirname(file), 'hooks.json');
    const read = await readTomlFile(file, (at) => reads.readText(at));
    const table = read ?? (reads.exists(hooksJson) ? {} : undefined);
    if (table === undefined) continue;
    const origin = read === undefined ? hooksJson : file;
    if (!trusted) {
      warnings.push({
        code: 'UntrustedProjectConfig',
        origin,
        key: undefined,
        message: `${origin}: ignored because ${root} is not trusted; add [projects."${root}"] trust_level = "trusted" to your config.toml to use it`,
      });
      continue;
    }
    layers.push({ name: { type: 'project', file }, origin, table: check(table, file) });
  }
  return layers;
}

/** `--profile` wins; otherwise the highest layer that sets `profile = "…"`. */
function selectProfile(flag: string | undefined, tables: readonly TomlTable[]): string | undefined {
  if (flag !== undefined) return flag;
  let selected: string | undefined;
  for (const table of tables) if (typeof table.profile === 'string') selected = table.profile;
  return selected;
}

/** The selected `[profiles.NAME]` table as a layer of its own. */
function profileLayer(profile: string, userFile: string, baseLayers: readonly ConfigLayer[], projectLayers: readonly ConfigLayer[]): ConfigLayer {
  let table: ProfileToml | undefined;
  let file = userFile;
  // The system and user files, then the trusted project files: a later one's entries win.
  for (const layer of [...baseLayers, ...projectLayers]) {
    const profiles = layer.table.profiles;
    const candidate = isTable(profiles) ? profiles[profile] : undefined;
    if (isTable(candidate)) {
      table = table === undefined ? candidate : mergeTables(table, candidate);
      file = layer.origin;
    }
  }
  if (table === undefined) {
    const known = [...new Set(baseLayers.flatMap((layer) => (isTable(layer.table.profiles) ? Object.keys(layer.table.profiles) : [])))];
    throw new ConfigError('UnknownProfile', `--profile ${profile}`, `profiles.${profile}`,
      known.length > 0 ? `no such profile; defined: ${known.sort().join(', ')}` : 'no such profile; this config defines none');
  }
  return { name: { type: 'profile', profile, file }, origin: `profile "${profile}" (${file})`, table };
}

/** Sub-agents working at once in a session unless `[features.multi_agent_v2]` says otherwise (Codex's default). */
const DEFAULT_MAX_CONCURRENT_AGENTS = 4;
const MaxConcurrentAgents = z.int('expected a whole number').min(1, 'at least 1').max(64, 'at most 64');

/** `[features.multi_agent_v2] max_concurrent_threads_per_session`; the features package checks the rest of the table. */
function maxConcurrentAgents(features: Record<string, unknown> | undefined, layers: readonly ConfigLayer[]): number {
  const table = features?.['multi_agent_v2'];
  const value = isTable(table) ? table['max_concurrent_threads_per_session'] : undefined;
  if (value === undefined) return DEFAULT_MAX_CONCURRENT_AGENTS;
  const parsed = MaxConcurrentAgents.safeParse(value);
  if (parsed.success) return parsed.data;
  const key = 'features.multi_agent_v2.max_concurrent_threads_per_session';
  throw new ConfigError('InvalidValue', originOf(layers, 'features'), key, `${key}: ${parsed.error.issues[0]?.message ?? 'invalid'} (got ${JSON.stringify(value)})`);
}

/** Features from each layer's `[features]`, then `--enable` / `--disable`. */
function loadFeatures(
  layers: readonly ConfigLayer[],
  overrides: readonly { raw: string; path: readonly string[]; value: unknown }[],
  options: LoadConfigOptions,
  warnings: ConfigWarning[],
): Config['features'] {
  const sources: FeatureSource[] = [];
  if (options.featureDefaults !== undefined) sources.push({ origin: 'runtime feature enablement', table: options.featureDefaults });
  for (const layer of layers) {
    if (layer.name.type === 'sessionFlags') {
      // One source per override, so a message names the exact `-c` that was wrong.
      for (const override of overrides) {
        const features = overridesToTable([override]).features;
        if (isTable(features)) sources.push({ origin: `-c ${override.raw}`, table: features });
      }
    } else if (isTable(layer.table.features)) {
      sources.push({ origin: layer.origin, table: layer.table.features });
    }
  }
  for (const [flag, keys, value] of [['--enable', options.enable, true], ['--disable', options.disable, false]] as const) {
    for (const key of keys ?? []) {
      // A flag names a feature on purpose, so a typo is an error (as in Codex), not a warning.
      if (!isFeatureKey(key)) {
        throw new ConfigError('InvalidFeature', `${flag} ${key}`, `features.${key}`, 'unknown feature flag; `skein features list` shows them all');
      }
      sources.push({ origin: `${flag} ${key}`, table: { [key]: value } });
    }
  }
  try {
    const { features, warnings: featureWarnings } = resolveFeatures(sources);
    for (const warning of featureWarnings) {
      warnings.push({ code: warning.code, origin: warning.origin, key: `features.${warning.key}`, message: warning.message });
    }
    return features;
  } catch (error) {
    if (error instanceof FeatureConfigError) {
      throw new ConfigError('InvalidFeature', error.origin, error.key, error.reason);
    }
    throw error;
  }
}

/** Built-in providers plus `[model_providers.*]`; a built-in id cannot be redefined (as in Codex). */
function resolveProviders(merged: ConfigToml, userFile: string, warnings: ConfigWarning[], ossBaseUrl: string | undefined): Record<string, ModelProviderInfo> {
  const builtIns = builtInProviders(merged.openai_base_url, ossBaseUrl);
  const providers: Record<string, ModelProviderInfo> = {};
  for (const [id, toml] of Object.entries(builtIns)) providers[id] = resolveProvider(id, toml);
  for (const [id, toml] of Object.entries(merged.model_providers ?? {})) {
    if (Object.hasOwn(builtIns, id)) {
      warnings.push({
        code: 'BuiltInProviderRedefined',
        origin: userFile,
        key: `model_providers.${id}`,
        message: `${userFile}: model_providers.${id}: '${id}' is a built-in provider and cannot be redefined; give yours another id${id === 'openai' ? ' or set openai_base_url' : ''}`,
      });
      continue;
    }
    providers[id] = resolveProvider(id, toml);
  }
  return providers;
}

/** The contents of `model_instructions_file` (relative to the file that sets it), else `instructions`. */
async function readBaseInstructions(merged: ConfigToml, layers: readonly ConfigLayer[], cwd: string, reads: ConfigReads): Promise<string | undefined> {
  const file = merged.model_instructions_file;
  if (file === undefined) return merged.instructions;
  const layer = layerSetting(layers, 'model_instructions_file');
  const base = layer !== undefined && layer.name.type !== 'sessionFlags' ? path.dirname(layer.name.file) : cwd;
  const absolute = path.resolve(base, file);
  let text: string | undefined;
  try {
    text = await reads.readText(absolute);
  } catch (error) {
    throw new ConfigError('UnreadableFile', layer?.origin ?? 'defaults', 'model_instructions_file', `cannot read ${absolute}: ${(error as Error).message}`);
  }
  if (text === undefined) throw new ConfigError('UnreadableFile', layer?.origin ?? 'defaults', 'model_instructions_file', `cannot read ${absolute}: no such file`);
  return text;
}

/** The highest layer that sets top-level `key`. */
function layerSetting(layers: readonly ConfigLayer[], key: string): ConfigLayer | undefined {
  return layers.findLast((layer) => Object.hasOwn(layer.table, key));
}

/** The origin of the highest layer that sets top-level `key`. */
function originOf(layers: readonly ConfigLayer[], key: string): string {
  return layerSetting(layers, key)?.origin ?? 'defaults';
}
