// Context contributors: text fragments an extension adds to what the model sees, once per thread
// (with the initial context) or at the start of every turn.
import type { ExtensionScopes } from './extension-data.js';

/**
 * A piece of model context. `marker` is the tag the text starts with (e.g. `<skills_instructions>`):
 * history uses it to recognise, replace or drop the fragment later, so it must be stable.
 */
export interface ContextFragment {
  readonly role: 'developer' | 'user';
  readonly marker: string;
  readonly text: string;
}

/** What a context contributor is told about the thread. */
export interface ContextRequest extends ExtensionScopes {
  readonly threadId: string;
  readonly cwd: string;
  /** The turn being started, for turn-scoped fragments. */
  readonly turnId?: string;
}

/** Adds fragments to the model's context. Both methods are optional. */
export interface ContextContributor {
  /** Fragments sent once, with the thread's initial context (and again after compaction). */
  threadFragments?(request: ContextRequest): Promise<readonly ContextFragment[]>;
  /** Fragments sent at the start of a turn. */
  turnFragments?(request: ContextRequest & { readonly turnId: string }): Promise<readonly ContextFragment[]>;
}
