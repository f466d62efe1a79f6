// wait_for_environment (`deferred_executor`): blocks until a selected environment that is still
// connecting is ready, or failed to connect. Codex 0.171.0's name, parameter and answers; our
// description.
import type { FunctionToolHandler, ToolContext, ToolResult } from '@skein/extension-api';
import type { FunctionToolSpec } from '@skein/protocol';
import * as z from 'zod';
import type { EnvironmentWait } from '../../session/thread-environment.js';
import { lazySchema } from '@skein/protocol';

/** The tool's name; its `environment_id` names the environment to wait for, not where the call runs. */
export const WAIT_FOR_ENVIRONMENT = 'wait_for_environment';

export const WaitForEnvironmentArgs = lazySchema(() => z.object({ environment_id: z.string() }));
export type WaitForEnvironmentArgs = z.infer<typeof WaitForEnvironmentArgs>;

/** wait_for_environment's definition, as offered to the model. */
export const WAIT_FOR_ENVIRONMENT_SPEC: FunctionToolSpec = {
  type: 'function',
  name: WAIT_FOR_ENVIRONMENT,
  description:
    'Waits until an environment listed as `starting` in <environment_context> is ready to use. Call it only when the task needs that environment; it can take minutes and no other tool runs meanwhile. If the environment fails to start, carry on without it.',
  strict: false,
  parameters: {
    type: 'object',
    properties: { environment_id: { type: 'string', description: 'The id of the `starting` environment, exactly as <environment_context> lists it.' } },
    required: ['environment_id'],
    additionalProperties: false,
  },
};

/** What the model reads once the wait ends. */
export function waitForEnvironmentOutput(environmentId: string, wait: EnvironmentWait): ToolResult {
  switch (wait.status) {
    case 'ready':
      return { output: JSON.stringify({ environment_id: environmentId, status: 'ready' }), success: true };
    case 'failed':
      return { output: `Environment \`${environmentId}\` failed to start: ${wait.error}`, success: false };
    case 'unknown':
      return { output: `environment \`${environmentId}\` is neither ready nor starting`, success: false };
  }
}

/** The tool over the thread's environments. */
export function waitForEnvironmentTool(options: { readonly waitFor: (environmentId: string, signal: AbortSignal) => Promise<EnvironmentWait> }): FunctionToolHandler<WaitForEnvironmentArgs> {
  return {
    kind: 'function',
    spec: WAIT_FOR_ENVIRONMENT_SPEC,
    arguments: WaitForEnvironmentArgs,
    async handle(args: WaitForEnvironmentArgs, context: ToolContext): Promise<ToolResult> {
      return waitForEnvironmentOutput(args.environment_id, await options.waitFor(args.environment_id, context.signal));
    },
  };
}
