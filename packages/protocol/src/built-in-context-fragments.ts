// The fragments Skein itself sends, and the user-role ones Codex 0.171.0 records that Skein must
// recognise when it reads a Codex thread. Extensions may not claim these markers.
import { defineContextFragment, type ContextFragmentDefinition } from './context-fragment.js';
import { HOOK_PROMPT_FRAGMENT } from './hook-prompt.js';

/** `<environment_context>`: where the agent runs and what it may touch. */
export const ENVIRONMENT_CONTEXT_FRAGMENT = defineContextFragment({
  kind: 'environments.environment_context',
  role: 'user',
  open: '<environment_context>',
  close: '</environment_context>',
});

/** The AGENTS.md wrapper: `# AGENTS.md instructions for <cwd>`, then the docs in `<INSTRUCTIONS>`; the body starts with the cwd. */
export const AGENTS_MD_FRAGMENT = defineContextFragment({
  kind: 'agents_md.instructions',
  role: 'user',
  // Followed by ` for <cwd>` when one environment has docs; a thread with docs in several has none.
  open: '# AGENTS.md instructions',
  close: '</INSTRUCTIONS>',
  separator: '',
});

/** `<permissions instructions>`: the sandbox and the approval policy, in prose. */
export const PERMISSIONS_INSTRUCTIONS_FRAGMENT = defineContextFragment({
  kind: 'permissions.instructions',
  role: 'developer',
  open: '<permissions instructions>',
  close: '</permissions instructions>',
});

/** `<user_shell_command>`: a command the user ran themselves, and its result. */
export const USER_SHELL_COMMAND_FRAGMENT = defineContextFragment({
  kind: 'user_shell.command',
  role: 'user',
  open: '<user_shell_command>',
  close: '</user_shell_command>',
});

/** `<turn_aborted>`: the note recorded after the user interrupted a turn. */
export const TURN_ABORTED_FRAGMENT = defineContextFragment({
  kind: 'turn.aborted',
  role: 'user',
  open: '<turn_aborted>',
  close: '</turn_aborted>',
});

/** `<skill>`: a selected skill's SKILL.md, sent after the prompt that mentioned it. */
export const SKILL_FRAGMENT = defineContextFragment({
  kind: 'skills.selected_skill_instructions',
  role: 'user',
  open: '<skill>',
  close: '</skill>',
});

/** `<user_instructions>`: how older Codex versions wrapped AGENTS.md; still met in their threads. */
export const USER_INSTRUCTIONS_FRAGMENT = defineContextFragment({
  kind: 'agents_md.user_instructions',
  role: 'user',
  open: '<user_instructions>',
  close: '</user_instructions>',
});

/** `<subagent_notification>`: a sub-agent's status, told to its parent. */
export const SUBAGENT_NOTIFICATION_FRAGMENT = defineContextFragment({
  kind: 'multi_agent.subagent_notification',
  role: 'user',
  open: '<subagent_notification>',
  close: '</subagent_notification>',
});

/** `<multi_agent_mode>`: when the agent should delegate to sub-agents (multi-agent v2). */
export const MULTI_AGENT_MODE_FRAGMENT = defineContextFragment({
  kind: 'multi_agent.mode',
  role: 'developer',
  open: '<multi_agent_mode>',
  close: '</multi_agent_mode>',
  separator: '',
});

/** `<multi_agent_role>`: the agent's path and role in its tree (the wrapper Codex's v2-trained models get). */
export const MULTI_AGENT_ROLE_FRAGMENT = defineContextFragment({
  kind: 'multi_agent.role',
  role: 'developer',
  open: '<multi_agent_role>',
  close: '</multi_agent_role>',
});

/** `<tools>`: the deferred tool namespaces the model can find with tool_search. */
export const DEFERRED_TOOLS_FRAGMENT = defineContextFragment({
  kind: 'tools.deferred',
  role: 'developer',
  open: '<tools>',
  close: '</tools>',
});

/** `<collaboration_mode>`: how the agent works with the user in the current mode (Codex's code-mode models get it). */
export const COLLABORATION_MODE_FRAGMENT = defineContextFragment({
  kind: 'collaboration.mode',
  role: 'developer',
  open: '<collaboration_mode>',
  close: '</collaboration_mode>',
});

/** `<current_time_reminder>`: the current UTC time, told before a request when it is due (no newlines, as Codex). */
export const CURRENT_TIME_REMINDER_FRAGMENT = defineContextFragment({
  kind: 'time.current_time_reminder',
  role: 'developer',
  open: '<current_time_reminder>',
  close: '</current_time_reminder>',
  separator: '',
});

/**
 * `<context_window>`: Codex 0.171.0's lineage of the thread's context windows (token budget), the
 * open marker, the body and the close marker as three content parts of one developer message.
 * Skein's lineage has no wrapper (as its issue asks); this stays so Codex's and older Skein
 * rollouts are still told apart from the user's words.
 */
export const CONTEXT_WINDOW_FRAGMENT = defineContextFragment({
  kind: 'token_budget.context_window',
  role: 'developer',
  open: '<context_window>',
  close: '</context_window>',
  separator: '',
});

/** `<rollout_budget>`: the weighted tokens left in the session's shared rollout budget. */
export const ROLLOUT_BUDGET_FRAGMENT = defineContextFragment({
  kind: 'rollout_budget.remaining',
  role: 'developer',
  open: '<rollout_budget>',
  close: '</rollout_budget>',
});

/** `<token_budget>`: how older threads wrapped the token budget's context; still met in their rollouts. */
export const LEGACY_TOKEN_BUDGET_FRAGMENT = defineContextFragment({
  kind: 'token_budget.legacy_context',
  role: 'user',
  open: '<token_budget>',
  close: '</token_budget>',
});

/** Every built-in definition: what history recognises when no extension adds its own. */
export const BUILT_IN_CONTEXT_FRAGMENTS: readonly ContextFragmentDefinition[] = Object.freeze([
  ENVIRONMENT_CONTEXT_FRAGMENT,
  AGENTS_MD_FRAGMENT,
  PERMISSIONS_INSTRUCTIONS_FRAGMENT,
  USER_SHELL_COMMAND_FRAGMENT,
  TURN_ABORTED_FRAGMENT,
  SKILL_FRAGMENT,
  USER_INSTRUCTIONS_FRAGMENT,
  SUBAGENT_NOTIFICATION_FRAGMENT,
  MULTI_AGENT_MODE_FRAGMENT,
  MULTI_AGENT_ROLE_FRAGMENT,
  DEFERRED_TOOLS_FRAGMENT,
  COLLABORATION_MODE_FRAGMENT,
  CURRENT_TIME_REMINDER_FRAGMENT,
  CONTEXT_WINDOW_FRAGMENT,
  ROLLOUT_BUDGET_FRAGMENT,
  LEGACY_TOKEN_BUDGET_FRAGMENT,
  HOOK_PROMPT_FRAGMENT,
]);
