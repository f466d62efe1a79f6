// The thread index: one SQLite row per thread file under the home directory, for fast newest-first
// listing with filters. The files are the truth; the index can be rebuilt from them at any time.
import type Database from 'better-sqlite3';
import { prepared } from './prepared-statement.js';
import { mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { QueuedSubmissions } from './queued-submissions.js';
import { ReadReceipts } from './read-receipts.js';
import { ThreadAttachments } from './thread-attachments.js';
import { ThreadMessages } from './thread-messages.js';
import { ThreadMetadata } from './thread-metadata.js';
import { ThreadSections } from './thread-sections.js';
import { pageQuery, type ThreadListQuery } from './thread-page-query.js';
import type { FileThreadSummary, ThreadSummary } from './thread-summary.js';
import { WalCheckpoints, type CheckpointResult } from './wal-checkpoints.js';

// better-sqlite3 is required when a host first opens an index, not when it loads this package: an
// app-server answers its first requests before any thread is read (issue #18).
const requireModule = createRequire(import.meta.url);
let sqliteModule: typeof Database | undefined;
const sqlite = (): typeof Database => (sqliteModule ??= requireModule('better-sqlite3') as typeof Database);

/** The index's file under the home directory (Skein's own; Codex keeps its `state_5.sqlite` beside it). */
export const THREAD_INDEX_FILE = 'skein_thread_index.sqlite';

/** The schema version this code writes; an index of another version is rebuilt. */
export const THREAD_INDEX_SCHEMA_VERSION = 2;

export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './thread-page-query.js';
export type { ThreadListQuery } from './thread-page-query.js';

/** How long a statement waits for another process's write transaction before failing. */
export const BUSY_TIMEOUT_MS = 10_000;

/** A search: the threads whose messages hold `term` (anywhere, any case), paged like a list. */
export interface ThreadSearchQuery extends Omit<ThreadListQuery, 'cwd'> {
  readonly term: string;
  /** Oldest first instead of newest first. */
  readonly ascending?: boolean;
  /** Only these threads (a search over the threads just read). */
  readonly threadIds?: readonly string[];
}

/** One thread a search found, with its first message that holds the term. */
export interface ThreadSearchHit {
  readonly summary: ThreadSummary;
  readonly message: string;
}

/** One page of a search. */
export interface ThreadSearchPage {
  readonly data: readonly ThreadSearchHit[];
  readonly nextCursor: string | null;
}

/** Terms shorter than this many characters are below the trigram index: they are matched by a scan. */
const TRIGRAM_CHARS = 3;

/** One page: the threads, and the cursor of the next page (null on the last). */
export interface ThreadPage {
  readonly data: readonly ThreadSummary[];
  readonly nextCursor: string | null;
}

/** What the index remembers about a file to tell whether it changed since it was read. */
export interface IndexedFileState {
  readonly id: string;
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
}

interface Row {
  id: string;
  path: string;
  cwd: string;
  created_ms: number;
  updated_ms: number;
  title: string | null;
  model_provider: string | null;
  model: string | null;
  source: string | null;
  archived: number;
  parent_thread_id: string | null;
  session_id: string;
  forked_from_id: string | null;
  file_size: number;
  file_mtime_ms: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS threads (
  id TEXT PRIMARY KEY,
  path TEXT NOT NULL,
  cwd TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  updated_ms INTEGER NOT NULL,
  title TEXT,
  model_provider TEXT,
  model TEXT,
  source TEXT,
  archived INTEGER NOT NULL,
  parent_thread_id TEXT,
  session_id TEXT NOT NULL,
  forked_from_id TEXT,
  file_size INTEGER NOT NULL,
  file_mtime_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS threads_by_created ON threads (archived, created_ms DESC, id DESC);
CREATE INDEX IF NOT EXISTS threads_by_updated ON threads (archived, updated_ms DESC, id DESC);
`;

/** The SQLite thread index of one home directory. Synchronous (better-sqlite3); safe to share between processes (WAL). */
export class ThreadIndex {
  #readReceipts: ReadReceipts | undefined;
  #queuedSubmissions: QueuedSubmissions | undefined;
  #metadata: ThreadMetadata | undefined;
  #sections: ThreadSections | undefined;
  #attachments: ThreadAttachments | undefined;
  #messages: ThreadMessages | undefined;

  /** Checkpoints the write-ahead log off the event loop. */
  readonly #checkpoints: WalCheckpoints;

  private constructor(
    private readonly db: Database.Database,
    /** The database file. */
    readonly path: string,
    /** True when this open created the index (or replaced an unusable one), so it must be filled from the files. */
    readonly fresh: boolean,
  ) {
    this.#checkpoints = new WalCheckpoints(db, path, requireModule.resolve('better-sqlite3'), BUSY_TIMEOUT_MS);
  }

  /**
   * Opens (creating if needed) `<home>/skein_thread_index.sqlite`. An index that is not a database,
   * is damaged or has another schema version is deleted and recreated (`fresh`).
   */
  static open(home: string): ThreadIndex {
    mkdirSync(home, { recursive: true });
    const file = path.join(home, THREAD_INDEX_FILE);
    try {
      const { db, fresh } = ThreadIndex.openFile(file);
      return new ThreadIndex(db, file, fresh);
    } catch (error) {
      if (!isUnusableDatabase(error)) throw error;
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
      return new ThreadIndex(ThreadIndex.openFile(file).db, file, true);
    }
  }

  /** Opens the database with the index's schema; `fresh` when the table had to be made. */
  private static openFile(file: string): { readonly db: Database.Database; readonly fresh: boolean } {
    const db = new (sqlite())(file, { timeout: BUSY_TIMEOUT_MS });
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      // One write transaction: processes opening the index at once must not drop a table another
      // has just created (and written to) before it stamped the version.
      const fresh = db
        .transaction(() => {
          const version = db.pragma('user_version', { simple: true }) as number;
          const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'threads'").get() !== undefined;
          const current = hasTable && version === THREAD_INDEX_SCHEMA_VERSION;
          if (hasTable && !current) db.exec('DROP TABLE threads');
          db.exec(SCHEMA);
          db.pragma(`user_version = ${THREAD_INDEX_SCHEMA_VERSION}`);
          return !current;
        })
        .immediate();
      // Touch the table so a damaged file fails here, not on the first list.
      db.prepare('SELECT count(*) FROM threads').get();
      return { db, fresh };
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** Inserts or replaces a thread's row, with the state of its file when it was read. */
  upsert(summary: FileThreadSummary, file: { readonly size: number; readonly mtimeMs: number }): void {
    prepared(this.db, 
        `INSERT INTO threads (id, path, cwd, created_ms, updated_ms, title, model_provider, model, source, archived, parent_thread_id, session_id, forked_from_id, file_size, file_mtime_ms)
         VALUES (@id, @path, @cwd, @created_ms, @updated_ms, @title, @model_provider, @model, @source, @archived, @parent_thread_id, @session_id, @forked_from_id, @file_size, @file_mtime_ms)
         ON CONFLICT(id) DO UPDATE SET path = excluded.path, cwd = excluded.cwd, created_ms = excluded.created_ms, updated_ms = excluded.updated_ms,
           title = COALESCE(excluded.title, threads.title), model_provider = excluded.model_provider,
           model = COALESCE(excluded.model, threads.model), source = excluded.source, archived = excluded.archived,
           parent_thread_id = excluded.parent_thread_id, session_id = excluded.session_id, forked_from_id = excluded.forked_from_id,
           file_size = excluded.file_size, file_mtime_ms = excluded.file_mtime_ms`,
      )
      .run(toRow(summary, file));
  }

  /** Runs `work` in one write transaction (other processes wait up to `BUSY_TIMEOUT_MS`). */
  transaction<T>(work: () => T): T {
    return this.db.transaction(work).immediate();
  }

  /** The thread's row, if indexed. */
  get(id: string): FileThreadSummary | undefined {
    const row = prepared(this.db, 'SELECT * FROM threads WHERE id = ?').get(id.toLowerCase()) as Row | undefined;
    return row === undefined ? undefined : fromRow(row);
  }

  /** Removes a thread's row (no-op when absent). */
  remove(id: string): void {
    prepared(this.db, 'DELETE FROM threads WHERE id = ?').run(id.toLowerCase());
  }

  /** Removes every row. */
  clear(): void {
    prepared(this.db, 'DELETE FROM threads').run();
  }

  /** Every row's file state, for reconciling with the files on disk. */
  fileStates(): IndexedFileState[] {
    return (prepared(this.db, 'SELECT id, path, file_size, file_mtime_ms FROM threads').all() as Row[]).map((row) => ({
      id: row.id,
      path: row.path,
      size: row.file_size,
      mtimeMs: row.file_mtime_ms,
    }));
  }

  /** How many threads are indexed. */
  count(): number {
    return (prepared(this.db, 'SELECT count(*) AS n FROM threads').get() as { n: number }).n;
  }

  /** One page of threads, newest first, after `cursor`. Throws `InvalidCursor` / `InvalidArgument`. */
  list(query: ThreadListQuery = {}): ThreadPage {
    const { where, params, order, limit, next } = pageQuery(query, 'threads', false);
    if (query.cwd !== undefined) {
      where.push('cwd = @cwd');
      params['cwd'] = query.cwd;
    }
    const rows = prepared(this.db, `SELECT * FROM threads WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT @limit`).all(params) as Row[];
    const page = rows.slice(0, limit);
    return { data: page.map(fromRow), nextCursor: next(rows) };
  }

  /**
   * One page of the threads whose searchable messages (see `messages`) hold `term`, ordered as a
   * list is, each with the first such message. Only messages already read are searched: the store
   * reads what is new before it searches. Throws `InvalidCursor` / `InvalidArgument`.
   */
  search(query: ThreadSearchQuery): ThreadSearchPage {
    this.#messages ??= new ThreadMessages(this.db); // creates the tables searched
    const { where, params, order, limit, next } = pageQuery(query, 't', query.ascending === true);
    // The trigram index finds a term of three characters or more anywhere in a message; a shorter
    // one is matched by scanning (LIKE, case-insensitive for ASCII as the index is).
    const short = [...query.term].length < TRIGRAM_CHARS;
    const matching = short
      ? `SELECT rowid FROM thread_messages WHERE body LIKE @term ESCAPE '\\'`
      : 'SELECT rowid FROM thread_messages_fts WHERE thread_messages_fts MATCH @term';
    if (query.threadIds !== undefined) {
      where.push(`t.id IN (SELECT value FROM json_each(@threadIds))`);
      params['threadIds'] = JSON.stringify(query.threadIds.map((id) => id.toLowerCase()));
    }
    params['term'] = short ? `%${query.term.replace(/[\\%_]/g, (char) => `\\${char}`)}%` : `"${query.term.replaceAll('"', '""')}"`;
    const rows = prepared(this.db, 
        `WITH hits AS (
           SELECT m.thread_id, min(m.rowid) AS first FROM thread_messages m WHERE m.rowid IN (${matching}) GROUP BY m.thread_id
         )
         SELECT t.*, (SELECT body FROM thread_messages WHERE rowid = hits.first) AS message
         FROM hits JOIN threads t ON t.id = hits.thread_id
         WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT @limit`,
      )
      .all(params) as (Row & { message: string })[];
    const page = rows.slice(0, limit);
    return { data: page.map((row) => ({ summary: fromRow(row), message: row.message })), nextCursor: next(rows) };
  }

  /** The messages thread search covers, and how far each thread's file was read for them. */
  get messages(): ThreadMessages {
    this.#messages ??= new ThreadMessages(this.db);
    return this.#messages;
  }

  /** The read receipts kept beside the rows (a table that survives index rebuilds). */
  get readReceipts(): ReadReceipts {
    this.#readReceipts ??= new ReadReceipts(this.db);
    return this.#readReceipts;
  }

  /** The messages clients queued for each thread, durable like the read receipts. */
  get queuedSubmissions(): QueuedSubmissions {
    this.#queuedSubmissions ??= new QueuedSubmissions(this.db);
    return this.#queuedSubmissions;
  }

  /** The metadata clients set on threads (Git facts, Daybreak), durable like the read receipts. */
  get threadMetadata(): ThreadMetadata {
    this.#metadata ??= new ThreadMetadata(this.db);
    return this.#metadata;
  }

  /** The sections clients file threads in, and each thread's place there; durable like the read receipts. */
  get threadSections(): ThreadSections {
    this.#sections ??= new ThreadSections(this.db);
    return this.#sections;
  }

  /** What clients attached to threads, durable like the read receipts. */
  get threadAttachments(): ThreadAttachments {
    this.#attachments ??= new ThreadAttachments(this.db);
    return this.#attachments;
  }

  /** Whether the database is open. */
  get isOpen(): boolean {
    return this.db.open;
  }

  /** Copies the write-ahead log into the database now, from the checkpoint worker (done on its own as the log grows). */
  checkpoint(): Promise<CheckpointResult> {
    return this.#checkpoints.checkpoint();
  }

  /** Closes the database. */
  close(): void {
    this.#checkpoints.stop();
    if (this.db.open) this.db.close();
  }
}

function toRow(summary: FileThreadSummary, file: { readonly size: number; readonly mtimeMs: number }): Row {
  return {
    id: summary.id.toLowerCase(),
    path: summary.path,
    cwd: summary.cwd,
    created_ms: Date.parse(summary.createdAt),
    updated_ms: Date.parse(summary.updatedAt),
    title: summary.title,
    model_provider: summary.modelProvider,
    model: summary.model,
    source: summary.source,
    archived: summary.archived ? 1 : 0,
    parent_thread_id: summary.parentThreadId,
    session_id: summary.sessionId,
    forked_from_id: summary.forkedFromId,
    file_size: file.size,
    file_mtime_ms: Math.trunc(file.mtimeMs),
  };
}

function fromRow(row: Row): FileThreadSummary {
  return {
    id: row.id,
    path: row.path,
    cwd: row.cwd,
    createdAt: new Date(row.created_ms).toISOString(),
    updatedAt: new Date(row.updated_ms).toISOString(),
    title: row.title,
    modelProvider: row.model_provider,
    model: row.model,
    source: row.source,
    archived: row.archived === 1,
    parentThreadId: row.parent_thread_id,
    sessionId: row.session_id,
    forkedFromId: row.forked_from_id,
  };
}

function isUnusableDatabase(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT' || (typeof code === 'string' && code.startsWith('SQLITE_CORRUPT'));
}
