// The `turn_context` line: the settings a user turn ran with, written once per turn; the last one
// is the baseline a resumed thread compares its new settings against.
import { lazySchema } from '@skein/protocol';
import * as z from 'zod';

/**
 * A turn's settings as Codex records them (`turn_id`, `cwd`, `approval_policy`, `sandbox_policy`,
 * `permission_profile`, `model`, `comp_hash`, `collaboration_mode`, `multi_agent_version`, …).
 * Only `cwd` and `model` are required (every Codex release wrote them); older files have no
 * `turn_id`. Fields this version does not name are kept, and Skein may add its own.
 */
export const TurnContext = lazySchema(() => z.looseObject({
  turn_id: z.string().nullish(),
  root_turn_id: z.string().nullish(),
  cwd: z.string(),
  model: z.string(),
  current_date: z.string().nullish(),
  timezone: z.string().nullish(),
  approval_policy: z.string().nullish(),
  approvals_reviewer: z.string().nullish(),
  sandbox_policy: z.looseObject({ type: z.string() }).nullish(),
  permission_profile: z.looseObject({ type: z.string() }).nullish(),
  active_permission_profile: z.looseObject({ id: z.string() }).nullish(),
  comp_hash: z.string().nullish(),
  collaboration_mode: z.looseObject({ mode: z.string() }).nullish(),
  multi_agent_version: z.string().nullish(),
  effort: z.string().nullish(),
  summary: z.string().nullish(),
  personality: z.string().nullish(),
  /** Skein's: the turn's workspace roots when they were not the defaults for its cwd (Codex keeps them in `session_meta` only). */
  runtime_workspace_roots: z.array(z.string()).nullish(),
}));
export type TurnContext = z.infer<typeof TurnContext>;
