// Thread attachments in PostgreSQL: the `ThreadAttachmentStore` of @skein/rollout's SQLite index,
// shared by every host. One attachment per thread, type and key is the table's unique constraint,
// so two hosts adding the same one at once store it once and both answer it.
import type pg from 'pg';
import type { ThreadAttachment, ThreadAttachmentAdd, ThreadAttachmentKey, ThreadAttachmentStore } from '@skein/rollout';
import type { Queryable } from '../database.js';
import { integer, threadKey } from './side-store-queries.js';

interface Row {
  id: string;
  attachment_type: string;
  identity_key: string;
  payload: unknown;
  created_at: string;
}

const COLUMNS = 'id, attachment_type, identity_key, payload, created_at';
// An add that finds the attachment gone again (another host removed it) tries this many times.
const ADD_ATTEMPTS = 3;

/** The attachments of a PostgreSQL thread store. */
export class PostgresThreadAttachments implements ThreadAttachmentStore {
  constructor(private readonly db: Queryable | pg.Pool) {}

  // Queries go to the pool or the caller's client alike; only `atomically` tells them apart (a pool gets a transaction).
  get #sql(): Queryable {
    return this.db;
  }

  async add(threadId: string, attachment: ThreadAttachment): Promise<ThreadAttachmentAdd> {
    const payload = attachment.payload ?? null;
    for (let attempt = 1; ; attempt += 1) {
      const inserted = await this.#sql.query(
        `INSERT INTO skein_thread_attachments (${COLUMNS}, thread_id) VALUES ($1, $2, $3, $4::jsonb, $5, $6)
         ON CONFLICT (thread_id, attachment_type, identity_key) DO NOTHING`,
        [attachment.id, attachment.attachmentType, attachment.identityKey, JSON.stringify(payload), attachment.createdAt, threadKey(threadId)],
      );
      if (inserted.rowCount === 1) return { outcome: 'created', attachment: { ...attachment, payload } };
      const existing = await this.get(threadId, attachment.attachmentType, attachment.identityKey);
      if (existing !== undefined) return { outcome: 'existing', attachment: existing };
      if (attempt === ADD_ATTEMPTS) throw new Error(`attachment ${attachment.attachmentType}/${attachment.identityKey} kept changing while it was added`);
    }
  }

  async get(threadId: string, attachmentType: string, identityKey: string): Promise<ThreadAttachment | undefined> {
    const { rows } = await this.#sql.query<Row>(`SELECT ${COLUMNS} FROM skein_thread_attachments WHERE thread_id = $1 AND attachment_type = $2 AND identity_key = $3`, [
      threadKey(threadId),
      attachmentType,
      identityKey,
    ]);
    return rows[0] === undefined ? undefined : attachmentOf(rows[0]);
  }

  async list(threadId: string, options: { readonly after?: ThreadAttachmentKey | undefined; readonly limit: number }): Promise<{ readonly attachments: ThreadAttachment[]; readonly more: boolean }> {
    const after = options.after ?? { createdAt: Number.MIN_SAFE_INTEGER, id: '' };
    const { rows } = await this.#sql.query<Row>(
      `SELECT ${COLUMNS} FROM skein_thread_attachments WHERE thread_id = $1 AND (created_at > $2 OR (created_at = $2 AND id > $3))
       ORDER BY created_at, id LIMIT $4`,
      [threadKey(threadId), after.createdAt, after.id, options.limit + 1],
    );
    return { attachments: rows.slice(0, options.limit).map(attachmentOf), more: rows.length > options.limit };
  }

  async remove(threadId: string, attachmentType: string, identityKey: string): Promise<ThreadAttachment | undefined> {
    const { rows } = await this.#sql.query<Row>(`DELETE FROM skein_thread_attachments WHERE thread_id = $1 AND attachment_type = $2 AND identity_key = $3 RETURNING ${COLUMNS}`, [
      threadKey(threadId),
      attachmentType,
      identityKey,
    ]);
    return rows[0] === undefined ? undefined : attachmentOf(rows[0]);
  }

  async owners(attachmentType: string, identityKey: string): Promise<string[]> {
    const { rows } = await this.#sql.query<{ thread_id: string }>('SELECT thread_id FROM skein_thread_attachments WHERE attachment_type = $1 AND identity_key = $2 ORDER BY thread_id', [
      attachmentType,
      identityKey,
    ]);
    return rows.map((row) => row.thread_id);
  }

  async removeAll(threadId: string): Promise<void> {
    await this.#sql.query('DELETE FROM skein_thread_attachments WHERE thread_id = $1', [threadKey(threadId)]);
  }
}

function attachmentOf(row: Row): ThreadAttachment {
  return { id: row.id, attachmentType: row.attachment_type, identityKey: row.identity_key, payload: row.payload, createdAt: integer(row.created_at) };
}
