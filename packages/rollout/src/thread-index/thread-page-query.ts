// One page of the threads table: a list's or a search's filters, order, bound and cursor, as SQL
// pieces the index puts around its own select.
import { RolloutError } from '../rollout-error.js';
import { decodeThreadCursor, encodeThreadCursor, type ThreadSortKey } from './thread-cursor.js';

/** The page size of `list` when none is given. */
export const DEFAULT_PAGE_SIZE = 25;
/** The largest page `list` returns. */
export const MAX_PAGE_SIZE = 500;

/** A list request: `{cursor, limit}` plus filters. */
export interface ThreadListQuery {
  readonly cursor?: string | null;
  readonly limit?: number;
  /** Only threads whose cwd is exactly this. */
  readonly cwd?: string;
  /** Only threads of these source kinds. */
  readonly source?: string | readonly string[];
  /** Leave out threads of this source kind (`subagent`: list root threads only). */
  readonly excludeSource?: string;
  /** Only the threads of this session (a root and the sub-agents under it). */
  readonly sessionId?: string;
  /** Archived threads instead of live ones (default false). */
  readonly archived?: boolean;
  /** Newest first by creation (default) or by last update. */
  readonly sortKey?: ThreadSortKey;
}

/** The columns a page's cursor is made from. */
interface PageRow {
  readonly id: string;
  readonly created_ms: number;
  readonly updated_ms: number;
}

/** The filters, order, bound and cursor of a page of `table` (an alias of the threads table). */
export function pageQuery(query: Omit<ThreadListQuery, 'cwd'>, table: string, ascending: boolean) {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw new RolloutError('InvalidArgument', `limit must be an integer from 1 to ${MAX_PAGE_SIZE}, got ${limit}`);
  }
  const sortKey = query.sortKey ?? 'created';
  const column = sortKey === 'created' ? 'created_ms' : 'updated_ms';
  const where = [`${table}.archived = @archived`];
  const params: Record<string, unknown> = { archived: query.archived === true ? 1 : 0, limit: limit + 1 };
  if (query.source !== undefined) {
    const sources = typeof query.source === 'string' ? [query.source] : [...query.source];
    where.push(`${table}.source IN (${sources.map((_, index) => `@source${index}`).join(', ') || 'NULL'})`);
    sources.forEach((source, index) => (params[`source${index}`] = source));
  }
  if (query.sessionId !== undefined) {
    where.push(`${table}.session_id = @sessionId`);
    params['sessionId'] = query.sessionId;
  }
  if (query.excludeSource !== undefined) {
    where.push(`${table}.source IS NOT @excludeSource`);
    params['excludeSource'] = query.excludeSource;
  }
  const after = ascending ? '>' : '<';
  if (query.cursor !== undefined && query.cursor !== null) {
    const cursor = decodeThreadCursor(query.cursor);
    if (cursor.sortKey !== sortKey) throw new RolloutError('InvalidCursor', `the cursor is for a list sorted by ${cursor.sortKey}, not ${sortKey}`);
    where.push(`(${table}.${column} ${after} @time OR (${table}.${column} = @time AND ${table}.id ${after} @id))`);
    params['time'] = cursor.time;
    params['id'] = cursor.id;
  }
  const direction = ascending ? 'ASC' : 'DESC';
  const next = (rows: readonly PageRow[]): string | null => {
    const last = rows.at(limit - 1);
    return rows.length > limit && last !== undefined ? encodeThreadCursor({ sortKey, time: last[column], id: last.id }) : null;
  };
  return { where, params, order: `${table}.${column} ${direction}, ${table}.id ${direction}`, limit, next };
}
