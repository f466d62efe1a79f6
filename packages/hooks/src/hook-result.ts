// What one hook's run decided, from its exit code and output (a command hook) or its answer (an
// extension's): exit 0 with optional JSON on stdout; exit 2 blocks with stderr as the reason; any
// other exit, or output that is not the JSON it claims to be, is a failed run and changes nothing.
import type { HookEventName, HookOutput } from '@skein/extension-api';
import * as z from 'zod';
import type { CommandHookExit } from './run-command-hook.js';

/** A hook's stdout JSON, read leniently: unknown fields are ignored, wrong types refuse the answer. */
const HookOutputJson = z
  .object({
    decision: z.enum(['block', 'approve']).optional(),
    reason: z.string().optional(),
    systemMessage: z.string().optional(),
    continue: z.boolean().optional(),
    stopReason: z.string().optional(),
    suppressOutput: z.boolean().optional(),
    hookSpecificOutput: z
      .object({
        hookEventName: z.string().optional(),
        additionalContext: z.string().optional(),
        permissionDecision: z.enum(['allow', 'deny', 'ask']).optional(),
        permissionDecisionReason: z.string().optional(),
        decision: z.object({ behavior: z.enum(['allow', 'deny']), message: z.string().optional() }).loose().optional(),
      })
      .loose()
      .optional(),
  })
  .loose();

/** One output line a run shows the client, as `HookOutputEntry`. */
export interface HookEntry {
  readonly kind: 'warning' | 'stop' | 'feedback' | 'context' | 'error';
  readonly text: string;
}

/** A run's decision. */
export interface HookResult {
  readonly status: 'completed' | 'failed' | 'blocked';
  readonly entries: readonly HookEntry[];
  /** Why it blocked (`status: blocked`). */
  readonly reason?: string | undefined;
  /** Text the model should read. */
  readonly context?: string | undefined;
  /** permissionRequest: the hook approved the command (a deny is a block). */
  readonly allowed?: boolean | undefined;
}

// Events whose plain (non-JSON) stdout is context for the model, as Codex reads SessionStart and UserPromptSubmit.
const PLAIN_STDOUT_IS_CONTEXT: ReadonlySet<HookEventName> = new Set(['sessionStart', 'userPromptSubmit']);
// How much of a failing hook's stderr the client is shown.
const STDERR_SHOWN = 2000;

/** The result of a command hook's exit. */
export function commandHookResult(event: HookEventName, exit: CommandHookExit): HookResult {
  if (exit.kind === 'failed') return { status: 'failed', entries: [{ kind: 'error', text: exit.message }] };
  if (exit.code === 2) {
    const reason = exit.stderr.trim() || 'blocked by a hook (exit code 2, no reason on stderr)';
    return { status: 'blocked', reason, entries: [{ kind: 'feedback', text: reason }] };
  }
  if (exit.code !== 0) {
    const said = exit.stderr.trim().slice(0, STDERR_SHOWN);
    return { status: 'failed', entries: [{ kind: 'error', text: `the hook exited with code ${exit.code}${said === '' ? '' : `: ${said}`}` }] };
  }
  const stdout = exit.stdout.trim();
  if (stdout === '') return { status: 'completed', entries: [] };
  if (!stdout.startsWith('{')) {
    return PLAIN_STDOUT_IS_CONTEXT.has(event) ? outputResult(event, { hookSpecificOutput: { additionalContext: stdout } }) : { status: 'completed', entries: [] };
  }
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch (error) {
    return { status: 'failed', entries: [{ kind: 'error', text: `the hook printed invalid JSON: ${(error as Error).message}` }] };
  }
  const parsed = HookOutputJson.safeParse(json);
  if (!parsed.success) return { status: 'failed', entries: [{ kind: 'error', text: `the hook's JSON does not fit: ${parsed.error.issues[0]?.path.join('.') ?? ''} ${parsed.error.issues[0]?.message ?? ''}`.trim() }] };
  return outputResult(event, parsed.data);
}

/** The result of an answer (a command hook's JSON, an extension's return value). */
export function outputResult(event: HookEventName, output: HookOutput | undefined): HookResult {
  if (output === undefined) return { status: 'completed', entries: [] };
  const entries: HookEntry[] = [];
  const specific = output.hookSpecificOutput;
  const context = specific?.additionalContext?.trim() === '' ? undefined : specific?.additionalContext;
  if (context !== undefined) entries.push({ kind: 'context', text: context });
  if (output.systemMessage !== undefined && output.systemMessage !== '') entries.push({ kind: 'warning', text: output.systemMessage });
  const permission = event === 'permissionRequest' ? specific?.decision : undefined;
  const denied = (event === 'preToolUse' && specific?.permissionDecision === 'deny') || permission?.behavior === 'deny';
  if (output.decision === 'block' || denied) {
    const reason = (event === 'preToolUse' && denied ? specific?.permissionDecisionReason : permission?.message) ?? output.reason ?? 'blocked by a hook';
    entries.push({ kind: 'feedback', text: reason });
    return { status: 'blocked', reason, entries, context };
  }
  return { status: 'completed', entries, context, allowed: permission?.behavior === 'allow' };
}
