// get_context_remaining (token budget): Codex 0.171.0's name and empty parameter schema, our
// description and output. It answers the figure the token budget's reminder uses.
import type { FunctionToolHandler, ToolResult } from '@skein/extension-api';
import type { FunctionToolSpec } from '@skein/protocol';
import * as z from 'zod';
import { lazySchema } from '@skein/protocol';

/** The tool takes no arguments. */
export const GetContextRemainingArgs = lazySchema(() => z.object({}).loose());
export type GetContextRemainingArgs = z.infer<typeof GetContextRemainingArgs>;

/** get_context_remaining's definition, as offered to the model. */
export const GET_CONTEXT_REMAINING_SPEC: FunctionToolSpec = {
  type: 'function',
  name: 'get_context_remaining',
  description: 'Tells how many tokens this context window can still take before it is compacted.',
  strict: false,
  parameters: { type: 'object', properties: {}, additionalProperties: false },
};

/** The tool's answer for `remaining` tokens. */
export function contextRemainingOutput(remaining: number): string {
  return `${remaining} tokens remain in this context window before it is compacted.`;
}

/** The get_context_remaining tool over the thread's figure. */
export function getContextRemainingTool(options: { readonly remaining: () => number }): FunctionToolHandler<GetContextRemainingArgs> {
  return {
    kind: 'function',
    spec: GET_CONTEXT_REMAINING_SPEC,
    arguments: GetContextRemainingArgs,
    handle(): Promise<ToolResult> {
      return Promise.resolve({ output: contextRemainingOutput(options.remaining()), success: true });
    },
  };
}
