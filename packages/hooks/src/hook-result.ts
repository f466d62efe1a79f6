// What one hook's run decided, from its exit code and output (a command hook) or its answer (an
// extension's): exit 0 with optional JSON on stdout; exit 2 blocks with stderr as the reason; any
// other exit, or output that is not the JSON it claims to be, is a failed run and changes nothing.
import type { HookEventName, HookOutput } from '@skein/extension-api';
import * as z from 'zod';
import { configName } from './hook-events.js';
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
        updatedInput: z.record(z.string(), z.unknown()).optional(),
        updatedMCPToolOutput: z.unknown().optional(),
        decision: z
          .object({ behavior: z.enum(['allow', 'deny']), message: z.string().optional(), interrupt: z.boolean().optional(), updatedInput: z.unknown().optional(), updatedPermissions: z.unknown().optional() })
          .loose()
          .optional(),
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
  /** preToolUse: the input the tool runs with instead of the model's. */
  readonly updatedInput?: Readonly<Record<string, unknown>> | undefined;
}

// Events whose plain (non-JSON) stdout is context for the model, as Codex reads SessionStart and UserPromptSubmit.
const PLAIN_STDOUT_IS_CONTEXT: ReadonlySet<HookEventName> = new Set(['sessionStart', 'userPromptSubmit', 'subagentStart']);
// What an exit code 2 owes on stderr, per event that reads one (Codex's wording, probed).
const EXIT_2_OWES: Partial<Record<HookEventName, string>> = {
  preToolUse: 'a blocking reason',
  userPromptSubmit: 'a blocking reason',
  permissionRequest: 'a denial reason',
  postToolUse: 'feedback',
  stop: 'a continuation prompt',
  subagentStop: 'a continuation prompt',
};
// How much of a failing hook's stderr the client is shown.
const STDERR_SHOWN = 2000;

/** The result of a command hook's exit. */
export function commandHookResult(event: HookEventName, exit: CommandHookExit): HookResult {
  if (exit.kind === 'failed') return failed(exit.message);
  if (exit.code === 2) {
    const reason = exit.stderr.trim();
    if (reason === '') return failed(`${configName(event)} hook exited with code 2 but did not write ${EXIT_2_OWES[event] ?? 'a reason'} to stderr`);
    return { status: 'blocked', reason, entries: [{ kind: 'feedback', text: reason }] };
  }
  if (exit.code !== 0) {
    const said = exit.stderr.trim().slice(0, STDERR_SHOWN);
    return failed(`the hook exited with code ${exit.code}${said === '' ? '' : `: ${said}`}`);
  }
  const stdout = exit.stdout.trim();
  if (stdout === '') return { status: 'completed', entries: [] };
  if (!stdout.startsWith('{')) {
    if (event === 'interrupt') return failed('Interrupt hook returned non-JSON stdout');
    return PLAIN_STDOUT_IS_CONTEXT.has(event) ? outputResult(event, { hookSpecificOutput: { additionalContext: stdout } }) : { status: 'completed', entries: [] };
  }
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch (error) {
    return failed(`the hook printed invalid JSON: ${(error as Error).message}`);
  }
  const parsed = HookOutputJson.safeParse(json);
  if (!parsed.success) return failed(`the hook's JSON does not fit: ${parsed.error.issues[0]?.path.join('.') ?? ''} ${parsed.error.issues[0]?.message ?? ''}`.trim());
  return outputResult(event, parsed.data);
}

/** The result of an answer (a command hook's JSON, an extension's return value). */
export function outputResult(event: HookEventName, output: HookOutput | undefined): HookResult {
  if (output === undefined) return { status: 'completed', entries: [] };
  const refused = refusal(event, output);
  if (refused !== undefined) return failed(refused);
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
  const updatedInput = event === 'preToolUse' ? specific?.updatedInput : undefined;
  return { status: 'completed', entries, context, allowed: permission?.behavior === 'allow', updatedInput };
}

function failed(message: string): HookResult {
  return { status: 'failed', entries: [{ kind: 'error', text: message }] };
}

/**
 * What Codex 0.171.0 refuses in an answer to a tool or permission event (probed: the run fails and
 * the call goes on unchanged). Claude's fields Codex does not act on are refused rather than ignored,
 * so a hook written for Claude learns that they did nothing.
 */
function refusal(event: HookEventName, output: HookOutput): string | undefined {
  const specific = output.hookSpecificOutput;
  const name = configName(event);
  switch (event) {
    case 'preToolUse': {
      const decision = specific?.permissionDecision;
      if (output.continue === false) return `${name} hook returned unsupported continue:false`;
      if (output.suppressOutput === true) return `${name} hook returned unsupported suppressOutput`;
      if (output.stopReason !== undefined) return `${name} hook returned unsupported stopReason`;
      if (output.decision === 'approve') return `${name} hook returned unsupported decision:approve`;
      if (output.reason !== undefined && output.decision === undefined) return `${name} hook returned reason without decision`;
      if (decision === 'ask') return `${name} hook returned unsupported permissionDecision:ask`;
      if (specific?.permissionDecisionReason !== undefined && decision === undefined) return `${name} hook returned permissionDecisionReason without permissionDecision`;
      if (decision === 'deny' && (specific?.permissionDecisionReason ?? '').trim() === '') return `${name} hook returned permissionDecision:deny without a non-empty permissionDecisionReason`;
      if (specific?.updatedInput !== undefined && decision !== 'allow') return `${name} hook returned updatedInput without permissionDecision:allow`;
      if (decision === 'allow' && specific?.updatedInput === undefined) return `${name} hook returned unsupported permissionDecision:allow`;
      return undefined;
    }
    case 'postToolUse':
      if (output.reason !== undefined && output.decision === undefined) return `${name} hook returned reason without decision`;
      if (output.suppressOutput === true) return `${name} hook returned unsupported suppressOutput`;
      if (specific?.updatedMCPToolOutput !== undefined) return `${name} hook returned unsupported updatedMCPToolOutput`;
      return undefined;
    case 'permissionRequest':
      if (output.continue === false) return `${name} hook returned unsupported continue:false`;
      if (output.suppressOutput === true) return `${name} hook returned unsupported suppressOutput`;
      if (output.stopReason !== undefined) return `${name} hook returned unsupported stopReason`;
      if (specific?.decision?.interrupt === true) return `${name} hook returned unsupported interrupt:true`;
      if (specific?.decision?.updatedPermissions !== undefined) return `${name} hook returned unsupported updatedPermissions`;
      if (specific?.decision?.updatedInput !== undefined) return `${name} hook returned unsupported updatedInput`;
      return undefined;
    default:
      return undefined;
  }
}
