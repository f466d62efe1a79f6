// Tools that act on a machine need the call's environment; without one they answer the model.
import { ToolError, type ToolContext, type ToolEnvironment } from '@skein/extension-api';

/**
 * What a call that needs an environment answers when none it may use is ready (none attached, or
 * the one it names still connecting or failed to): Codex 0.171.0's words.
 */
export const NO_USABLE_ENVIRONMENT = 'No usable execution environment is available. Wait for an environment to become available before using this tool.';

/** The call's environment, or a ToolError the model reads when the thread has none ready. */
export function requireEnvironment(context: ToolContext): ToolEnvironment {
  if (context.environment === undefined) throw new ToolError(NO_USABLE_ENVIRONMENT);
  return context.environment;
}
