// The exec_command tool: Codex 0.171.0's name and parameter schema (our descriptions), parsed with zod
// and run through the thread's UnifiedExecSessions under the turn's cwd and sandbox context.
import type { FunctionToolHandler, ToolInvocation, ToolResult } from '@skein/extension-api';
import type { FileSystemSandboxContext } from '@skein/exec-server';
import type { FunctionToolSpec, PathUri } from '@skein/protocol';
import { z } from 'zod';
import type { CommandApprovals, CommandCall } from '../approvals/command-approvals.js';
import { formatExecResponse, type ExecResponse } from './exec-output.js';
import type { UnifiedExecSessions } from './unified-exec-sessions.js';

/** exec_command's arguments. Approval fields are parsed here and acted on by the approval layer. */
export const ExecCommandArgs = z.object({
  cmd: z.string(),
  justification: z.string().nullish(),
  login: z.boolean().nullish(),
  max_output_tokens: z.number().nonnegative().nullish(),
  prefix_rule: z.array(z.string()).nullish(),
  sandbox_permissions: z.enum(['use_default', 'require_escalated']).nullish(),
  shell: z.string().nullish(),
  tty: z.boolean().nullish(),
  workdir: z.string().nullish(),
  yield_time_ms: z.number().nonnegative().nullish(),
});
export type ExecCommandArgs = z.infer<typeof ExecCommandArgs>;

/** What a call runs under: the turn's working directory and sandbox context (null: unconfined). */
export interface ExecTurnContext {
  readonly cwd: PathUri;
  readonly sandbox: FileSystemSandboxContext | null;
}

/** exec_command's definition, as offered to the model. */
export const EXEC_COMMAND_SPEC: FunctionToolSpec = {
  type: 'function',
  name: 'exec_command',
  description:
    'Runs a shell command and returns its output. If it is still running after yield_time_ms, the answer carries a session ID; continue it with write_stdin.',
  strict: false,
  parameters: {
    type: 'object',
    properties: {
      cmd: { type: 'string', description: 'The shell command to run.' },
      justification: { type: 'string', description: 'Why the command needs to run outside the sandbox; shown to the user when approval is asked for.' },
      login: { type: 'boolean', description: 'Run the shell as a login shell (-lc). Defaults to true.' },
      max_output_tokens: { type: 'number', description: 'Most output tokens to return; the middle of longer output is cut.' },
      prefix_rule: { type: 'array', description: 'A command prefix the user may approve for later commands too.', items: { type: 'string' } },
      sandbox_permissions: {
        type: 'string',
        description: 'use_default runs in the sandbox; require_escalated asks the user to run it outside.',
        enum: ['use_default', 'require_escalated'],
      },
      shell: { type: 'string', description: "Shell binary to run the command with. Defaults to the user's shell." },
      tty: { type: 'boolean', description: 'Run under a pseudo-terminal so write_stdin can type into it. Defaults to false.' },
      workdir: { type: 'string', description: "Working directory, absolute or relative to the turn's directory." },
      yield_time_ms: { type: 'number', description: 'How long to wait for the command before returning (milliseconds).' },
    },
    required: ['cmd'],
    additionalProperties: false,
  },
};

/** Options of {@link execCommandTool}. */
export interface ExecCommandToolOptions {
  readonly sessions: UnifiedExecSessions;
  /** The cwd and sandbox context of the turn a call belongs to. */
  readonly turnContext: (invocation: ToolInvocation) => ExecTurnContext;
  /** Consulted before a command runs and after the sandbox denies one; without it everything runs confined. */
  readonly approvals?: CommandApprovals | undefined;
}

/** The exec_command tool over one thread's sessions. */
export function execCommandTool(options: ExecCommandToolOptions): FunctionToolHandler<ExecCommandArgs> {
  return {
    kind: 'function',
    spec: EXEC_COMMAND_SPEC,
    arguments: ExecCommandArgs,
    async handle(args, invocation) {
      const turn = options.turnContext(invocation);
      const request = {
        callId: invocation.callId,
        cmd: args.cmd,
        cwd: turn.cwd,
        workdir: args.workdir,
        shell: args.shell,
        login: args.login,
        tty: args.tty,
        yieldTimeMs: args.yield_time_ms,
        maxOutputTokens: args.max_output_tokens,
        sandbox: turn.sandbox,
        signal: invocation.signal,
      };
      const approvals = options.approvals;
      if (approvals === undefined) return answer(await options.sessions.execCommand(request));
      const line = options.sessions.commandLine(request);
      const call: CommandCall = {
        turnId: invocation.turnId,
        callId: invocation.callId,
        argv: line.argv,
        command: line.command,
        script: args.cmd,
        cwd: line.cwd.toNativePath(line.cwd.convention),
        escalate: args.sandbox_permissions === 'require_escalated',
        tty: args.tty ?? false,
        justification: args.justification ?? undefined,
        prefixRule: args.prefix_rule ?? undefined,
      };
      const first = await approvals.authorizeCommand(call, invocation.signal);
      if (first.type === 'rejected') return { output: first.output, success: false };
      const sandboxed = first.sandboxed && turn.sandbox !== null;
      const response = await options.sessions.execCommand({ ...request, sandbox: sandboxed ? turn.sandbox : null });
      if (!sandboxed || response.sandboxDenied !== true) return answer(response);
      const retry = await approvals.authorizeRetryWithoutSandbox(call, first.approved === true, invocation.signal);
      if (retry === undefined) return answer(response);
      if (retry.type === 'rejected') return { output: retry.output, success: false };
      return answer(await options.sessions.execCommand({ ...request, sandbox: null }));
    },
  };
}

function answer(response: ExecResponse): ToolResult {
  return { output: formatExecResponse(response), success: response.exitCode === null || response.exitCode === 0 };
}
