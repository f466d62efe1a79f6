// The write_stdin tool: Codex 0.171.0's name and parameter schema (our descriptions); types into a
// running exec_command session (or polls it with empty chars) and returns the new output.
import type { FunctionToolHandler, ToolEnvironment } from '@skein/extension-api';
import type { FunctionToolSpec } from '@skein/protocol';
import * as z from 'zod';
import { requireEnvironment } from '../require-environment.js';
import { formatExecResponse, structuredExecResponse } from './exec-output.js';
import type { UnifiedExecSessions } from './unified-exec-sessions.js';
import { lazySchema } from '@skein/protocol';

/** write_stdin's arguments. */
export const WriteStdinArgs = lazySchema(() => z.object({
  session_id: z.number().int(),
  chars: z.string().nullish(),
  max_output_tokens: z.number().nonnegative().nullish(),
  yield_time_ms: z.number().nonnegative().nullish(),
}));
export type WriteStdinArgs = z.infer<typeof WriteStdinArgs>;

/** write_stdin's definition, as offered to the model. */
export const WRITE_STDIN_SPEC: FunctionToolSpec = {
  type: 'function',
  name: 'write_stdin',
  description: 'Types characters into a running exec_command session and returns the output since the last call. Empty chars just waits for more output.',
  strict: false,
  parameters: {
    type: 'object',
    properties: {
      chars: { type: 'string', description: 'Characters to type; empty to only read new output.' },
      max_output_tokens: { type: 'number', description: 'Most output tokens to return; the middle of longer output is cut.' },
      session_id: { type: 'number', description: 'The session ID exec_command returned.' },
      yield_time_ms: { type: 'number', description: 'How long to wait for output before returning (milliseconds).' },
    },
    required: ['session_id'],
    additionalProperties: false,
  },
};

/** The write_stdin tool over the command sessions of the call's environment. */
export function writeStdinTool(options: { sessionsFor(environment: ToolEnvironment): UnifiedExecSessions }): FunctionToolHandler<WriteStdinArgs> {
  return {
    kind: 'function',
    spec: WRITE_STDIN_SPEC,
    arguments: WriteStdinArgs,
    async handle(args, context) {
      // A session id belongs to the environment its command started in, whichever that was.
      const primary = requireEnvironment(context);
      const owner = (context.environments ?? []).find((environment) => options.sessionsFor(environment).liveSessionIds().includes(args.session_id)) ?? primary;
      const response = await options.sessionsFor(owner).writeStdin({
        sessionId: args.session_id,
        chars: args.chars,
        yieldTimeMs: args.yield_time_ms,
        maxOutputTokens: args.max_output_tokens,
        signal: context.signal,
      });
      return { output: formatExecResponse(response), success: response.exitCode === null || response.exitCode === 0, structured: structuredExecResponse(response) };
    },
  };
}
