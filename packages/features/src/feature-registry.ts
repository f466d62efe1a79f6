// The feature registry: every flag Codex 0.171.0 knows (same key, stage and default) plus Skein's own,
// each with a one-line description of ours and whether Skein acts on it yet.

import type { FeatureStage } from './feature-stage.js';

/** One registered feature flag; `K` is its key's literal type inside the registry. */
export interface FeatureSpec<K extends string = string> {
  /** The key under `[features]` in config.toml, exactly as Codex spells it. */
  readonly key: K;
  /** Lifecycle stage; Codex's for Codex keys. */
  readonly stage: FeatureStage;
  /** The state when no config layer sets the key; Codex's for Codex keys. */
  readonly defaultEnabled: boolean;
  /** One line, in Skein's words. */
  readonly description: string;
  /** Whether Skein acts on it (else: listed so configs that set it load). */
  readonly actedOn: boolean;
}

/** A Codex key Skein lists so configs that set it load, without acting on it. */
function listed<const K extends string>(key: K, stage: FeatureStage, defaultEnabled: boolean, description: string): FeatureSpec<K> {
  return Object.freeze({ key, stage, defaultEnabled, description, actedOn: false });
}

/** A key Skein acts on (for Codex keys: with Codex's stage and default). */
function acted<const K extends string>(key: K, stage: FeatureStage, defaultEnabled: boolean, description: string): FeatureSpec<K> {
  return Object.freeze({ key, stage, defaultEnabled, description, actedOn: true });
}

/**
 * Every feature Skein knows, sorted by key (UTF-16 code unit order, as `codex features list`).
 * Removed keys stay so old configs still load; setting one only produces a warning.
 */
