// With two or more environments attached, the model may name the one a call runs in: an
// `environment_id` argument on function tools, an `*** Environment ID:` line in a patch (Codex's
// contract). This module owns both spellings and reads them back from a call.
import type { FunctionToolHandler } from '@skein/extension-api';
import type { ToolCall } from './tool-router.js';
import { WAIT_FOR_ENVIRONMENT } from './wait-for-environment/wait-for-environment-tool.js';

/** The argument a function tool call names its environment with. */
export const ENVIRONMENT_ID_ARGUMENT = 'environment_id';
/** The patch line that names the environment a patch applies in, right after `*** Begin Patch`. */
export const PATCH_ENVIRONMENT_ID_PREFIX = '*** Environment ID: ';

const ENVIRONMENT_ID_PROPERTY = {
  type: 'string',
  description: 'Which environment to act in: an id listed in <environment_context>. Leave it out to use the primary environment.',
};

/** `tool` with an optional `environment_id` parameter (properties stay in name order, as Codex lists them). */
export function withEnvironmentParameter<T>(tool: FunctionToolHandler<T>): FunctionToolHandler<T> {
  const parameters = tool.spec.parameters as { readonly properties?: Readonly<Record<string, unknown>> };
  const properties = Object.fromEntries(
    [...Object.entries(parameters.properties ?? {}), [ENVIRONMENT_ID_ARGUMENT, ENVIRONMENT_ID_PROPERTY] as const].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  return { ...tool, spec: { ...tool.spec, parameters: { ...tool.spec.parameters, properties } } };
}

/** The environment id a call names, if it names one. */
export function requestedEnvironmentId(call: ToolCall): string | undefined {
  // Its `environment_id` is the environment it waits for; the call itself runs nowhere.
  if (call.name === WAIT_FOR_ENVIRONMENT) return undefined;
  if (call.type === 'custom_tool_call') {
    if (call.name !== 'apply_patch') return undefined;
    const line = call.input.split('\n', 3).find((text) => text.startsWith(PATCH_ENVIRONMENT_ID_PREFIX));
    const id = line?.slice(PATCH_ENVIRONMENT_ID_PREFIX.length).trim();
    return id === '' ? undefined : id;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(call.arguments);
  } catch {
    // Arguments that do not parse are the tool's parser's to report.
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const id = (parsed as Record<string, unknown>)[ENVIRONMENT_ID_ARGUMENT];
  return typeof id === 'string' && id !== '' ? id : undefined;
}
