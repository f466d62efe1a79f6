// The features a client may switch for the whole process (`experimentalFeature/enablement/set`):
// the set Codex 0.171.0 accepts there, probed one by one; it ignores every other name.
import type { FeatureKey } from './feature-registry.js';

/**
 * Features with a process-wide runtime state. That state replaces the registry default and sits
 * below every config layer, so a config file or `-c` that sets one still decides it.
 */
export const RUNTIME_ENABLEMENT_FEATURES: readonly FeatureKey[] = Object.freeze([
  'api_key_cyber_access_programs',
  'api_key_model_discovery',
  'auth_elicitation',
  'background_paginated_rollout_migration',
  'codex_apps_mcp_2026_07_28',
  'daybreak_program_propagation',
  'mcp_2026_07_28',
  'mcp_connection_sharing',
  'mcp_lazy_stdio_startup',
  'mcp_shared_repl_cwd',
  'memories',
  'mentions_v2',
  'remote_control',
  'remote_plugin',
  'tool_suggest',
  'windows_sandbox_service',
]);
