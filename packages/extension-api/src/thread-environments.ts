// The machines a thread acts on, as every contributor is told them: an extension that reads files
// (skills from a capability root, say) reads them through the environment that owns them.
import type { ToolEnvironment } from './tool-context.js';

/** The thread's attached environments. */
export interface ThreadEnvironments {
  /** The primary first; empty when the thread has none (then nothing may be read from a machine). */
  readonly environments: readonly ToolEnvironment[];
}
