// Turn-input contributors: items an extension adds after the user's input (for example the body of a
// skill the user mentioned), knowing where the turn runs.
import type { ResponseItem, UserInput } from '@skein/protocol';
import type { ExtensionScopes } from './extension-data.js';
import type { HostNotices } from './host-notices.js';
import type { ThreadEnvironments } from './thread-environments.js';
import type { ThreadInit } from './thread-init.js';

/** What a turn-input contributor sees. */
export interface TurnInputRequest extends ExtensionScopes, ThreadEnvironments, HostNotices {
  readonly threadId: string;
  readonly turnId: string;
  readonly cwd: string;
  readonly input: readonly UserInput[];
  /** The host's initialization data for the thread. */
  readonly init: ThreadInit;
}

/** Adds items to a turn's input; they are recorded after the user's message. */
export interface TurnInputContributor {
  contributeTurnInput(request: TurnInputRequest): Promise<readonly ResponseItem[]>;
}
