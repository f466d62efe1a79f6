// Cursor pagination as Codex's list methods do it: the cursor is the decimal offset of the next page
// and an unusable one is -32600 `invalid cursor: …`.
import { AppServerErrorCode, type PageParams } from '@skein/protocol';
import { AppServerRequestError } from './app-server-error.js';
import { MAX_PAGE_SIZE } from './limits.js';

/** One page and the cursor of the next (null on the last page). */
export interface Page<T> {
  readonly data: T[];
  readonly nextCursor: string | null;
}

/** The page of `items` that `cursor`/`limit` select; no limit (or one above `MAX_PAGE_SIZE`) is capped there. */
export function paginate<T>(items: readonly T[], params: PageParams): Page<T> {
  let start = 0;
  if (params.cursor !== undefined && params.cursor !== null) {
    if (!/^\d{1,15}$/.test(params.cursor) || Number(params.cursor) > items.length) {
      throw new AppServerRequestError(AppServerErrorCode.InvalidRequest, `invalid cursor: ${params.cursor}`);
    }
    start = Number(params.cursor);
  }
  // A zero limit still returns one item so a client paging with it makes progress.
  const size = Math.min(Math.max(params.limit ?? MAX_PAGE_SIZE, 1), MAX_PAGE_SIZE);
  const end = Math.min(start + size, items.length);
  return { data: items.slice(start, end), nextCursor: end < items.length ? String(end) : null };
}
