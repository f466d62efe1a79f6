// Read receipts: where a client's user left off in each stored thread (the first turn whose result
// they have not seen), kept in the index database so they survive restarts. The table is Skein's
// own (Codex keeps its `thread_read_receipts` in `state_5.sqlite`) and, unlike the threads table,
// is never rebuilt from the files: it holds what the files cannot tell.
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { prepared } from './prepared-statement.js';
import { settle } from './settle.js';

/** The first unread position: a turn, the thread's start (marked unread), or null when read. */
export type UnreadPosition = { readonly type: 'turn'; readonly turnId: string } | { readonly type: 'threadStart' } | null;

/** A thread's read state; `revision` changes with every change, to guard edits made from a stale view. */
export interface ReadState {
  readonly firstUnread: UnreadPosition;
  readonly revision: string;
}

/** The revision of a thread no turn has ended in and no client marked (no row yet). */
export const INITIAL_READ_REVISION = '0';

/** The outcome of an update: the new state, or the current one when the caller's revision is stale. */
export type ReadStateUpdate = { readonly applied: true; readonly state: ReadState } | { readonly applied: false; readonly current: ReadState };

/** Where clients' users left off in each thread, kept beside the threads (SQLite here; PostgreSQL in `@skein/thread-store-postgres`). */
export interface ReadReceiptStore {
  /** A thread's read state (read, at the initial revision, when nothing was recorded). */
  get(threadId: string): Promise<ReadState>;
  /** A turn of the thread ended with a result: it is unread unless an earlier one still is. */
  publishTurn(threadId: string, turnId: string): Promise<ReadState>;
  /** Marks the thread read, or unread from its last published turn (its start when it has none), if `expectedRevision` is current. */
  update(threadId: string, expectedRevision: string, operation: 'read' | 'unread'): Promise<ReadStateUpdate>;
  /** Forgets a thread's receipt (the thread was deleted). */
  remove(threadId: string): Promise<void>;
}

/** The state of a thread with no receipt yet. */
export const INITIAL_READ_STATE: ReadState = { firstUnread: null, revision: INITIAL_READ_REVISION };

const SCHEMA = `
CREATE TABLE IF NOT EXISTS read_receipts (
  thread_id TEXT PRIMARY KEY,
  first_unread_kind TEXT,
  first_unread_turn_id TEXT,
  revision TEXT NOT NULL,
  last_published_turn_id TEXT
);
`;

/** A receipt as both stores keep it, one column each. */
export interface ReadReceiptRow {
  readonly first_unread_kind: 'turn' | 'threadStart' | null;
  readonly first_unread_turn_id: string | null;
  readonly revision: string;
  readonly last_published_turn_id: string | null;
}
type Row = ReadReceiptRow;

/** The row after a client marks the thread read, or unread from its last published turn (its start when it has none). */
export function markedReadRow(current: ReadReceiptRow | undefined, operation: 'read' | 'unread', revision: string): ReadReceiptRow {
  const last = current?.last_published_turn_id ?? null;
  return {
    first_unread_kind: operation === 'read' ? null : last === null ? 'threadStart' : 'turn',
    first_unread_turn_id: operation === 'read' ? null : last,
    revision,
    last_published_turn_id: last,
  };
}

/** The read receipts of one index database. */
export class ReadReceipts implements ReadReceiptStore {
  constructor(private readonly db: Database.Database) {
    db.exec(SCHEMA);
  }

  /** A thread's read state (read, at the initial revision, when nothing was recorded). */
  get(threadId: string): Promise<ReadState> {
    return settle(() => {
      const row = this.#row(threadId);
      return row === undefined ? INITIAL_READ_STATE : readStateOf(row);
    });
  }

  /** A turn of the thread ended with a result: it is unread unless an earlier one still is. */
  publishTurn(threadId: string, turnId: string): Promise<ReadState> {
    return settle(() =>
      this.db
        .transaction(() => {
          const current = this.#row(threadId);
          const keepEarlier = current !== undefined && current.first_unread_kind !== null;
          const row: Row = {
            first_unread_kind: keepEarlier ? current.first_unread_kind : 'turn',
            first_unread_turn_id: keepEarlier ? current.first_unread_turn_id : turnId,
            revision: randomUUID(),
            last_published_turn_id: turnId,
          };
          this.#write(threadId, row);
          return readStateOf(row);
        })
        .immediate(),
    );
  }

  /** Marks the thread read, or unread from its last published turn (its start when it has none), if `expectedRevision` is current. */
  update(threadId: string, expectedRevision: string, operation: 'read' | 'unread'): Promise<ReadStateUpdate> {
    return settle(() =>
      this.db
        .transaction((): ReadStateUpdate => {
          const current = this.#row(threadId);
          const currentState = current === undefined ? INITIAL_READ_STATE : readStateOf(current);
          if (currentState.revision !== expectedRevision) return { applied: false, current: currentState };
          const row = markedReadRow(current, operation, randomUUID());
          this.#write(threadId, row);
          return { applied: true, state: readStateOf(row) };
        })
        .immediate(),
    );
  }

  /** Forgets a thread's receipt (the thread was deleted). */
  remove(threadId: string): Promise<void> {
    return settle(() => {
      prepared(this.db, 'DELETE FROM read_receipts WHERE thread_id = ?').run(threadId.toLowerCase());
    });
  }

  #row(threadId: string): Row | undefined {
    return prepared(this.db, 'SELECT first_unread_kind, first_unread_turn_id, revision, last_published_turn_id FROM read_receipts WHERE thread_id = ?').get(threadId.toLowerCase()) as Row | undefined;
  }

  #write(threadId: string, row: Row): void {
    prepared(this.db, 
        `INSERT INTO read_receipts (thread_id, first_unread_kind, first_unread_turn_id, revision, last_published_turn_id)
         VALUES (@thread_id, @first_unread_kind, @first_unread_turn_id, @revision, @last_published_turn_id)
         ON CONFLICT(thread_id) DO UPDATE SET first_unread_kind = excluded.first_unread_kind, first_unread_turn_id = excluded.first_unread_turn_id,
           revision = excluded.revision, last_published_turn_id = excluded.last_published_turn_id`,
      )
      .run({ thread_id: threadId.toLowerCase(), ...row });
  }
}

/** What clients are told of a receipt row. */
export function readStateOf(row: ReadReceiptRow): ReadState {
  const firstUnread: UnreadPosition =
    row.first_unread_kind === 'turn' && row.first_unread_turn_id !== null ? { type: 'turn', turnId: row.first_unread_turn_id } : row.first_unread_kind === 'threadStart' ? { type: 'threadStart' } : null;
  return { firstUnread, revision: row.revision };
}
