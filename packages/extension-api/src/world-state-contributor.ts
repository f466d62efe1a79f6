// World-state sections: a JSON snapshot of something the model should track (open files, a plan, a
// catalog), recorded with the thread. Only changes since the last recorded snapshot reach the model.
import type { ExtensionScopes } from './extension-data.js';
import type { HostNotices } from './host-notices.js';
import type { ThreadEnvironments } from './thread-environments.js';
import type { ThreadInit } from './thread-init.js';

/** A JSON value, as snapshots are stored in the rollout. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** What a section contributor is told. */
export interface WorldStateRequest extends ExtensionScopes, ThreadEnvironments, HostNotices {
  readonly threadId: string;
  readonly cwd: string;
  readonly turnId: string;
  /** The host's initialization data for the thread. */
  readonly init: ThreadInit;
}

/** One section of world state. */
export interface WorldStateContributor {
  /** Stable id; snapshots are stored and compared under it. */
  readonly sectionId: string;
  /** The section's current state. */
  snapshot(request: WorldStateRequest): Promise<JsonValue>;
  /**
   * The text telling the model what changed, or undefined when nothing worth saying did.
   * `previous` is undefined the first time (and after a snapshot could not be restored).
   */
  renderChange(previous: JsonValue | undefined, current: JsonValue): string | undefined;
}
