// The top-level `metadata` of a `response_item` line (history sequence numbers and the like): the
// line's own bookkeeping, distinct from the `metadata` an item may carry inside its payload.
import { lazySchema } from '@skein/protocol';
import * as z from 'zod';

/** Where the item sits in the thread's history and what the model had seen when it was sampled. */
export const ResponseItemLineMetadata = lazySchema(() => z.looseObject({
  history_sequence: z.number().int().nonnegative().optional(),
  sampled_through_sequence: z.number().int().nonnegative().optional(),
  client_authored: z.boolean().optional(),
  user_input_order: z.number().int().nonnegative().optional(),
  compaction_output: z.boolean().optional(),
}));
export type ResponseItemLineMetadata = z.infer<typeof ResponseItemLineMetadata>;
