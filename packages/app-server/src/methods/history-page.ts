// Paging through a thread's history (its turns, or its items) as `thread/turns/list` and
// `thread/items/list` do: cursors name an entry rather than an offset, so a page stays put while the
// thread grows; `nextCursor` continues after a page, `backwardsCursor` turns round at its first entry
// (including it), and an unusable cursor is -32600 `invalid cursor: …` as for the other list methods.
import { AppServerErrorCode, lazySchema } from '@skein/protocol';
import * as z from 'zod';
import { AppServerRequestError } from '../app-server-error.js';
import { MAX_PAGE_SIZE } from '../limits.js';

const HistoryCursor = lazySchema(() => z.object({ threadId: z.string(), id: z.string(), includeAnchor: z.boolean() }));
type HistoryCursor = z.infer<typeof HistoryCursor>;

/** Where a page starts: a cursor we made, or an entry to continue after (an item anchor). */
export type HistoryStart = { readonly cursor: string } | { readonly after: string } | undefined;

/** One page of `ordered` (already in the direction asked for). */
export function historyPage<T>(
  ordered: readonly T[],
  idOf: (entry: T) => string,
  threadId: string,
  params: { readonly start: HistoryStart; readonly limit?: number | null | undefined },
): { readonly page: T[]; readonly nextCursor: string | null; readonly backwardsCursor: string | null } {
  let start = 0;
  if (params.start !== undefined) {
    const cursor: HistoryCursor = 'cursor' in params.start ? parseCursor(params.start.cursor, threadId) : { threadId, id: params.start.after, includeAnchor: false };
    const index = ordered.findIndex((entry) => idOf(entry) === cursor.id);
    // A rollback removed what the cursor was anchored at.
    if (index < 0) throw invalidCursor(`${cursor.id} is no longer in the thread`);
    start = cursor.includeAnchor ? index : index + 1;
  }
  // A zero limit still returns one entry, so a client paging with it makes progress.
  const size = Math.min(Math.max(params.limit ?? MAX_PAGE_SIZE, 1), MAX_PAGE_SIZE);
  const page = ordered.slice(start, start + size);
  const cursorAt = (entry: T | undefined, includeAnchor: boolean) => (entry === undefined ? null : historyCursor(threadId, idOf(entry), includeAnchor));
  return { page, nextCursor: start + size < ordered.length ? cursorAt(page.at(-1), false) : null, backwardsCursor: cursorAt(page[0], true) };
}

/** A cursor at the entry `id`; with `includeAnchor` the page it opens starts with that entry. */
export function historyCursor(threadId: string, id: string, includeAnchor: boolean): string {
  return JSON.stringify({ threadId, id, includeAnchor } satisfies HistoryCursor);
}

function parseCursor(text: string, threadId: string): HistoryCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const cursor = HistoryCursor.safeParse(parsed);
  if (!cursor.success || cursor.data.threadId !== threadId) throw invalidCursor(text);
  return cursor.data;
}

function invalidCursor(detail: string): AppServerRequestError {
  return new AppServerRequestError(AppServerErrorCode.InvalidRequest, `invalid cursor: ${detail}`);
}
