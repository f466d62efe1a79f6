// Cursor pagination as Codex's list methods do it: the cursor is the decimal offset of the next page.
import * as z from 'zod';
import { lazySchema } from '../lazy-schema.js';

/** `cursor` and `limit` of a list request; an absent limit means everything that is left. */
export const PageParams = lazySchema(() => z.object({
  cursor: z.string().nullish(),
  limit: z.number().int().nonnegative().nullish(),
}));
export type PageParams = z.infer<typeof PageParams>;
