// Tools that act on a machine need the call's environment; without one they answer the model.
import { ToolError, type ToolContext, type ToolEnvironment } from '@skein/extension-api';

/** The call's environment, or a ToolError the model reads when the thread has none. */
export function requireEnvironment(context: ToolContext): ToolEnvironment {
  if (context.environment === undefined) throw new ToolError('this thread has no environment to run in');
  return context.environment;
}
