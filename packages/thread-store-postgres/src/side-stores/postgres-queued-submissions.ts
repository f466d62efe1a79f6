// Queued submissions in PostgreSQL: the `QueuedSubmissionStore` of @skein/rollout's SQLite index,
// shared by every host. Edits that read the queue before writing it (add, reorder, take) hold the
// thread's lock, so two hosts never give out one message twice or one position to two messages.
import type pg from 'pg';
import { UserInput } from '@skein/protocol';
import { MAX_QUEUED_SUBMISSIONS, QueuedSubmissionError, type QueuedSubmission, type QueuedSubmissionStore } from '@skein/rollout';
import * as z from 'zod';
import type { Queryable } from '../database.js';
import { atomically, integer, LockScope, lockThread, threadKey } from './side-store-queries.js';

interface Row {
  id: string;
  client_user_message_id: string;
  input: unknown;
  client_metadata: unknown;
}

// The stored JSON is ours, but another program may have written the row: parsed before it is trusted.
const StoredInput = z.array(UserInput);
const StoredMetadata = z.record(z.string(), z.string()).nullable();

const COLUMNS = 'id, client_user_message_id, input, client_metadata';

/** The queued submissions of a PostgreSQL thread store, per thread, in delivery order. */
export class PostgresQueuedSubmissions implements QueuedSubmissionStore {
  constructor(private readonly db: Queryable | pg.Pool) {}

  // Queries go to the pool or the caller's client alike; only `atomically` tells them apart (a pool gets a transaction).
  get #sql(): Queryable {
    return this.db;
  }

  list(threadId: string): Promise<QueuedSubmission[]> {
    return listQueue(this.db, threadId);
  }

  add(threadId: string, submission: QueuedSubmission): Promise<void> {
    return atomically(this.db, async (client) => {
      await lockThread(client, LockScope.queuedSubmissions, threadKey(threadId));
      const { rows } = await client.query<{ count: string; last: string | null }>('SELECT count(*) AS count, max(position) AS last FROM skein_queued_submissions WHERE thread_id = $1', [threadKey(threadId)]);
      const { count, last } = rows[0]!;
      if (integer(count) >= MAX_QUEUED_SUBMISSIONS) throw new RangeError(`a thread holds at most ${MAX_QUEUED_SUBMISSIONS} queued messages`);
      await client.query(
        'INSERT INTO skein_queued_submissions (id, thread_id, position, client_user_message_id, input, client_metadata) VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb)',
        [submission.id, threadKey(threadId), (last === null ? 0 : integer(last)) + 1, submission.clientUserMessageId, JSON.stringify(submission.input), metadataJson(submission.responsesapiClientMetadata)],
      );
    });
  }

  async update(threadId: string, id: string, change: Pick<QueuedSubmission, 'input' | 'responsesapiClientMetadata'>): Promise<QueuedSubmission> {
    const { rows } = await this.#sql.query<Row>(`UPDATE skein_queued_submissions SET input = $1::jsonb, client_metadata = $2::jsonb WHERE thread_id = $3 AND id = $4 RETURNING ${COLUMNS}`, [
      JSON.stringify(change.input),
      metadataJson(change.responsesapiClientMetadata),
      threadKey(threadId),
      id,
    ]);
    if (rows[0] === undefined) throw notFound(id);
    return fromRow(rows[0]);
  }

  async remove(threadId: string, id: string): Promise<boolean> {
    const { rowCount } = await this.#sql.query('DELETE FROM skein_queued_submissions WHERE thread_id = $1 AND id = $2', [threadKey(threadId), id]);
    return (rowCount ?? 0) > 0;
  }

  reorder(threadId: string, ids: readonly string[]): Promise<void> {
    return atomically(this.db, async (client) => {
      await lockThread(client, LockScope.queuedSubmissions, threadKey(threadId));
      const queued = (await listQueue(client, threadId)).map((submission) => submission.id);
      const asked = new Set(ids);
      if (asked.size !== ids.length || ids.length !== queued.length || queued.some((id) => !asked.has(id))) {
        throw new QueuedSubmissionError('NotAPermutation', 'queue reorder must include every queued submission exactly once');
      }
      await client.query(
        `UPDATE skein_queued_submissions AS queued SET position = placed.place FROM unnest($2::text[]) WITH ORDINALITY AS placed (id, place)
         WHERE queued.thread_id = $1 AND queued.id = placed.id`,
        [threadKey(threadId), ids],
      );
    });
  }

  take(threadId: string, id?: string): Promise<QueuedSubmission> {
    return atomically(this.db, async (client) => {
      await lockThread(client, LockScope.queuedSubmissions, threadKey(threadId));
      const { rows } =
        id === undefined
          ? await client.query<Row>(`SELECT ${COLUMNS} FROM skein_queued_submissions WHERE thread_id = $1 ORDER BY position LIMIT 1`, [threadKey(threadId)])
          : await client.query<Row>(`SELECT ${COLUMNS} FROM skein_queued_submissions WHERE thread_id = $1 AND id = $2`, [threadKey(threadId), id]);
      if (rows[0] === undefined) throw id === undefined ? new QueuedSubmissionError('Empty', 'queue is empty') : notFound(id);
      const next = fromRow(rows[0]);
      await client.query('DELETE FROM skein_queued_submissions WHERE thread_id = $1 AND id = $2', [threadKey(threadId), next.id]);
      return next;
    });
  }

  async removeAll(threadId: string): Promise<void> {
    await this.#sql.query('DELETE FROM skein_queued_submissions WHERE thread_id = $1', [threadKey(threadId)]);
  }
}

async function listQueue(db: Queryable, threadId: string): Promise<QueuedSubmission[]> {
  const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM skein_queued_submissions WHERE thread_id = $1 ORDER BY position`, [threadKey(threadId)]);
  return rows.map(fromRow);
}

const metadataJson = (metadata: Readonly<Record<string, string>> | null): string | null => (metadata === null ? null : JSON.stringify(metadata));
const notFound = (id: string): QueuedSubmissionError => new QueuedSubmissionError('NotFound', `queued submission not found: ${id}`);

function fromRow(row: Row): QueuedSubmission {
  return {
    id: row.id,
    input: StoredInput.parse(row.input),
    clientUserMessageId: row.client_user_message_id,
    responsesapiClientMetadata: StoredMetadata.parse(row.client_metadata),
  };
}
