// What the host told a thread when it started it: kept with the thread, so a resumed or forked
// thread's extensions see the same data as on its first start.
import type { SelectedCapabilityRoot } from '@skein/protocol';

/** A thread's initialization data from its host (`thread/start`'s params, as far as extensions need them). */
export interface ThreadInit {
  /** The capability roots the hosting platform selected for the thread (`selectedCapabilityRoots`); empty when none. */
  readonly selectedCapabilityRoots: readonly SelectedCapabilityRoot[];
}
