// What a `[hooks]` table or a hooks.json file may say, parsed leniently: one bad handler is an
// error naming its place and the others still load; an unknown event is a warning.
import * as z from 'zod';

/** The default and the longest a command hook may run, in seconds (Codex's default is 600). */
export const DEFAULT_HOOK_TIMEOUT_SEC = 600;
export const MAX_HOOK_TIMEOUT_SEC = 24 * 60 * 60;

/** A command handler as configured. */
export const CommandHandlerConfig = z
  .object({
    type: z.literal('command'),
    command: z.string().trim().min(1, 'a command hook needs a non-empty command'),
    timeout: z.number().int().positive().max(MAX_HOOK_TIMEOUT_SEC).optional(),
    timeoutSec: z.number().int().positive().max(MAX_HOOK_TIMEOUT_SEC).optional(),
    async: z.boolean().optional(),
    statusMessage: z.string().optional(),
  })
  .loose();
export type CommandHandlerConfig = z.infer<typeof CommandHandlerConfig>;

/** An MCP tool handler as configured: a tool of one of the thread's MCP servers, called with `input` as its arguments. */
export const McpToolHandlerConfig = z
  .object({
    type: z.literal('mcp_tool'),
    server: z.string(),
    tool: z.string(),
    input: z.record(z.string(), z.unknown()).optional(),
    timeout: z.number().int().positive().max(MAX_HOOK_TIMEOUT_SEC).optional(),
    timeoutSec: z.number().int().positive().max(MAX_HOOK_TIMEOUT_SEC).optional(),
    statusMessage: z.string().optional(),
  })
  .loose();

/** Handler kinds Codex 0.171.0 defines and skips, with a warning (probed). */
export const UNSUPPORTED_HANDLER_TYPES = ['prompt', 'agent'] as const;

/** One matcher group: an optional matcher and its handlers (each checked on its own). */
export const MatcherGroupConfig = z.object({ matcher: z.string().optional(), hooks: z.array(z.unknown()) }).loose();

/** `{ "PreToolUse": [group, …], … }`: the events table of either form. */
export const HookEventsConfig = z.record(z.string(), z.unknown());

/** A hooks.json file: `{"hooks": {...events}}`. */
export const HooksJsonFile = z.object({ hooks: HookEventsConfig }).loose();

/** The trust state kept per hook key in the user's config.toml (`[hooks.state."<key>"]`). */
export const HookStateEntry = z.object({ trusted_hash: z.string().optional(), enabled: z.boolean().optional() }).loose();
export const HookStateTable = z.record(z.string(), HookStateEntry);
export type HookStateTable = z.infer<typeof HookStateTable>;
