// The shape a loaded module's `extension` export must have. A module from outside is checked before
// the host calls into it, so a wrong export is one clear problem, not a crash in the middle of a turn.
import * as z from 'zod';
import { lazySchema } from '@skein/protocol';

const fn = lazySchema(() => z.custom<(...args: never[]) => unknown>((value) => typeof value === 'function', { message: 'expected a function' }));
const optionalFn = lazySchema(() => fn.optional());

/** An extension as the loader accepts it; contributors are checked for the methods the host calls. */
export const ExtensionShape = lazySchema(() => z.looseObject({
  id: z.string({ message: 'expected a string id' }),
  // Checked as a semver range by the loader, which imports semver only when an extension is loaded.
  apiRange: z.string({ message: 'no apiRange: make the extension with defineExtension (it records the contract version)' }),
  context: z.looseObject({ threadFragments: optionalFn, turnFragments: optionalFn }).optional(),
  turnInput: z.looseObject({ contributeTurnInput: fn }).optional(),
  lifecycle: z.looseObject({ onThreadStart: optionalFn, onThreadResume: optionalFn, onThreadStop: optionalFn }).optional(),
  tools: z.looseObject({ tools: fn }).optional(),
  worldState: z.array(z.looseObject({ sectionId: z.string(), snapshot: fn, renderChange: fn })).optional(),
  fragments: z
    .array(z.looseObject({ kind: z.string(), role: z.enum(['developer', 'user']), open: z.string(), close: z.string(), render: fn, matches: fn }), {
      message: 'expected a list of fragments made with defineContextFragment',
    })
    .optional(),
}));
