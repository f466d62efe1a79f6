// The exec_command tool: Codex 0.171.0's name and parameter schema (our descriptions), parsed with zod
// and run through the call environment's UnifiedExecSessions under its cwd and sandbox context.
import type { CommandApprovalCall, FunctionToolHandler, ToolEnvironment, ToolResult } from '@skein/extension-api';
import type { FunctionToolSpec } from '@skein/protocol';
import * as z from 'zod';
import { requireEnvironment } from '../require-environment.js';
import { formatExecResponse, structuredExecResponse, type ExecResponse } from './exec-output.js';
import type { UnifiedExecSessions } from './unified-exec-sessions.js';
import { lazySchema } from '@skein/protocol';

/** exec_command's arguments. Approval fields are parsed here and acted on by the approval layer. */
export const ExecCommandArgs = lazySchema(() => z.object({
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
}));
export type ExecCommandArgs = z.infer<typeof ExecCommandArgs>;

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
  /** The command sessions of an environment (each environment keeps its own). */
  sessionsFor(environment: ToolEnvironment): UnifiedExecSessions;
}

/**
 * The exec_command tool. It runs in the call's environment, under its cwd and sandbox, after the
 * approval layer agreed; a command the sandbox denied may run again unconfined if approvals allow.
 */
export function execCommandTool(options: ExecCommandToolOptions): FunctionToolHandler<ExecCommandArgs> {
  return {
    kind: 'function',
    spec: EXEC_COMMAND_SPEC,
    arguments: ExecCommandArgs,
    async handle(args, context) {
      const environment = requireEnvironment(context);
      const sessions = options.sessionsFor(environment);
      const request = {
        callId: context.callId,
        cmd: args.cmd,
        cwd: environment.cwd,
        workdir: args.workdir,
        shell: args.shell,
        login: args.login,
        tty: args.tty,
        yieldTimeMs: args.yield_time_ms,
        maxOutputTokens: args.max_output_tokens,
        sandbox: environment.sandbox,
        signal: context.signal,
      };
      const line = sessions.commandLine(request);
      const call: CommandApprovalCall = {
        argv: line.argv,
        command: line.command,
        script: args.cmd,
        cwd: line.cwd.toNativePath(line.cwd.convention),
        escalate: args.sandbox_permissions === 'require_escalated',
        tty: args.tty ?? false,
        justification: args.justification ?? undefined,
        prefixRule: args.prefix_rule ?? undefined,
      };
      const first = await context.approvals.command(call);
      if (first.type === 'rejected') return { output: first.output, success: false };
      const sandboxed = first.sandboxed && environment.sandbox !== null;
      const response = await sessions.execCommand({ ...request, sandbox: sandboxed ? environment.sandbox : null });
      if (!sandboxed || response.sandboxDenied !== true) return answer(response);
      const retry = await context.approvals.retryWithoutSandbox(call, first.approved === true);
      if (retry === undefined) return answer(response);
      if (retry.type === 'rejected') return { output: retry.output, success: false };
      return answer(await sessions.execCommand({ ...request, sandbox: null }));
    },
  };
}

function answer(response: ExecResponse): ToolResult {
  return { output: formatExecResponse(response), success: response.exitCode === null || response.exitCode === 0, structured: structuredExecResponse(response) };
}