export const FEATURE_REGISTRY = Object.freeze([
  listed('agent_message_board', 'underDevelopment', false, 'A board where the agents of one session leave messages for each other.'),
  listed('agent_message_board_mcp', 'underDevelopment', false, 'Serves the agent message board through MCP.'),
  listed('analytics_plan_history', 'beta', false, 'Past plan allowance usage in the analytics screen.'),
  listed('api_key_cyber_access_programs', 'stable', true, 'Cyber access programs for accounts that sign in with an API key.'),
  listed('api_key_model_discovery', 'stable', true, 'Looks up the available models for API-key accounts.'),
  listed('app_server_websocket_compression', 'underDevelopment', false, 'Compresses app-server WebSocket frames.'),
  listed('apply_patch_freeform', 'removed', false, 'Offered apply_patch as a grammar-constrained freeform tool.'),
  listed('apply_patch_preserve_line_endings', 'removed', false, 'Kept a file\'s line endings when patching it.'),
  listed('apply_patch_streaming_events', 'underDevelopment', false, 'Emits patch progress events while apply_patch runs.'),
  listed('apps', 'stable', true, 'Connector (app) integrations.'),
  listed('apps_early_resource_discovery', 'underDevelopment', false, 'Looks up app resources before a tool asks for them.'),
  listed('apps_mcp_path_override', 'removed', false, 'Pointed the apps MCP client at a different path.'),
  listed('artifact', 'underDevelopment', false, 'Artifacts produced by a turn.'),
  listed('async_compaction', 'underDevelopment', false, 'Compacts history in the background instead of pausing the turn.'),
  listed('async_compaction_root_only', 'underDevelopment', false, 'Restricts background compaction to the root agent.'),
  listed('auth_elicitation', 'stable', true, 'Asks the user to sign in when a tool call needs credentials.'),
  acted('auto_compaction', 'stable', true, 'Skein\'s own: compact history automatically near the context limit; when off, only manual compaction runs.'),
  listed('background_paginated_rollout_migration', 'underDevelopment', false, 'Rewrites older rollout files into the paginated layout in the background.'),
  listed('bedrock_setup_wizard', 'stable', true, 'Step-by-step setup of an Amazon Bedrock provider.'),
  listed('browser_annotation_api', 'stable', true, 'Annotations in the built-in browser.'),
  listed('browser_use', 'stable', true, 'Lets the agent operate a web browser.'),
  listed('browser_use_external', 'stable', true, 'Lets the agent operate a browser outside the app.'),
  listed('browser_use_full_cdp_access', 'stable', true, 'Unrestricted Chrome DevTools Protocol access for browser control.'),
  listed('catalog_apps_instructions', 'underDevelopment', false, 'Adds guidance about catalog apps to the model\'s context.'),
  listed('chronicle', 'underDevelopment', false, 'Codex\'s chronicle of session activity.'),
  listed('cli_daybreak', 'stable', true, 'The Daybreak programme in the command-line client.'),
  listed('cli_resume_account_check', 'underDevelopment', false, 'Checks the signed-in account before a thread is resumed.'),
  listed('code_mode', 'underDevelopment', false, 'The model works through one code-running tool that calls the other tools.'),
  listed('code_mode_buffered_exec', 'removed', false, 'Buffered command output inside code mode.'),
  listed('code_mode_host', 'stable', true, 'Runs code-mode cells in a separate host process.'),
  listed('code_mode_host_grpc', 'stable', true, 'Talks to the code-mode host over gRPC.'),
  listed('code_mode_host_output_truncation', 'stable', true, 'Caps the output the code-mode host returns.'),
  listed('code_mode_interrupt', 'stable', true, 'An interrupt stops a running code-mode cell.'),
  listed('code_mode_only', 'underDevelopment', false, 'Offers the model nothing but the code-mode tool.'),
  listed('code_mode_only_strict_3p_tools', 'underDevelopment', false, 'Stricter treatment of third-party tools when only code mode is offered.'),
  listed('code_mode_prewarm', 'underDevelopment', false, 'Starts the code-mode runtime ahead of its first use.'),
  listed('code_mode_tool_description_first', 'removed', false, 'Put tool descriptions ahead of other code-mode guidance.'),
  listed('code_mode_tool_search', 'underDevelopment', false, 'Tool search from inside code mode.'),
  listed('codex_apps_mcp_2026_07_28', 'underDevelopment', false, 'The 2026-07-28 revision of the apps MCP server.'),
  listed('codex_git_commit', 'removed', false, 'Let the agent record git commits.'),
  listed('collaboration_modes', 'removed', true, 'Switchable collaboration modes such as planning.'),
  listed('command_sessions_world_state', 'underDevelopment', false, 'Lists running command sessions in the world-state context.'),
  listed('compaction_image_budget', 'stable', true, 'Limits the images kept when history is compacted.'),
  listed('computer_use', 'stable', true, 'Lets the agent operate a desktop.'),
  listed('concurrent_reasoning_summaries', 'underDevelopment', false, 'Builds reasoning summaries in parallel.'),
  listed('content_item_kinds', 'stable', true, 'Marks each content item with its kind.'),
  listed('context_management', 'underDevelopment', false, 'Experimental handling of long contexts.'),
  listed('credential_masking', 'underDevelopment', false, 'Hides credentials that appear in tool output.'),
  listed('critical_path_timing', 'underDevelopment', false, 'Measures where a turn spends its time.'),
  acted('current_time_reminder', 'underDevelopment', false, 'Reminds the model of the current time as a turn goes on.'),
  listed('cwd_relative_turn_diffs', 'underDevelopment', false, 'Shows turn diffs with paths relative to the working directory.'),
  listed('daemon_auto_start', 'stable', true, 'Starts the background daemon when it is needed.'),
  listed('daybreak_program_propagation', 'underDevelopment', false, 'Passes Daybreak programme membership on.'),
  listed('default_mode_request_user_input', 'underDevelopment', false, 'The request-user-input tool outside plan mode.'),
  listed('defer_mailbox_preemption', 'underDevelopment', false, 'Holds agent mailbox messages until a turn ends instead of preempting it.'),
  acted('deferred_executor', 'underDevelopment', false, 'Starts turns while a remote environment is still connecting: the model is told it is starting and can wait for it with wait_for_environment.'),
  listed('deferred_tool_world_state', 'stable', true, 'Lists deferred tools in the world-state context.'),
  listed('elevated_windows_sandbox', 'removed', false, 'A Windows sandbox that ran with elevation.'),
  listed('enable_fanout', 'removed', false, 'Fanned one task out to several agents.'),
  listed('enable_mcp_apps', 'underDevelopment', false, 'Apps delivered as MCP servers.'),
  listed('enable_request_compression', 'stable', true, 'Compresses request bodies sent to the model provider.'),
  listed('exec_permission_approvals', 'underDevelopment', false, 'Approval prompts when a command asks for more permissions.'),
  listed('executed_tool_call_metadata', 'underDevelopment', false, 'Attaches metadata to tool calls once they have run.'),
  listed('executor_capability_discovery', 'underDevelopment', false, 'Asks an executor what it can do.'),
  listed('executor_capability_discovery_v2', 'underDevelopment', false, 'The second form of executor capability discovery.'),
  listed('experimental_windows_sandbox', 'removed', false, 'An early Windows sandbox.'),
  listed('external_agent_memory_import', 'underDevelopment', false, 'Imports memories kept by other agent tools.'),
  listed('external_migration', 'removed', false, 'Migrated settings from other tools.'),
  listed('fast_mode', 'stable', true, 'Choosing a faster service tier where the model offers one.'),
  listed('file_backed_tool_audio', 'underDevelopment', false, 'Keeps tool audio in files rather than inline.'),
  listed('gateway_setup_wizard', 'stable', false, 'Step-by-step setup of a gateway provider.'),
  listed('gcp_setup_wizard', 'stable', false, 'Step-by-step setup of a Google Cloud provider.'),
  acted('goals', 'stable', true, 'A thread can hold a goal and keeps working towards it across turns.'),
  listed('guardian_approval', 'stable', true, 'An automatic reviewer that answers approval requests.'),
  listed('guardian_conversation_history_tools', 'underDevelopment', false, 'Gives the approval reviewer tools to read the conversation.'),
  listed('guardian_denial_reconsideration', 'underDevelopment', false, 'Lets the approval reviewer revisit a denial.'),
  listed('guardian_enhanced_node_repl_transcripts', 'underDevelopment', false, 'Fuller Node REPL transcripts for the approval reviewer.'),
  listed('guardian_ext', 'removed', false, 'The approval reviewer as an extension.'),
  listed('guardian_include_additional_context', 'stable', true, 'Gives the approval reviewer extra context.'),
  listed('guardian_native_multi_agent_history', 'underDevelopment', false, 'Multi-agent history in its native form for the approval reviewer.'),
  listed('guardian_nested_approval_context', 'underDevelopment', false, 'Context of nested approvals for the approval reviewer.'),
  listed('guardian_node_repl_transcript_images', 'underDevelopment', false, 'Images from Node REPL transcripts for the approval reviewer.'),
  listed('guardian_recorded_items', 'underDevelopment', false, 'Records what the approval reviewer was shown.'),
  listed('guardian_reuse_parent_compaction', 'stable', true, 'The approval reviewer starts from its parent\'s compacted history.'),
  listed('guardian_root_handoff_context', 'underDevelopment', false, 'Context the root agent hands to the approval reviewer.'),
  listed('guardian_trust_orchestrator_connectors', 'underDevelopment', false, 'The approval reviewer trusts orchestrator connectors.'),
  listed('guardianv2', 'underDevelopment', false, 'The second approval reviewer.'),
  listed('guardianv2.thread_context', 'removed', false, 'Thread context for the second approval reviewer.'),
  listed('guardianv2_decisions_comparison', 'underDevelopment', false, 'Compares the second approval reviewer\'s decisions with the first\'s.'),
  listed('guardianv3', 'underDevelopment', false, 'The third approval reviewer.'),
  listed('hooks', 'stable', true, 'User hooks that run at points in a turn\'s life.'),
  listed('hosted_search_policy', 'underDevelopment', false, 'Policy for provider-hosted web search.'),
  listed('image_detail_original', 'removed', false, 'Sent images at their original detail.'),
  listed('image_generation', 'stable', true, 'An image generation tool.'),
  listed('image_generation_animation', 'underDevelopment', false, 'Animated output from image generation.'),
  listed('image_resize_notice', 'underDevelopment', false, 'Tells the model when an image was scaled down.'),
  listed('in_app_browser', 'stable', true, 'A browser inside the desktop app.'),
  listed('in_app_chat', 'stable', true, 'Chat inside the desktop app.'),
  listed('in_app_dictation', 'stable', true, 'Dictation inside the desktop app.'),
  listed('in_app_local_automation', 'stable', true, 'Local automations inside the desktop app.'),
  listed('in_app_updates', 'stable', true, 'Updating from inside the desktop app.'),
  listed('in_app_voice', 'stable', true, 'Voice input inside the desktop app.'),
  listed('incremental_exec_tools', 'underDevelopment', false, 'Command tools defined incrementally.'),
  listed('incremental_tools', 'stable', true, 'Sends only changed tool definitions between requests.'),
  listed('incremental_tools_legacy', 'stable', true, 'The older way of sending tool definitions incrementally.'),
  listed('incremental_tools_legacy_gcp', 'stable', true, 'The older incremental tool definitions for Google Cloud providers.'),
  listed('instant_interrupt', 'underDevelopment', true, 'An interrupt ends the turn at once.'),
  listed('interrupt_on_cancel', 'underDevelopment', false, 'Cancelling counts as interrupting the turn.'),
  listed('item_ids', 'removed', true, 'Ids on history items; Skein gives every item an id, so setting this changes nothing.'),
  listed('js_repl', 'removed', false, 'A JavaScript REPL tool.'),
  listed('js_repl_tools_only', 'removed', false, 'Offered only the JavaScript REPL\'s tools.'),
  listed('local_thread_store_compression', 'underDevelopment', false, 'Compresses the local thread store.'),
  listed('local_thread_store_shared_compression', 'removed', false, 'A shared dictionary for the compressed local thread store.'),
  listed('login_shell_package_path', 'beta', false, 'Restores the bundled tool directory on PATH inside login shells.'),
  listed('mcp_2026_07_28', 'underDevelopment', false, 'The 2026-07-28 revision of the MCP protocol.'),
  listed('mcp_connection_sharing', 'underDevelopment', false, 'Threads share connections to the same MCP server.'),
  listed('mcp_lazy_stdio_startup', 'underDevelopment', false, 'Starts stdio MCP servers when first used.'),
  listed('mcp_oauth_refresh_coordination', 'stable', true, 'Coordinates MCP OAuth token refreshes between processes.'),
  listed('mcp_shared_repl_cwd', 'underDevelopment', false, 'MCP servers share the REPL\'s working directory.'),
  listed('mcp_tool_list_changed', 'underDevelopment', false, 'Picks up MCP tool-list change notifications.'),
  listed('memories', 'stable', false, 'Memories carried from one thread to later ones.'),
  listed('mentions_v2', 'stable', true, 'The second form of @-mentions.'),
  listed('model_catalog_in_context', 'underDevelopment', false, 'Tells the model which models it can hand work to.'),
  acted('multi_agent', 'deprecated', true, 'The first multi-agent tools (multi_agent_v1, behind tool_search, for models not trained on v2).'),
  listed('multi_agent_mode', 'removed', false, 'A multi-agent mode switch, superseded by multi_agent_v2.'),
  acted('multi_agent_v2', 'stable', false, 'The second multi-agent tools: spawning and messaging sub-agents.'),
  listed('multi_agent_v2_dynamic_tools', 'underDevelopment', false, 'Dynamic tools for the second multi-agent tools.'),
  listed('multi_env_copy_file', 'underDevelopment', false, 'Copying files between environments.'),
  listed('multi_environment_mcp', 'underDevelopment', false, 'MCP servers that span several environments.'),
  listed('network_proxy', 'beta', false, 'Routes sandboxed network access through a filtering proxy.'),
  listed('non_prefixed_mcp_tool_names', 'underDevelopment', false, 'MCP tools keep their names without the server prefix.'),
  listed('nonfatal_clock_read_errors', 'underDevelopment', false, 'A failure to read the clock does not fail the turn.'),
  listed('omit_app_server_notification_media', 'underDevelopment', false, 'Leaves media out of app-server notifications.'),
  listed('omit_skill_descriptions', 'underDevelopment', false, 'Leaves skill descriptions out of the context.'),
  listed('output_token_replay', 'underDevelopment', false, 'Replays output tokens into later requests.'),
  listed('per_environment_context', 'underDevelopment', false, 'Separate context for each environment.'),
  listed('personality', 'removed', false, 'A choice of personality.'),
  listed('plugin_discovery_prefetch', 'removed', false, 'Fetched plugin listings ahead of time.'),
  listed('plugin_hooks', 'removed', false, 'Hooks contributed by plugins.'),
  listed('plugin_sharing', 'stable', true, 'Sharing plugins with others.'),
  acted('plugins', 'stable', true, 'Plugins.'),
  listed('powershell_shell_version', 'underDevelopment', false, 'Detects which PowerShell is in use.'),
  listed('prediction_preserve_parent_tools', 'stable', true, 'Predictions keep their parent\'s tool set.'),
  listed('prefer_mxc', 'underDevelopment', false, 'Prefers MXC where it is available.'),
  listed('prevent_idle_sleep', 'beta', false, 'Blocks system sleep while a turn runs.'),
  listed('psp', 'underDevelopment', false, 'Codex\'s PSP flag.'),
  listed('realtime_conversation', 'removed', true, 'Spoken conversation in real time.'),
  listed('reasoning_effort_override', 'stable', true, 'Changing the reasoning effort for a single turn.'),
  acted('recommended_plugins', 'stable', false, 'Suggests plugins worth installing.'),
  listed('remote_compaction_v2', 'removed', false, 'The second provider-side compaction.'),
  listed('remote_control', 'removed', false, 'Controlling a session from another device.'),
  listed('remote_models', 'removed', false, 'Fetched the model list from the service.'),
  listed('remote_plugin', 'stable', true, 'A plugin catalogue served remotely.'),
  listed('request_permissions_tool', 'underDevelopment', false, 'A tool the model calls to ask for more permissions.'),
  listed('request_rule', 'removed', false, 'Let the model ask for a new command policy rule.'),
  listed('resize_all_images', 'removed', true, 'Scaled every image down before sending it.'),
  listed('respect_system_proxy', 'beta', false, 'Uses the operating system\'s proxy settings.'),
  listed('responses_websockets', 'removed', false, 'Spoke to the Responses API over WebSocket.'),
  listed('responses_websockets_v2', 'removed', false, 'The second Responses-over-WebSocket transport.'),
  listed('restored_history_prewarm', 'underDevelopment', false, 'Warms up a resumed thread\'s history ahead of its first turn.'),
  listed('retain_client_developer_messages', 'underDevelopment', false, 'Keeps developer messages a client supplies.'),
  listed('retain_client_tool_outputs', 'stable', true, 'Keeps tool outputs a client supplies.'),
  acted('rollout_budget', 'underDevelopment', false, 'A token allowance for the whole rollout, with reminders as it is used up; configured under [features.rollout_budget].'),
  listed('runtime_agent_instances', 'underDevelopment', false, 'Agent instances created while a session runs.'),
  listed('runtime_metrics', 'underDevelopment', false, 'Metrics gathered while a session runs.'),
  listed('safe_image_decoder', 'underDevelopment', false, 'Decodes images with a hardened decoder.'),
  listed('search_tool', 'removed', false, 'An earlier search tool.'),
  listed('secret_auth_storage', 'stable', false, 'Keeps credentials in the system secret store.'),
  listed('send_async_message', 'removed', false, 'Sent messages without waiting for a reply.'),
  listed('send_message_to_user_async', 'underDevelopment', false, 'The agent tells the user something while it keeps working.'),
  acted('shell_snapshot', 'stable', true, 'Captures the environment a login shell sets up once per environment and cwd; later commands run without the profile scripts.'),
  listed('shell_snapshot_v2', 'underDevelopment', false, 'The second way of capturing the shell environment.'),
  acted('shell_tool', 'stable', true, 'The shell command tool.'),
  listed('shell_zsh_fork', 'removed', false, 'Ran shell commands through a forked zsh.'),
  listed('simplified_selection_hints', 'underDevelopment', false, 'Shorter hints about what is selected.'),
  listed('skill_catalog_deltas', 'underDevelopment', false, 'Sends only the changes to the skill catalogue.'),
  listed('skill_env_var_dependency_prompt', 'removed', false, 'Asked for environment variables a skill depends on.'),
  listed('skill_mcp_dependency_install', 'stable', true, 'Offers to install MCP servers a skill depends on.'),
  listed('skill_search', 'stable', true, 'Searching the available skills.'),
  listed('skip_host_skill_discovery', 'underDevelopment', false, 'Does not look for skills on the host machine.'),
  listed('sleep_tool', 'stable', true, 'A tool the model calls to wait.'),
  listed('sqlite', 'removed', true, 'Kept state in SQLite.'),
  listed('stable_environment_tools', 'removed', false, 'A fixed set of environment tools.'),
  listed('standalone_web_search', 'underDevelopment', false, 'Web search as a tool of its own.'),
  listed('steer', 'removed', true, 'Steering a running turn with new input.'),
  acted('step_model_switching', 'underDevelopment', false, 'Changing the model between steps of a turn.'),
  listed('subagent_default_context_limits', 'underDevelopment', false, 'Default context limits for sub-agents.'),
  listed('subagent_thread_environments', 'underDevelopment', false, 'Sub-agent threads get environments of their own.'),
  listed('suppress_model_change_announcements', 'stable', false, 'Does not announce model changes.'),
  listed('system_proxy_fallback', 'stable', true, 'Falls back to the system proxy when no other is configured.'),
  listed('terminal_resize_reflow', 'removed', true, 'Reflowed output when the terminal was resized.'),
  listed('terminal_visualization_instructions', 'underDevelopment', false, 'Guidance for drawing visualisations in a terminal.'),
  acted('token_budget', 'underDevelopment', false, 'Context-window budgeting with a reminder before the window runs out; configured under [features.token_budget].'),
  listed('tool_call_mcp_elicitation', 'stable', true, 'MCP servers may ask the user questions during a tool call.'),
  listed('tool_search', 'removed', false, 'A search tool over deferred tools; gone, setting it changes nothing.'),
  listed('tool_search_always_defer_mcp_tools', 'removed', true, 'Always hid MCP tools behind tool search.'),
  acted('tool_suggest', 'stable', true, 'Suggests connectors or plugins to install.'),
  listed('transcript_v2', 'removed', false, 'The second transcript format.'),
  listed('tui_app_server', 'removed', true, 'Ran the terminal UI on top of the app server.'),
  listed('tui_extensions_statusline', 'beta', false, 'A status line supplied by terminal UI extensions.'),
  listed('tui_multi_backend', 'underDevelopment', false, 'One terminal UI for several backends.'),
  listed('tui_workspace', 'stable', true, 'The workspace view of the terminal UI.'),
  listed('ultrafast_mode', 'stable', true, 'The quickest service tier where the model offers it.'),
  listed('unavailable_dummy_tools', 'removed', false, 'Put placeholders in for tools that were unavailable.'),
  listed('unbounded_connection_retries', 'stable', true, 'Keeps retrying a lost connection without a limit.'),
  listed('undo', 'removed', false, 'Undoing the agent\'s changes.'),
  acted('unified_exec', 'stable', true, 'One PTY-backed tool for running and talking to commands.'),
  listed('unified_exec_tty', 'stable', true, 'Gives unified exec commands a terminal.'),
  listed('unified_exec_zsh_fork', 'removed', false, 'Ran unified exec through a forked zsh.'),
  listed('unified_image_budget', 'stable', true, 'One shared limit for images in a request.'),
  listed('untrusted_as_tool_output', 'stable', true, 'Delivers untrusted content as tool output rather than as instructions.'),
  listed('use_agent_identity', 'underDevelopment', false, 'An identity of the agent\'s own.'),
  listed('use_legacy_landlock', 'deprecated', false, 'The older Landlock sandbox on Linux.'),
  listed('use_linux_sandbox_bwrap', 'removed', false, 'Chose bubblewrap for the Linux sandbox.'),
  listed('use_xaa', 'underDevelopment', false, 'Codex\'s XAA flag.'),
  listed('utc_environment_date', 'underDevelopment', false, 'Gives the date in UTC in the environment context.'),
  acted('view_image', 'stable', true, 'A tool that shows the model an image file.'),
  listed('wake_on_agent_messages', 'underDevelopment', false, 'An idle agent wakes when another agent messages it.'),
  listed('web_search_cached', 'deprecated', false, 'Old switch for web search from a cache.'),
  acted('web_search_request', 'deprecated', false, 'Old switch for live web search; `web_search = "live"` replaces it, and wins when both are set.'),
  listed('windows_sandbox_service', 'underDevelopment', false, 'A service that runs the Windows sandbox.'),
  listed('workspace_dependencies', 'stable', true, 'Dependencies declared by the workspace.'),
  listed('workspace_owner_usage_nudge', 'removed', false, 'Reminded workspace owners about usage.'),
  listed('worktrees', 'removed', true, 'Git worktrees for threads.'),
  listed('write_stdin_approval', 'stable', true, 'Asks for approval before writing to a running command\'s input.'),
] as const) satisfies readonly FeatureSpec[];

/**
 * A key the registry knows, as a type: code that asks for a feature by name gets a compile error
 * for a typo instead of a silent `false`. Keys from config or the command line are plain strings;
 * check them with {@link isFeatureKey} (or {@link featureSpec}) first.
 */
export type FeatureKey = (typeof FEATURE_REGISTRY)[number]['key'];

const BY_KEY: ReadonlyMap<string, FeatureSpec<FeatureKey>> = new Map(FEATURE_REGISTRY.map((spec) => [spec.key, spec]));

/** Whether `key` (from config, a flag, a client) names a registered feature (case-sensitive, as Codex). */
export function isFeatureKey(key: string): key is FeatureKey {
  return BY_KEY.has(key);
}

/** The registered feature with this key. */
export function featureSpec(key: FeatureKey): FeatureSpec<FeatureKey>;
/** The registered feature with this exact key (case-sensitive, as Codex), or undefined for a string from outside. */
export function featureSpec(key: string): FeatureSpec<FeatureKey> | undefined;
export function featureSpec(key: string): FeatureSpec<FeatureKey> | undefined {
  return BY_KEY.get(key);
}
