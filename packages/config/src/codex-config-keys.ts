// The top-level keys Codex 0.171.0 knows (its `config/read`), so a Codex config that sets one Skein
// does not act on yet loads with a notice instead of an "unknown key" warning — or silently, for the
// settings of Codex's own clients, which mean nothing to a runtime.
/** Every top-level config key Codex 0.171.0 reads. */
export const CODEX_CONFIG_KEYS: ReadonlySet<string> = new Set(
  (
    'agents allow_login_shell allow_symlinked_codex_home analytics approval_policy approvals_reviewer apps ' +
    'apps_mcp_product_sku audio auto_review background_terminal_max_timeout browser_use chatgpt_base_url ' +
    'check_for_update_on_startup cli_auth_credentials_store client_search_provider cloud code_mode compact_prompt ' +
    'computer_use daybreak default_permissions desktop developer_instructions disable_paste_burst ' +
    'experimental_compact_prompt_file experimental_realtime_start_instructions ' +
    'experimental_realtime_webrtc_call_base_url experimental_realtime_ws_backend_prompt ' +
    'experimental_realtime_ws_base_url experimental_realtime_ws_model experimental_realtime_ws_startup_context ' +
    'experimental_thread_store experimental_thread_store_endpoint experimental_use_unified_exec_tool features ' +
    'feedback file_opener forced_chatgpt_workspace_id forced_login_method ghost_snapshot goals ' +
    'hide_agent_reasoning history hooks include_apps_instructions include_collaboration_mode_instructions ' +
    'include_environment_context include_environment_context_time include_permissions_instructions instructions ' +
    'js_repl_node_module_dirs js_repl_node_path log_dir marketplaces mcp_enterprise_managed_auth ' +
    'mcp_oauth_callback_port mcp_oauth_callback_url mcp_oauth_credentials_store mcp_optional_startup_grace_ms ' +
    'mcp_servers memories model model_auto_compact_token_limit model_auto_compact_token_limit_scope ' +
    'model_catalog_json model_context_window model_instructions_file model_post_turn_compact_threshold_percent ' +
    'model_provider model_providers model_reasoning_effort model_reasoning_summary model_verbosity notice notify ' +
    'openai_base_url orchestrator oss_provider otel permissions personality plan_mode_reasoning_effort plugins ' +
    'profile profiles project_doc_fallback_filenames project_doc_max_bytes project_root_markers projects realtime ' +
    'responses responses_api_metadata review_model rollout_trace sandbox_mode sandbox_workspace_write ' +
    'service_tier shell_environment_policy show_raw_agent_reasoning skills sqlite_home ' +
    'suppress_unstable_features_warning thread_unload_delay_secs tool_output_token_limit tool_suggest tools tui ' +
    'web_search windows'
  ).split(' '),
);

/**
 * Codex keys that configure Codex's own clients (its terminal UI, updates, telemetry, sign-in, the
 * desktop app), not the runtime: a config shared with Codex sets them, Codex's app-server accepts
 * them silently, and so does Skein.
 */
export const CLIENT_SIDE_CONFIG_KEYS: ReadonlySet<string> = new Set(
  (
    'analytics check_for_update_on_startup cli_auth_credentials_store desktop disable_paste_burst feedback ' +
    'file_opener forced_chatgpt_workspace_id forced_login_method hide_agent_reasoning notice ' +
    'show_raw_agent_reasoning suppress_unstable_features_warning tui'
  ).split(' '),
);
