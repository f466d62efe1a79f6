// @skein/config — config.toml as Codex users write it. Re-exports only.

export { CONFIG_FLAG_OPTIONS } from './config-flags.js';
export { resolveHomeDir } from './home-dir.js';
export { DEFAULT_PROJECT_ROOT_MARKERS, findProjectRoot } from './project-layers.js';
export { loadConfig } from './load-config.js';
export type { LoadConfigOptions, LoadedConfig } from './load-config.js';
export { DEFAULT_EXEC_YIELD_TIME_MS, DEFAULT_MODEL, DEFAULT_PROJECT_DOC_MAX_BYTES } from './config.js';
export type { CodeModeSettings, Config, ConfigLayer, ConfigLayerName, ExtensionSpec } from './config.js';
export { ConfigError } from './config-error.js';
export type { ConfigEdit } from './config-edit.js';
export { isConfigKeyPath } from './config-key-path.js';
export { ConfigWriteError } from './config-write-error.js';
export type { ConfigWriteErrorCode } from './config-write-error.js';
export { configFileVersion, writeConfigFile } from './write-config-file.js';
export type { ConfigFileWrite } from './write-config-file.js';
export type { ConfigErrorCode } from './config-error.js';
export type { ConfigWarning } from './config-warning.js';
export { parseConfigOverride, overridesToTable } from './cli-override.js';
export type { ConfigOverride } from './cli-override.js';
export {
  ApprovalPolicyToml,
  ConfigToml,
  McpServerToml,
  SkillToggleToml,
  ModelProviderToml,
  ProfileToml,
  ProjectToml,
  SandboxModeToml,
  SandboxWorkspaceWriteToml,
  ShellEnvironmentPolicyToml,
} from './config-toml.js';
export { BUILT_IN_PROVIDER_IDS, OPENAI_PROVIDER_ID, PROVIDER_DEFAULTS } from './model-providers.js';
export type { ModelProviderInfo } from './model-providers.js';
export { CLIENT_SIDE_CONFIG_KEYS, CODEX_CONFIG_KEYS } from './codex-config-keys.js';
export { configJsonSchema } from './config-schema.js';
export { skillsSettings } from './skills-settings.js';
export {
  ENVIRONMENTS_TOML,
  EnvironmentEntryToml,
  EnvironmentsConfigError,
  EnvironmentsToml,
  LOCAL_ENVIRONMENT_ID,
  NO_DEFAULT_ENVIRONMENT,
  defaultEnvironmentIds,
  loadEnvironmentsToml,
  parseEnvironmentsToml,
} from './environments-toml.js';
export type { ConfiguredEnvironment, EnvironmentTransport, EnvironmentsConfig } from './environments-toml.js';
export { AUTH_FILE, AuthFile, apiKeyOf, authFilePath, maskApiKey, readAuthFile, readSavedApiKey, removeSavedAuth, saveApiKey } from './auth-file.js';
export { WebSearchModeToml, WebSearchToolToml } from './web-search-settings.js';
export type { WebSearchMode, WebSearchSettings } from './web-search-settings.js';
export { DEFAULT_REALTIME_WS_BASE_URL, DEFAULT_REALTIME_WS_MODEL } from './realtime-settings.js';
export type { RealtimeSettings } from './realtime-settings.js';
export { CheckpointModeToml, checkpointSettings, DEFAULT_CHECKPOINT_MAX_AGE_DAYS, DEFAULT_CHECKPOINT_MAX_DIR_FILES, DEFAULT_CHECKPOINT_MAX_FILE_BYTES } from './checkpoint-settings.js';
export type { CheckpointMode, CheckpointSettings } from './checkpoint-settings.js';
export { DEFAULT_DATABASE_URL_ENV, DEFAULT_LEASE_SECS, DEFAULT_MAX_CONNECTIONS, ThreadStoreToml, threadStoreSettings } from './thread-store-settings.js';
export type { ThreadStoreSettings } from './thread-store-settings.js';
export { MarketplaceToml, PluginToml, pluginSettings, ToolSuggestToml } from './plugin-settings.js';
export type { MarketplaceSetting, PluginSettings } from './plugin-settings.js';
