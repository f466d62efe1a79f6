// Thread lifecycle hooks: an extension learns when a thread starts, is resumed, or stops.
import type { ExtensionScopes } from './extension-data.js';
import type { HostNotices } from './host-notices.js';
import type { ThreadEnvironments } from './thread-environments.js';
import type { ThreadInit } from './thread-init.js';

/** What a lifecycle hook is told. */
export interface ThreadLifecycleEvent extends ExtensionScopes, ThreadEnvironments, HostNotices {
  readonly threadId: string;
  readonly cwd: string;
  /** The host's initialization data; on resume, what the thread was started with. */
  readonly init: ThreadInit;
}

/**
 * Lifecycle hooks; each is optional. A hook that fails is reported as a warning. The thread store is
 * restored before `onThreadResume` runs.
 */
export interface ThreadLifecycleContributor {
  onThreadStart?(event: ThreadLifecycleEvent): Promise<void>;
  onThreadResume?(event: ThreadLifecycleEvent): Promise<void>;
  onThreadStop?(event: ThreadLifecycleEvent): Promise<void>;
}
