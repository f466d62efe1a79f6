// PostgresThreadStore: the ThreadStore several hosts share. Threads, their lines, the index and what
// clients keep beside them live in one database; a lease makes one host at a time a thread's
// writer. Reads need no lease: any host lists, searches and reads any thread.
import { hostname } from 'node:os';
import type pg from 'pg';
import { newThreadId, randomUuidV7, type ContextFragmentDefinition } from '@skein/protocol';
import {
  RolloutError,
  RolloutLineEncoder,
  ThreadReconstructor,
  collectGitInfo,
  forkLines,
  rolloutTimestamp,
  searchableMessageText,
  summaryFromMeta,
  systemClock,
  type Clock,
  type CreateThreadOptions,
  type Durability,
  type EventPersistenceMode,
  type ForkThreadOptions,
  type GitInfo,
  type ImportedRollout,
  type LoadedThread,
  type ResumedThread,
  type RolloutLine,
  type SessionMeta,
  type ThreadListQuery,
  type ThreadPage,
  type ThreadReplay,
  type ThreadSearchPage,
  type ThreadSearchQuery,
  type ThreadStore,
  type ThreadSummary,
} from '@skein/rollout';
import { inTransaction, openPool, type Queryable } from './database.js';
import { PostgresStoreError } from './postgres-store-error.js';
import { PostgresThreadWriter } from './postgres-thread-writer.js';
import { migrate } from './schema/migrations.js';
import { PostgresQueuedSubmissions, PostgresReadReceipts, PostgresThreadAttachments, PostgresThreadMetadata, PostgresThreadSections, removeThreadSideState } from './side-stores/index.js';
import { LINE_PAGE_ROWS, forEachStoredLine, linesLocation } from './thread-lines.js';
import { ThreadLeases } from './thread-leases.js';
import { INSERT_THREAD, pageSql, summaryOfRow, threadRowValues, titleAndModel, type ThreadRow } from './thread-rows.js';

/** How long a writer's lease lasts without renewal, by default. */
export const DEFAULT_LEASE_MS = 30_000;

/** Options of `PostgresThreadStore.open`. */
export interface PostgresThreadStoreOptions {
  /** `postgres://user:password@host:port/database`. */
  readonly url: string;
  /** This host's name in leases and in the refusals other hosts get (default `hostname:pid`). */
  readonly hostId?: string;
  readonly leaseMs?: number;
  readonly maxConnections?: number;
  readonly clock?: Clock;
  readonly persistence?: EventPersistenceMode;
  readonly durability?: Durability;
  readonly contextFragments?: readonly ContextFragmentDefinition[];
  readonly gitInfo?: (cwd: string) => Promise<GitInfo | undefined>;
  /** Told about failures no caller is waiting for (an idle connection dropped, a lease renewal failed). */
  readonly onWarning?: (message: string, error: unknown) => void;
}

export class PostgresThreadStore implements ThreadStore {
  readonly readReceipts: PostgresReadReceipts;
  readonly queuedSubmissions: PostgresQueuedSubmissions;
  readonly threadMetadata: PostgresThreadMetadata;
  readonly threadSections: PostgresThreadSections;
  readonly threadAttachments: PostgresThreadAttachments;

  private constructor(
    readonly location: string,
    private readonly pool: pg.Pool,
    private readonly leases: ThreadLeases,
    private readonly options: PostgresThreadStoreOptions,
  ) {
    this.readReceipts = new PostgresReadReceipts(pool);
    this.queuedSubmissions = new PostgresQueuedSubmissions(pool);
    this.threadMetadata = new PostgresThreadMetadata(pool);
    this.threadSections = new PostgresThreadSections(pool);
    this.threadAttachments = new PostgresThreadAttachments(pool);
  }

