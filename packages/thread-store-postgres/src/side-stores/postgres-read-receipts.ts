// Read receipts in PostgreSQL: the `ReadReceiptStore` of @skein/rollout's SQLite index, shared by
// every host. A revision check and its write hold the thread's lock, so two hosts marking the same
// thread cannot both pass the check.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { INITIAL_READ_STATE, markedReadRow, readStateOf, type ReadReceiptRow, type ReadReceiptStore, type ReadState, type ReadStateUpdate } from '@skein/rollout';
import type { Queryable } from '../database.js';
import { atomically, LockScope, lockThread, threadKey } from './side-store-queries.js';

type Row = ReadReceiptRow;

const COLUMNS = 'first_unread_kind, first_unread_turn_id, revision, last_published_turn_id';

/** The read receipts of a PostgreSQL thread store. */
export class PostgresReadReceipts implements ReadReceiptStore {
  constructor(private readonly db: Queryable | pg.Pool) {}

  // Queries go to the pool or the caller's client alike; only `atomically` tells them apart (a pool gets a transaction).
  get #sql(): Queryable {
    return this.db;
  }

  async get(threadId: string): Promise<ReadState> {
    const row = await readRow(this.db, threadId);
    return row === undefined ? INITIAL_READ_STATE : readStateOf(row);
  }

  async publishTurn(threadId: string, turnId: string): Promise<ReadState> {
    // One statement: the row lock of the upsert keeps an earlier unread turn first.
    const { rows } = await this.#sql.query<Row>(
      `INSERT INTO skein_read_receipts (thread_id, first_unread_kind, first_unread_turn_id, revision, last_published_turn_id) VALUES ($1, 'turn', $2, $3, $2)
       ON CONFLICT (thread_id) DO UPDATE SET
         first_unread_kind = COALESCE(skein_read_receipts.first_unread_kind, excluded.first_unread_kind),
         first_unread_turn_id = CASE WHEN skein_read_receipts.first_unread_kind IS NULL THEN excluded.first_unread_turn_id ELSE skein_read_receipts.first_unread_turn_id END,
         revision = excluded.revision,
         last_published_turn_id = excluded.last_published_turn_id
       RETURNING ${COLUMNS}`,
      [threadKey(threadId), turnId, randomUUID()],
    );
    return readStateOf(rows[0]!);
  }

  update(threadId: string, expectedRevision: string, operation: 'read' | 'unread'): Promise<ReadStateUpdate> {
    return atomically(this.db, async (client): Promise<ReadStateUpdate> => {
      await lockThread(client, LockScope.readReceipts, threadKey(threadId));
      const current = await readRow(client, threadId);
      const currentState = current === undefined ? INITIAL_READ_STATE : readStateOf(current);
      if (currentState.revision !== expectedRevision) return { applied: false, current: currentState };
      const row = markedReadRow(current, operation, randomUUID());
      await client.query(
        `INSERT INTO skein_read_receipts (thread_id, ${COLUMNS}) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (thread_id) DO UPDATE SET first_unread_kind = excluded.first_unread_kind, first_unread_turn_id = excluded.first_unread_turn_id,
           revision = excluded.revision, last_published_turn_id = excluded.last_published_turn_id`,
        [threadKey(threadId), row.first_unread_kind, row.first_unread_turn_id, row.revision, row.last_published_turn_id],
      );
      return { applied: true, state: readStateOf(row) };
    });
  }

  async remove(threadId: string): Promise<void> {
    await this.#sql.query('DELETE FROM skein_read_receipts WHERE thread_id = $1', [threadKey(threadId)]);
  }
}

async function readRow(db: Queryable, threadId: string): Promise<Row | undefined> {
  const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM skein_read_receipts WHERE thread_id = $1`, [threadKey(threadId)]);
  return rows[0];
}
