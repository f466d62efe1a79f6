// Params of `thread/search`, `thread/search/stream`, their cancels and `thread/searchOccurrences`:
// full-text search over the user's and agent's messages of the stored threads.
import * as z from 'zod';
import { RequestId } from '../jsonrpc.js';
import { lazySchema } from '../lazy-schema.js';

/** `thread/search` and `thread/search/stream`: the threads whose messages hold `searchTerm`, paged like `thread/list`. */
export const ThreadSearchParams = lazySchema(() => z.object({
  searchTerm: z.string(),
  cursor: z.string().nullish(),
  limit: z.number().int().nonnegative().nullish(),
  archived: z.boolean().nullish(),
  sortKey: z.enum(['created_at', 'updated_at', 'recency_at']).nullish(),
  sortDirection: z.enum(['asc', 'desc']).nullish(),
  sourceKinds: z.array(z.string()).nullish(),
  currentAccountOnly: z.boolean().optional(),
  includeAttachedThreads: z.boolean().optional(),
}));
export type ThreadSearchParams = z.infer<typeof ThreadSearchParams>;

/** `thread/search/cancel`, `thread/search/stream/cancel`: stops the search a request started. */
export const ThreadSearchCancelParams = lazySchema(() => z.object({ requestId: RequestId }));
export type ThreadSearchCancelParams = z.infer<typeof ThreadSearchCancelParams>;

/** `thread/searchOccurrences`: every place one thread's messages hold `searchTerm`, oldest first, paged. */
export const ThreadSearchOccurrencesParams = lazySchema(() => z.object({
  threadId: z.string(),
  searchTerm: z.string(),
  cursor: z.string().nullish(),
  limit: z.number().int().nonnegative().nullish(),
}));
export type ThreadSearchOccurrencesParams = z.infer<typeof ThreadSearchOccurrencesParams>;
