// The resolved configuration: every layer applied, defaults filled, deeply frozen.
import type { Features } from '@skein/features';
import type { ApprovalPolicyToml, McpServerToml, SandboxModeToml, ShellEnvironmentPolicyToml, SkillToggleToml } from './config-toml.js';
import type { ModelProviderInfo } from './model-providers.js';
import type { WebSearchSettings } from './web-search-settings.js';
import type { RealtimeSettings } from './realtime-settings.js';
import type { CheckpointSettings } from './checkpoint-settings.js';
import type { ThreadStoreSettings } from './thread-store-settings.js';
import type { PluginSettings } from './plugin-settings.js';

/** The model when config names none: Codex 0.171.0's default (a code-mode model), so one config behaves alike in both. */
export const DEFAULT_MODEL = 'gpt-6.2-sol';
/** How much of AGENTS.md-style project docs is read, in bytes (Codex's default). */
export const DEFAULT_PROJECT_DOC_MAX_BYTES = 32 * 1024;

/** The machine-wide config file under every user's, where Codex reads it (an administrator's settings). */
export const SYSTEM_CONFIG_FILE = '/etc/codex/config.toml';

/** Where a layer came from, in `config/read`'s terms. */
export type ConfigLayerName =
  | { readonly type: 'system'; readonly file: string }
  | { readonly type: 'user'; readonly file: string }
  | { readonly type: 'project'; readonly file: string }
  | { readonly type: 'profile'; readonly profile: string; readonly file: string }
  | { readonly type: 'sessionFlags' };

/** One applied layer and its own (validated) table, lowest precedence first. */
export interface ConfigLayer {
  readonly name: ConfigLayerName;
  /** File path, `-c` or `--profile NAME`, as used in messages. */
  readonly origin: string;
  readonly table: Readonly<Record<string, unknown>>;
}

/** An extension a config layer names, and the directory its spec is resolved from. */
export interface ExtensionSpec {
  readonly spec: string;
  /** The directory of the file that names it (the cwd for `-c`). */
  readonly baseDir: string;
  /** The file (or `-c`) that names it, for messages. */
  readonly origin: string;
}

/** The effective configuration. */
export interface Config {
  readonly homeDir: string;
  readonly cwd: string;
  /** The selected profile, if any. */
  readonly profile: string | undefined;
  readonly model: string;
  readonly modelProviderId: string;
  readonly modelProvider: ModelProviderInfo;
  readonly modelProviders: Readonly<Record<string, ModelProviderInfo>>;
  readonly approvalPolicy: ApprovalPolicyToml;
  readonly sandboxMode: SandboxModeToml;
  readonly sandboxWorkspaceWrite: {
    readonly writableRoots: readonly string[];
    readonly networkAccess: boolean;
    readonly excludeTmpdirEnvVar: boolean;
    readonly excludeSlashTmp: boolean;
  };
  readonly modelReasoningEffort: string | undefined;
  readonly modelReasoningSummary: string | undefined;
  readonly modelVerbosity: 'low' | 'medium' | 'high' | undefined;
  readonly modelAutoCompactTokenLimit: number | undefined;
  readonly modelContextWindow: number | undefined;
  readonly developerInstructions: string | undefined;
  /** Base instructions replacing the built-in ones: `instructions`, or the contents of `model_instructions_file`. */
  readonly baseInstructions: string | undefined;
  readonly projectDocMaxBytes: number;
  /** Files whose presence marks a project root (AGENTS.md discovery, trusted project config). */
  readonly projectRootMarkers: readonly string[];
  /** Tokens of one tool output kept in history (`tool_output_token_limit`); the model's default when unset. */
  readonly toolOutputTokenLimit: number | undefined;
  readonly shellEnvironmentPolicy: Readonly<ShellEnvironmentPolicyToml>;
  readonly orchestrator: { readonly skillsEnabled: boolean; readonly mcpEnabled: boolean };
  readonly mcpServers: Readonly<Record<string, McpServerToml>>;
  /** `[[skills.config]]` of every layer, lowest precedence first (later entries win). */
  readonly skillToggles: readonly SkillToggleToml[];
  /** Names of the enabled `[mcp_servers.*]` marked `skein_skill_source = true`, sorted. */
  readonly mcpSkillSources: readonly string[];
  readonly features: Features;
  /**
   * Sub-agents (multi-agent v2): how deep they nest (`[agents] max_depth`, default 1: the root's
   * children only), the model they use unless told (`[agents] default_subagent_model`), and how many
   * work at once in a session (`[features.multi_agent_v2] max_concurrent_threads_per_session`, default 4).
   */
  readonly agents: {
    readonly maxDepth: number;
    readonly defaultSubagentModel: string | undefined;
    readonly maxConcurrentThreads: number;
    /** `[agents] job_max_runtime_seconds`: a sub-agent's turn running longer is stopped and the agent errored; unset, no limit. */
    readonly jobMaxRuntimeSeconds: number | undefined;
  };
  /** How the hosted `web_search` tool is offered (`web_search`, `[tools.web_search]`). */
  readonly webSearch: WebSearchSettings;
  /** How realtime conversations start (`[realtime]`, `experimental_realtime_*`). */
  readonly realtime: RealtimeSettings;
  /** `[code_mode]`: how code-mode models' cells run (see {@link CodeModeSettings}). */
  readonly codeMode: CodeModeSettings;
  /** Thread goals: the largest token budget a goal may have (`[goals] max_goal_token_budget`); unset, no limit. */
  readonly goals: { readonly maxTokenBudget: number | undefined };
  /** File checkpoints before turns write (`[skein.checkpoints]`, `[ghost_snapshot]`). */
  readonly checkpoints: CheckpointSettings;
  /** Where threads are kept (`[skein.thread_store]`). */
  readonly threadStore: ThreadStoreSettings;
  /** Plugin marketplaces and installed plugins (`[marketplaces.*]`, `[plugins.*]`). */
  readonly plugins: PluginSettings;
  /** `[skein] extensions` of every layer, lowest precedence first; untrusted projects contribute none. */
  readonly extensions: readonly ExtensionSpec[];
  /** The layers that produced this config, lowest precedence first. */
  readonly layers: readonly ConfigLayer[];
}

/** `[code_mode]`, with Codex's defaults. */
export interface CodeModeSettings {
  /** How long `exec` waits for a cell before answering that it still runs, unless its pragma says. */
  readonly defaultExecYieldTimeMs: number;
  /** Namespaces (`mcp__docs`) whose tools cells do not get. */
  readonly excludedToolNamespaces: readonly string[];
  /** Namespaces the model calls directly, offered in `additional_tools` beside `exec`. */
  readonly directOnlyToolNamespaces: readonly string[];
  /** Input schemas longer than this (JSON bytes) are not spelled out in the `exec` declarations; unset, no limit. */
  readonly toolInputSchemaMaxBytes: number | undefined;
}

/** Codex's default yield of an `exec` cell. */
export const DEFAULT_EXEC_YIELD_TIME_MS = 30_000;

/** Freezes a value and everything reachable from it (plain data only). */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
