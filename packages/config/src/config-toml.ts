// The schema of config.toml for the keys Skein acts on. Every key is optional (a layer sets some of
// them); nested tables ignore fields they do not model, as Codex's reader does.
import * as z from 'zod';
import { ToolsToml, WebSearchModeToml } from './web-search-settings.js';
import { RealtimeToml, realtimeTopLevelKeys } from './realtime-settings.js';
import { CheckpointsToml, GhostSnapshotToml } from './checkpoint-settings.js';
import { ThreadStoreToml } from './thread-store-settings.js';
import { MarketplaceToml, PluginToml, ToolSuggestToml } from './plugin-settings.js';

const absolutePath = z.string().refine((value) => value.startsWith('/') || /^[A-Za-z]:[\\/]/.test(value), {
  message: 'expected an absolute path',
});
const httpUrl = z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' });
const stringMap = z.record(z.string(), z.string());
// Codex caps retries so a typo cannot make a request loop for hours.
const retries = z.int().min(0).max(100);

/** `approval_policy`: a named policy (with Codex's legacy `on-failure`) or the granular table. */
export const ApprovalPolicyToml = z.union([
  z.enum(['untrusted', 'on-failure', 'on-request', 'never']),
  z.strictObject({
    granular: z.strictObject({
      sandbox_approval: z.boolean(),
      rules: z.boolean(),
      mcp_elicitations: z.boolean(),
      request_permissions: z.boolean().optional(),
      skill_approval: z.boolean().optional(),
    }),
  }),
]);
export type ApprovalPolicyToml = z.infer<typeof ApprovalPolicyToml>;

export const SandboxModeToml = z.enum(['read-only', 'workspace-write', 'danger-full-access']);
export type SandboxModeToml = z.infer<typeof SandboxModeToml>;

/** `[sandbox_workspace_write]`: what `workspace-write` may write besides the cwd. */
export const SandboxWorkspaceWriteToml = z.object({
  writable_roots: z.array(absolutePath).optional(),
  network_access: z.boolean().optional(),
  exclude_tmpdir_env_var: z.boolean().optional(),
  exclude_slash_tmp: z.boolean().optional(),
});
export type SandboxWorkspaceWriteToml = z.infer<typeof SandboxWorkspaceWriteToml>;

/** `[model_providers.<id>]`: a Responses API endpoint and how to talk to it. */
export const ModelProviderToml = z.object({
  name: z.string().min(1).optional(),
  base_url: httpUrl.optional(),
  /** Environment variable whose value is sent as `Authorization: Bearer …`. */
  env_key: z.string().min(1).optional(),
  env_key_instructions: z.string().optional(),
  wire_api: z
    .string()
    .refine((value) => value === 'responses', {
      error: (issue) =>
        issue.input === 'chat'
          ? 'wire_api = "chat" is not supported (Codex dropped it too); use "responses"'
          : 'expected "responses"',
    })
    .optional(),
  query_params: stringMap.optional(),
  http_headers: stringMap.optional(),
  /** Header name → environment variable holding its value. */
  env_http_headers: stringMap.optional(),
  request_max_retries: retries.optional(),
  stream_max_retries: retries.optional(),
  stream_idle_timeout_ms: z.int().positive().optional(),
  requires_openai_auth: z.boolean().optional(),
  supports_websockets: z.boolean().optional(),
});
export type ModelProviderToml = z.infer<typeof ModelProviderToml>;

/** `[shell_environment_policy]`: which environment variables commands inherit. */
export const ShellEnvironmentPolicyToml = z.object({
  inherit: z.enum(['all', 'core', 'none']).optional(),
  ignore_default_excludes: z.boolean().optional(),
  exclude: z.array(z.string()).optional(),
  include_only: z.array(z.string()).optional(),
  set: stringMap.optional(),
  experimental_use_profile: z.boolean().optional(),
});
export type ShellEnvironmentPolicyToml = z.infer<typeof ShellEnvironmentPolicyToml>;

/** `auto` decides by the tool's hints and the thread's approval policy; `prompt` always asks; `approve` never asks. */
export const McpToolApprovalMode = z.enum(['auto', 'prompt', 'approve']);
export type McpToolApprovalMode = z.infer<typeof McpToolApprovalMode>;

