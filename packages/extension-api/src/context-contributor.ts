// Context contributors: text fragments an extension adds to what the model sees, once per thread
// (with the initial context) or at the start of every turn. A fragment is rendered by a definition
// the extension declares (`Extension.fragments`), so history can recognise it after a resume.
import type { ContextFragment } from '@skein/protocol';
import type { ExtensionScopes } from './extension-data.js';
import type { HostNotices } from './host-notices.js';
import type { ThreadEnvironments } from './thread-environments.js';
import type { ThreadInit } from './thread-init.js';

/** What a context contributor is told about the thread. */
export interface ContextRequest extends ExtensionScopes, ThreadEnvironments, HostNotices {
  readonly threadId: string;
  readonly cwd: string;
  /** The host's initialization data for the thread. */
  readonly init: ThreadInit;
  /** The turn being started, for turn-scoped fragments. */
  readonly turnId?: string;
}

/**
 * Adds fragments to the model's context. Both methods are optional. Each fragment must come from
 * `definition.render(body)` of a definition in the extension's `fragments`; core drops any other
 * (with a warning).
 */
export interface ContextContributor {
  /** Fragments sent once, with the thread's initial context (and again after compaction). */
  threadFragments?(request: ContextRequest): Promise<readonly ContextFragment[]>;
  /** Fragments sent at the start of a turn. */
  turnFragments?(request: ContextRequest & { readonly turnId: string }): Promise<readonly ContextFragment[]>;
}
