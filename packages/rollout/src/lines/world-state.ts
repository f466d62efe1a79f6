// The `world_state` line: hashes and summaries of the context sources a turn was built from.
import { lazySchema } from '@skein/protocol';
import * as z from 'zod';

/** A world-state snapshot: `full` for a complete one, otherwise a change to the previous one. */
export const WorldState = lazySchema(() => z.looseObject({
  full: z.boolean().optional(),
  state: z.record(z.string(), z.unknown()).optional(),
}));
export type WorldState = z.infer<typeof WorldState>;
