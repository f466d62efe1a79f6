// Tool contributors: tools an extension offers the model in a thread.
import type { ExtensionScopes } from './extension-data.js';
import type { HostNotices } from './host-notices.js';
import type { ThreadEnvironments } from './thread-environments.js';
import type { ThreadInit } from './thread-init.js';
import type { ToolHandler } from './tool-handler.js';

/** What a tool contributor is told. */
export interface ToolRequest extends ExtensionScopes, ThreadEnvironments, HostNotices {
  readonly threadId: string;
  readonly cwd: string;
  /** The host's initialization data for the thread. */
  readonly init: ThreadInit;
}

/** Offers tools; called when a thread starts and when its settings change. */
export interface ToolContributor {
  tools(request: ToolRequest): Promise<readonly ToolHandler[]>;
}