const mcpCommon = {
  enabled: z.boolean().optional(),
  required: z.boolean().optional(),
  startup_timeout_sec: z.number().positive().optional(),
  tool_timeout_sec: z.number().positive().optional(),
  enabled_tools: z.array(z.string()).optional(),
  disabled_tools: z.array(z.string()).optional(),
  /** How calls of this server's tools are approved unless `[mcp_servers.<name>.tools.<tool>]` says otherwise. */
  default_tools_approval_mode: McpToolApprovalMode.optional(),
  /** Per-tool settings: `[mcp_servers.<name>.tools.<tool>] approval_mode = …`. */
  tools: z.record(z.string(), z.object({ approval_mode: McpToolApprovalMode.optional() })).optional(),
  /** Calls of this server's tools may run alongside other parallel-safe calls of one response. */
  supports_parallel_tool_calls: z.boolean().optional(),
  /** The environment the server runs in (`local` unless set). */
  environment_id: z.string().min(1).optional(),
  /** Skein's own (Codex ignores it): the server serves skills as `mcp/skill` resources to list in the catalog. */
  skein_skill_source: z.boolean().optional(),
};

/** `[mcp_servers.<name>]`: a stdio server (`command`) or a streamable HTTP server (`url`). */
export const McpServerToml = z.union([
  z.object({
    ...mcpCommon,
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    env: stringMap.optional(),
    env_vars: z.array(z.string()).optional(),
    cwd: z.string().optional(),
  }),
  z.object({
    ...mcpCommon,
    url: httpUrl,
    bearer_token_env_var: z.string().optional(),
    http_headers: stringMap.optional(),
    env_http_headers: stringMap.optional(),
  }),
]);
export type McpServerToml = z.infer<typeof McpServerToml>;

/** Every key a `[mcp_servers.<name>]` table may hold (either kind). */
export const MCP_SERVER_KEYS: ReadonlySet<string> = new Set(McpServerToml.options.flatMap((option) => Object.keys(option.shape)));

const toggle = z.object({ enabled: z.boolean().optional() });

/** One `[[skills.config]]` entry. */
export const SkillToggleToml = z
  .object({ path: z.string().min(1).optional(), name: z.string().min(1).optional(), enabled: z.boolean() })
  .refine((entry) => entry.path !== undefined || entry.name !== undefined, { error: 'a [[skills.config]] entry names a skill by `path` or `name`' });
export type SkillToggleToml = z.infer<typeof SkillToggleToml>;

