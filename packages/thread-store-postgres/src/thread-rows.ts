// The threads table as the store reads it: a row to a summary, and one page of a list or a search
// (filters, order, bound and cursor) in PostgreSQL's terms, with the file index's cursors.
import type { ContextFragmentDefinition } from '@skein/protocol';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, RolloutError, RolloutLineEncoder, decodeThreadCursor, encodeThreadCursor, systemClock, type RolloutLine, type ThreadListQuery, type ThreadSummary } from '@skein/rollout';

/** One row of `skein_threads`. Times are milliseconds; pg answers `bigint` as a string. */
export interface ThreadRow {
  readonly id: string;
  readonly session_id: string;
  readonly cwd: string;
  readonly created_ms: string;
  readonly updated_ms: string;
  readonly title: string | null;
  readonly model_provider: string | null;
  readonly model: string | null;
  readonly source: string | null;
  readonly archived: boolean;
  readonly parent_thread_id: string | null;
  readonly forked_from_id: string | null;
  readonly line_count: string;
}

/** A row as the `ThreadStore` interface answers it: no file, so `path` is null. */
export function summaryOfRow(row: ThreadRow): ThreadSummary {
  return {
    id: row.id,
    path: null,
    cwd: row.cwd,
    createdAt: new Date(Number(row.created_ms)).toISOString(),
    updatedAt: new Date(Number(row.updated_ms)).toISOString(),
    title: row.title,
    modelProvider: row.model_provider,
    model: row.model,
    source: row.source,
    archived: row.archived,
    parentThreadId: row.parent_thread_id,
    sessionId: row.session_id,
    forkedFromId: row.forked_from_id,
  };
}

/** The columns of a new row, in `INSERT_THREAD`'s order, from a summary. */
export function threadRowValues(summary: ThreadSummary, lineCount: number): unknown[] {
  return [
    summary.id,
    summary.sessionId,
    summary.cwd,
    Date.parse(summary.createdAt),
    Date.parse(summary.updatedAt),
    summary.title,
    summary.modelProvider,
    summary.model,
    summary.source,
    summary.archived,
    summary.parentThreadId,
    summary.forkedFromId,
    lineCount,
  ];
}

export const INSERT_THREAD = `INSERT INTO skein_threads
  (id, session_id, cwd, created_ms, updated_ms, title, model_provider, model, source, archived, parent_thread_id, forked_from_id, line_count)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`;

/** A page's SQL pieces: conditions and values (numbered from 1), the order, and the cursor of the next page. */
export interface PageSql {
  readonly where: string[];
  readonly values: unknown[];
  readonly order: string;
  readonly limit: number;
  next(rows: readonly ThreadRow[]): string | null;
}

/** The filters, order, bound and cursor of one page over `table` (an alias of `skein_threads`). */
export function pageSql(query: Omit<ThreadListQuery, 'cwd'> & { readonly cwd?: string }, table: string, ascending: boolean): PageSql {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw new RolloutError('InvalidArgument', `limit must be an integer from 1 to ${MAX_PAGE_SIZE}, got ${limit}`);
  }
  const sortKey = query.sortKey ?? 'created';
  const column = sortKey === 'created' ? 'created_ms' : 'updated_ms';
  const values: unknown[] = [];
  const value = (given: unknown): string => {
    values.push(given);
    return `$${values.length}`;
  };
  const where = [`${table}.archived = ${value(query.archived === true)}`];
  if (query.cwd !== undefined) where.push(`${table}.cwd = ${value(query.cwd)}`);
  if (query.source !== undefined) where.push(`${table}.source = ANY(${value(typeof query.source === 'string' ? [query.source] : [...query.source])}::text[])`);
  if (query.sessionId !== undefined) where.push(`${table}.session_id = ${value(query.sessionId)}`);
  if (query.excludeSource !== undefined) where.push(`${table}.source IS DISTINCT FROM ${value(query.excludeSource)}`);
  const after = ascending ? '>' : '<';
  if (query.cursor !== undefined && query.cursor !== null) {
    const cursor = decodeThreadCursor(query.cursor);
    if (cursor.sortKey !== sortKey) throw new RolloutError('InvalidCursor', `the cursor is for a list sorted by ${cursor.sortKey}, not ${sortKey}`);
    where.push(`(${table}.${column}, ${table}.id) ${after} (${value(cursor.time)}::bigint, ${value(cursor.id)}::text)`);
  }
  const direction = ascending ? 'ASC' : 'DESC';
  return {
    where,
    values,
    order: `${table}.${column} ${direction}, ${table}.id ${direction}`,
    limit,
    next: (rows) => {
      const last = rows.at(limit - 1);
      return rows.length > limit && last !== undefined ? encodeThreadCursor({ sortKey, time: Number(last[column]), id: last.id }) : null;
    },
  };
}

/** A thread's title (its first user message) and latest model, from lines already stored (a fork's, an import's). */
export function titleAndModel(lines: readonly RolloutLine[], options: { readonly contextFragments?: readonly ContextFragmentDefinition[] } = {}): { readonly title: string | undefined; readonly model: string | undefined } {
  // The encoder notes both as a writer appends; its encoded output is not kept.
  const noted = new RolloutLineEncoder({ clock: systemClock, persistence: 'extended', nextOrdinal: 0, where: 'stored lines', ...options });
  for (const { timestamp: _timestamp, ordinal: _ordinal, ...item } of lines) noted.encode([item]);
  return { title: noted.firstUserMessage, model: noted.lastModel };
}
