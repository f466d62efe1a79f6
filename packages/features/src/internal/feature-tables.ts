// Which features accept a table under `[features]` besides a boolean, and the per-layer shape check of
// each. The list is Codex 0.171.0's, found by probing `[features.<key>] enabled = true` on every key.

import * as z from 'zod';
import { CurrentTimeReminderTable } from '../current-time-reminder.js';
import { RolloutBudgetTable } from '../rollout-budget.js';
import { TokenBudgetTable } from '../token-budget.js';
import { TomlBoolean } from './toml-value.js';

/** The structured features Skein parses into typed configs. */
export type StructuredFeatureKey = 'token_budget' | 'rollout_budget' | 'current_time_reminder';

/**
 * A table for a feature Codex configures with one but Skein does not read yet: only `enabled` is
 * checked and used; the other keys are Codex's business and pass unchecked so Codex configs load.
 */
export const OpaqueFeatureTable = z.looseObject({ enabled: TomlBoolean.optional() });

// Codex 0.171.0 features that take a table (besides the structured ones above).
const OPAQUE_TABLE_FEATURES: ReadonlySet<string> = new Set([
  'apps_mcp_path_override',
  'async_compaction',
  'code_mode',
  'code_mode_host',
  'guardianv2',
  'guardianv3',
  'multi_agent_v2',
  'network_proxy',
  'non_prefixed_mcp_tool_names',
  'runtime_agent_instances',
  'sleep_tool',
]);

/** True for the features whose tables Skein parses into typed configs. */
export function isStructuredFeature(key: string): key is StructuredFeatureKey {
  return key === 'token_budget' || key === 'rollout_budget' || key === 'current_time_reminder';
}

/** The per-layer table schema of a feature that accepts a table, or undefined for a plain flag. */
export function tableSchemaOf(key: string): z.ZodObject | undefined {
  if (key === 'token_budget') return TokenBudgetTable;
  if (key === 'rollout_budget') return RolloutBudgetTable;
  if (key === 'current_time_reminder') return CurrentTimeReminderTable;
  return OPAQUE_TABLE_FEATURES.has(key) ? OpaqueFeatureTable : undefined;
}