/** The keys a profile or a config layer may set. */
const settings = {
  model: z.string().min(1).optional(),
  model_provider: z.string().min(1).optional(),
  model_providers: z.record(z.string(), ModelProviderToml).optional(),
  openai_base_url: httpUrl.optional(),
  approval_policy: ApprovalPolicyToml.optional(),
  sandbox_mode: SandboxModeToml.optional(),
  sandbox_workspace_write: SandboxWorkspaceWriteToml.optional(),
  model_reasoning_effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']).optional(),
  model_reasoning_summary: z.enum(['auto', 'concise', 'detailed', 'none']).optional(),
  model_verbosity: z.enum(['low', 'medium', 'high']).optional(),
  model_auto_compact_token_limit: z.int().positive().optional(),
  model_context_window: z.int().positive().optional(),
  developer_instructions: z.string().optional(),
  /** Replaces the base instructions (legacy spelling; `model_instructions_file` names a file instead). */
  instructions: z.string().optional(),
  model_instructions_file: z.string().min(1).optional(),
  project_doc_max_bytes: z.int().min(0).optional(),
  /** Tokens of one tool output kept in history before its middle is cut. */
  tool_output_token_limit: z.int().positive().optional(),
  shell_environment_policy: ShellEnvironmentPolicyToml.optional(),
  orchestrator: z.object({ skills: toggle.optional(), mcp: toggle.optional() }).optional(),
  /** `[[skills.config]]`: skills switched on or off, by SKILL.md path or by name (as `skills/config/write` records them). */
  skills: z.looseObject({ config: z.array(SkillToggleToml).optional() }).optional(),
  /**
   * `[[hooks.<Event>]]` matcher groups and `[hooks.state."<key>"]` trust, read by @skein/hooks, which
   * reports a bad entry as a hooks/list error rather than failing the whole config.
   */
  hooks: z.record(z.string(), z.unknown()).optional(),
  mcp_servers: z.record(z.string(), McpServerToml).optional(),
  /** `[agents]`: how sub-agents (multi-agent v2) are spawned. Role tables (`[agents.<role>]`) pass through. */
  agents: z
    .looseObject({
      max_depth: z.int().min(1).optional(),
      default_subagent_model: z.string().min(1).optional(),
      job_max_runtime_seconds: z.int().min(1).optional(),
    })
    .optional(),
  /** `[code_mode]`: how a code-mode model's `exec` cells run and which tools they call. */
  code_mode: z
    .looseObject({
      /** How long `exec` waits for a cell before answering that it still runs (a pragma may say otherwise). */
      default_exec_yield_time_ms: z.int().min(0).max(600_000).optional(),
      /** Tool namespaces cells do not get (`mcp__docs`, say). */
      excluded_tool_namespaces: z.array(z.string().min(1)).optional(),
      /** Tool namespaces the model calls directly, offered beside `exec` rather than inside cells. */
      direct_only_tool_namespaces: z.array(z.string().min(1)).optional(),
      /** A tool whose input schema is longer (as JSON) is declared to cells without its parameter types. */
      tool_input_schema_max_bytes: z.int().positive().optional(),
    })
    .optional(),
  /** `[goals]`: thread goals (`max_goal_token_budget`: the largest token budget a goal may have). */
  goals: z.looseObject({ max_goal_token_budget: z.int().positive().optional() }).optional(),
  /** `[realtime]`: how realtime conversations start (see realtime-settings.ts). */
  realtime: RealtimeToml.optional(),
  ...realtimeTopLevelKeys,
  /** Hosted web search: `cached` (the default), `live`, `indexed` or `disabled`. */
  web_search: WebSearchModeToml.optional(),
  /** `[tools]`: settings of the built-in tools (`[tools.web_search]`). */
  tools: ToolsToml.optional(),
  /** `[ghost_snapshot]`: Codex's undo-snapshot caps, the defaults of Skein's checkpoints. */
  ghost_snapshot: GhostSnapshotToml.optional(),
  /** Raw `[features]` table; @skein/features validates it. */
  features: z.record(z.string(), z.unknown()).optional(),
  /** `[skein]`: settings of Skein's own, which Codex ignores. */
  skein: z
    .object({
      /** Extensions to load: package names (resolved from this file's directory) or paths relative to it. */
      extensions: z.array(z.string().min(1, 'an extension spec cannot be empty')).optional(),
      /** `[skein.checkpoints]`: file checkpoints before turns write (see checkpoint-settings.ts). */
      checkpoints: CheckpointsToml.optional(),
      /** `[skein.thread_store]`: where threads are kept (see thread-store-settings.ts). */
      thread_store: ThreadStoreToml.optional(),
      /** Plugins worth suggesting: an `http(s)://` URL or an absolute file answering as Codex's recommendations endpoint. */
      plugin_recommendations: z.string().min(1).optional(),
    })
    .optional(),
};

/** `[profiles.<name>]`: a named set of overrides selected with `--profile` or `profile = "…"`. */
export const ProfileToml = z.object(settings);
export type ProfileToml = z.infer<typeof ProfileToml>;

/** `[projects."<abs path>"]`: whether a project's own `.codex/config.toml` may be loaded. */
export const ProjectToml = z.object({ trust_level: z.enum(['trusted', 'untrusted']).optional() });
export type ProjectToml = z.infer<typeof ProjectToml>;

/** One config layer (a file, or the `-c` overrides) as Skein reads it. Unmodelled top-level keys pass through. */
export const ConfigToml = z.looseObject({
  ...settings,
  profile: z.string().min(1).optional(),
  profiles: z.record(z.string(), ProfileToml).optional(),
  projects: z.record(z.string(), ProjectToml).optional(),
  /** Files whose presence marks a project root (default `[".git"]`). */
  project_root_markers: z.array(z.string().min(1)).optional(),
  /** `[marketplaces.<name>]`: plugin marketplaces (see plugin-settings.ts). */
  marketplaces: z.record(z.string(), MarketplaceToml).optional(),
  /** `[plugins."<plugin>@<marketplace>"]`: installed plugins. */
  plugins: z.record(z.string(), PluginToml).optional(),
  /** `[tool_suggest]`: plugins (and connectors) the model may suggest installing, listed by `list_available_plugins_to_install`. */
  tool_suggest: ToolSuggestToml.optional(),
});
export type ConfigToml = z.infer<typeof ConfigToml>;

/** The top-level keys Skein acts on. */
export const SKEIN_CONFIG_KEYS: ReadonlySet<string> = new Set(Object.keys(ConfigToml.shape));