  /** Connects, and brings the schema up to date (hosts starting together migrate once). */
  static async open(options: PostgresThreadStoreOptions): Promise<PostgresThreadStore> {
    const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    if (!Number.isInteger(leaseMs) || leaseMs < 1000) throw new PostgresStoreError('InvalidConfig', `the lease must last a whole number of milliseconds, at least 1000; got ${leaseMs}`);
    const pool = openPool({ url: options.url, ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }), onIdleError: (error) => options.onWarning?.('a database connection failed while idle', error) });
    try {
      await migrate(pool);
    } catch (error) {
      await pool.end().catch(() => undefined);
      if (error instanceof PostgresStoreError) throw error;
      throw new PostgresStoreError('Unavailable', `could not open the thread store at ${redactedUrl(options.url)}: ${(error as Error).message}`, { cause: error });
    }
    return new PostgresThreadStore(redactedUrl(options.url), pool, new ThreadLeases(options.hostId ?? `${hostname()}:${process.pid}`, leaseMs), options);
  }

  /** This host's name in leases. */
  get hostId(): string {
    return this.leases.hostId;
  }

  async createThread(options: CreateThreadOptions): Promise<PostgresThreadWriter> {
    let given = options.meta;
    if (given.git === undefined && options.gitKnown !== true) {
      const git = await (this.options.gitInfo ?? collectGitInfo)(given.cwd);
      if (git !== undefined) given = { ...given, git };
    }
    const threadId = (options.threadId ?? newThreadId(options.uuid ?? randomUuidV7)).toLowerCase();
    const createdAt = this.clock.now();
    const { session_id: sessionId, ...rest } = given;
    const meta = { session_id: sessionId ?? threadId, id: threadId, timestamp: rolloutTimestamp(createdAt), history_mode: 'paginated', ...rest } as SessionMeta;
    const encoder = this.encoder(threadId, 0);
    const [header] = encoder.encode([{ type: 'session_meta', payload: meta }]).lines;
    const summary = { ...summaryFromMeta(meta, { path: '', archived: false, updatedAt: createdAt }, undefined), path: null };
    const lease = await this.#write(async (client) => {
      const inserted = await client.query(`${INSERT_THREAD} ON CONFLICT (id) DO NOTHING`, threadRowValues(summary, 1));
      if (inserted.rowCount !== 1) throw new RolloutError('AlreadyExists', `thread ${threadId} already exists in the database`);
      await client.query('INSERT INTO skein_rollout_lines (thread_id, seq, line) VALUES ($1, 0, $2)', [threadId, header]);
      return this.leases.take(client, threadId);
    });
    return this.#writer(threadId, meta, encoder, lease, 1);
  }

  async openForResume(threadId: string): Promise<ResumedThread> {
    const id = await this.#requireId(threadId);
    const lease = await this.#write((client) => this.leases.take(client, id));
    try {
      const { loaded, lineCount, lastOrdinal } = await this.#load(id);
      const writer = this.#writer(id, loaded.meta, this.encoder(id, lastOrdinal + 1), lease, lineCount);
      return { writer, loaded };
    } catch (error) {
      await this.leases.release(this.pool, lease).catch(() => undefined);
      throw error;
    }
  }

  async loadThread(threadId: string): Promise<LoadedThread> {
    return (await this.#load(await this.#requireId(threadId))).loaded;
  }

  async forEachLine(threadId: string, visit: (line: RolloutLine, lineNumber: number) => void): Promise<ThreadReplay> {
    const id = await this.#requireId(threadId);
    const { meta, problems } = await this.#read((db) => forEachStoredLine(db, id, visit));
    return { meta, problems };
  }

  async forkThread(threadId: string, options: ForkThreadOptions = {}): Promise<ThreadSummary> {
    const sourceId = await this.#requireId(threadId);
    const lines: RolloutLine[] = [];
    const { meta: sourceMeta } = await this.forEachLine(sourceId, (line) => {
      if (line.type !== 'session_meta') lines.push(line);
    });
    const createdAt = this.clock.now();
    const fork = forkLines({ ...options, ...this.fragments(), sourceMeta, lines, createdAt, where: linesLocation(sourceId) });
    const forkId = fork.threadId.toLowerCase();
    const { title, model } = titleAndModel(lines.slice(0, fork.lines.length - 1), this.fragments());
    const summary = { ...summaryFromMeta(fork.meta, { path: '', archived: false, updatedAt: createdAt }, title, model), path: null };
    await this.#write(async (client) => {
      await client.query(INSERT_THREAD, threadRowValues(summary, fork.lines.length));
      await client.query('INSERT INTO skein_rollout_lines (thread_id, seq, line) SELECT $1, ordinality - 1, line FROM unnest($2::text[]) WITH ORDINALITY AS copy (line, ordinality)', [forkId, fork.lines]);
      await client.query('INSERT INTO skein_thread_messages (thread_id, seq, body) SELECT $1, seq, body FROM skein_thread_messages WHERE thread_id = $2 AND seq < $3', [forkId, sourceId, fork.lines.length]);
    });
    return summary;
  }

  async list(query: ThreadListQuery = {}): Promise<ThreadPage> {
    const page = pageSql(query, 't', false);
    const { rows } = await this.#read((db) => db.query<ThreadRow>(`SELECT t.* FROM skein_threads t WHERE ${page.where.join(' AND ')} ORDER BY ${page.order} LIMIT ${page.limit + 1}`, page.values));
    return { data: rows.slice(0, page.limit).map(summaryOfRow), nextCursor: page.next(rows) };
  }

  async search(query: ThreadSearchQuery): Promise<ThreadSearchPage> {
    const page = pageSql(query, 't', query.ascending === true);
    const values = [...page.values, `%${query.term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`];
    const term = `$${values.length}`;
    if (query.threadIds !== undefined) {
      values.push(query.threadIds.map((id) => id.toLowerCase()));
      page.where.push(`t.id = ANY($${values.length}::text[])`);
    }
    // The first message of each thread that holds the term, case-insensitively, as the file index finds it.
    const { rows } = await this.#read((db) =>
      db.query<ThreadRow & { message: string }>(
        `SELECT t.*, hit.body AS message FROM skein_threads t
         CROSS JOIN LATERAL (SELECT m.body FROM skein_thread_messages m WHERE m.thread_id = t.id AND m.body ILIKE ${term} ORDER BY m.seq LIMIT 1) hit
         WHERE ${page.where.join(' AND ')} ORDER BY ${page.order} LIMIT ${page.limit + 1}`,
        values,
      ),
    );
    return { data: rows.slice(0, page.limit).map((row) => ({ summary: summaryOfRow(row), message: row.message })), nextCursor: page.next(rows) };
  }

  async find(threadId: string): Promise<ThreadSummary | undefined> {
    const { rows } = await this.#read((db) => db.query<ThreadRow>('SELECT * FROM skein_threads WHERE id = $1', [threadId.toLowerCase()]));
    return rows[0] === undefined ? undefined : summaryOfRow(rows[0]);
  }

  archive(threadId: string): Promise<ThreadSummary> {
    return this.#setArchived(threadId, true);
  }

  unarchive(threadId: string): Promise<ThreadSummary> {
    return this.#setArchived(threadId, false);
  }

  async delete(threadId: string): Promise<void> {
    const id = await this.#requireId(threadId);
    await this.#write(async (client) => {
      await this.#assertIdle(client, id);
      await client.query('DELETE FROM skein_threads WHERE id = $1', [id]);
      await client.query('DELETE FROM skein_thread_leases WHERE thread_id = $1', [id]);
      await removeThreadSideState(client, id);
    });
  }

  async exportRollout(threadId: string, write: (line: string) => Promise<void> | void): Promise<void> {
    const id = await this.#requireId(threadId);
    for (let after = -1; ; ) {
      const { rows } = await this.#read((db) => db.query<{ seq: string; line: string }>('SELECT seq, line FROM skein_rollout_lines WHERE thread_id = $1 AND seq > $2 ORDER BY seq LIMIT $3', [id, after, LINE_PAGE_ROWS]));
      for (const row of rows) await write(row.line);
      if (rows.length < LINE_PAGE_ROWS) return;
      after = Number(rows.at(-1)?.seq);
    }
  }

  async importRollout(rollout: ImportedRollout): Promise<ThreadSummary> {
    const id = rollout.meta.id.toLowerCase();
    const { title, model } = titleAndModel(rollout.lines, this.fragments());
    const createdAt = new Date(rollout.meta.timestamp);
    const summary = { ...summaryFromMeta({ ...rollout.meta, id }, { path: '', archived: false, updatedAt: Number.isNaN(createdAt.getTime()) ? this.clock.now() : createdAt }, title, model), path: null };
    const messages = rollout.texts.flatMap((text, seq) => {
      const body = searchableMessageText(text, this.options.contextFragments);
      return body === undefined ? [] : [{ seq, body }];
    });
    await this.#write(async (client) => {
      const inserted = await client.query(`${INSERT_THREAD} ON CONFLICT (id) DO NOTHING`, threadRowValues(summary, rollout.texts.length));
      if (inserted.rowCount !== 1) throw new RolloutError('AlreadyExists', `thread ${id} is already in the database`);
      await client.query('INSERT INTO skein_rollout_lines (thread_id, seq, line) SELECT $1, ordinality - 1, line FROM unnest($2::text[]) WITH ORDINALITY AS copy (line, ordinality)', [id, rollout.texts]);
      await client.query('INSERT INTO skein_thread_messages (thread_id, seq, body) SELECT $1, seq, body FROM unnest($2::bigint[], $3::text[]) AS batch (seq, body)', [id, messages.map((message) => message.seq), messages.map((message) => message.body)]);
    });
    return summary;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  private get clock(): Clock {
    return this.options.clock ?? systemClock;
  }

  private fragments(): { readonly contextFragments?: readonly ContextFragmentDefinition[] } {
    return this.options.contextFragments === undefined ? {} : { contextFragments: this.options.contextFragments };
  }

  private encoder(threadId: string, nextOrdinal: number): RolloutLineEncoder {
    return new RolloutLineEncoder({ clock: this.clock, persistence: this.options.persistence ?? 'limited', nextOrdinal, where: linesLocation(threadId), ...this.fragments() });
  }

  #writer(threadId: string, meta: SessionMeta, encoder: RolloutLineEncoder, lease: { threadId: string; token: string }, nextSeq: number): PostgresThreadWriter {
    return new PostgresThreadWriter(threadId, meta, encoder, lease, nextSeq, {
      pool: this.pool,
      leases: this.leases,
      durability: this.options.durability ?? 'turn',
      now: () => this.clock.now().getTime(),
      ...this.fragments(),
      onRenewError: (error) => this.options.onWarning?.(`renewing the lease of thread ${threadId} failed`, error),
    });
  }

  async #load(threadId: string): Promise<{ readonly loaded: LoadedThread; readonly lineCount: number; readonly lastOrdinal: number }> {
    const reconstructor = new ThreadReconstructor(this.fragments());
    let lastOrdinal = -1;
    const replay = await this.#read((db) =>
      forEachStoredLine(db, threadId, (line, lineNumber) => {
        reconstructor.push(line, lineNumber);
        lastOrdinal = line.ordinal ?? lastOrdinal + 1;
      }),
    );
    return { loaded: { ...reconstructor.finish(), path: null, meta: replay.meta, problems: replay.problems }, lineCount: replay.lineCount, lastOrdinal };
  }

  async #setArchived(threadId: string, archived: boolean): Promise<ThreadSummary> {
    const id = await this.#requireId(threadId);
    const { rows } = await this.#write(async (client) => {
      await this.#assertIdle(client, id);
      return client.query<ThreadRow>('UPDATE skein_threads SET archived = $2 WHERE id = $1 RETURNING *', [id, archived]);
    });
    const row = rows[0];
    if (row === undefined) throw new RolloutError('ThreadNotFound', `no thread ${threadId} in the database`);
    return summaryOfRow(row);
  }

  async #assertIdle(db: Queryable, threadId: string): Promise<void> {
    const holder = await this.leases.holder(db, threadId);
    if (holder !== undefined) throw new RolloutError('WriterBusy', `thread ${threadId} is being written by host ${holder}; close it there first`);
  }

  async #requireId(threadId: string): Promise<string> {
    const id = threadId.toLowerCase();
    const { rowCount } = await this.#read((db) => db.query('SELECT 1 FROM skein_threads WHERE id = $1', [id]));
    if (rowCount !== 1) throw new RolloutError('ThreadNotFound', `no thread ${threadId} in the database`);
    return id;
  }

  // Database failures become `StoreUnavailable`; the store's own refusals pass through.
  async #read<T>(work: (db: Queryable) => Promise<T>): Promise<T> {
    try {
      return await work(this.pool);
    } catch (error) {
      throw asStoreError(error);
    }
  }

  async #write<T>(work: (client: Queryable) => Promise<T>): Promise<T> {
    try {
      return await inTransaction(this.pool, work);
    } catch (error) {
      throw asStoreError(error);
    }
  }
}

function asStoreError(error: unknown): Error {
  if (error instanceof RolloutError || error instanceof PostgresStoreError) return error;
  return new RolloutError('StoreUnavailable', `the thread store's database failed: ${(error as Error).message}`, undefined, undefined, { cause: error });
}

/** The URL without its password, for messages and logs. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'an unparseable database URL';
  }
}
