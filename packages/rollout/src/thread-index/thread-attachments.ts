// Thread attachments: things a client ties to a thread (`thread/attachment/*`), one per type and
// identity key, with the client's JSON payload, and the reverse look-up of the threads that hold one.
// Kept in the index database beside the read receipts and, like them, never rebuilt from the files.
import type Database from 'better-sqlite3';
import { prepared } from './prepared-statement.js';
import { settle } from './settle.js';

/** An attachment; `createdAt` is in seconds since the epoch, as clients see it. */
export interface ThreadAttachment {
  readonly id: string;
  readonly attachmentType: string;
  readonly identityKey: string;
  readonly payload: unknown;
  readonly createdAt: number;
}

/** What `add` did: stored the attachment, or found one of the same type and key (kept as it was). */
export interface ThreadAttachmentAdd {
  readonly outcome: 'created' | 'existing';
  readonly attachment: ThreadAttachment;
}

/** Where a page of a thread's attachments ends: the last one's time and id. */
export interface ThreadAttachmentKey {
  readonly createdAt: number;
  readonly id: string;
}

/** The attachments clients tie to threads, kept beside the threads (SQLite here; PostgreSQL in `@skein/thread-store-postgres`). */
export interface ThreadAttachmentStore {
  /** Stores `attachment` on the thread unless one of its type and key is there already (then that one is answered). */
  add(threadId: string, attachment: ThreadAttachment): Promise<ThreadAttachmentAdd>;
  /** The thread's attachment of this type and key. */
  get(threadId: string, attachmentType: string, identityKey: string): Promise<ThreadAttachment | undefined>;
  /** The thread's attachments, oldest first, after `after`. */
  list(threadId: string, options: { readonly after?: ThreadAttachmentKey | undefined; readonly limit: number }): Promise<{ readonly attachments: ThreadAttachment[]; readonly more: boolean }>;
  /** Removes the thread's attachment of this type and key; answers it, or undefined when there was none. */
  remove(threadId: string, attachmentType: string, identityKey: string): Promise<ThreadAttachment | undefined>;
  /** The threads holding an attachment of this type and key, by id. */
  owners(attachmentType: string, identityKey: string): Promise<string[]>;
  /** Forgets every attachment of a thread (the thread was deleted). */
  removeAll(threadId: string): Promise<void>;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS thread_attachments (
  id TEXT PRIMARY KEY,
  thread_id TEXT NOT NULL,
  attachment_type TEXT NOT NULL,
  identity_key TEXT NOT NULL,
  payload TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (thread_id, attachment_type, identity_key)
);
CREATE INDEX IF NOT EXISTS thread_attachments_by_thread ON thread_attachments (thread_id, created_at, id);
CREATE INDEX IF NOT EXISTS thread_attachments_by_identity ON thread_attachments (attachment_type, identity_key, thread_id);
`;

interface Row {
  id: string;
  attachment_type: string;
  identity_key: string;
  payload: string;
  created_at: number;
}

/** The attachments of one index database. */
export class ThreadAttachments implements ThreadAttachmentStore {
  constructor(private readonly db: Database.Database) {
    db.exec(SCHEMA);
  }

  /** Stores `attachment` on the thread unless one of its type and key is there already (then that one is answered). */
  add(threadId: string, attachment: ThreadAttachment): Promise<ThreadAttachmentAdd> {
    const thread = threadId.toLowerCase();
    return settle(() =>
      this.db
        .transaction((): ThreadAttachmentAdd => {
          const existing = this.#get(thread, attachment.attachmentType, attachment.identityKey);
          if (existing !== undefined) return { outcome: 'existing', attachment: existing };
          prepared(this.db, 'INSERT INTO thread_attachments (id, thread_id, attachment_type, identity_key, payload, created_at) VALUES (?, ?, ?, ?, ?, ?)')
            .run(attachment.id, thread, attachment.attachmentType, attachment.identityKey, JSON.stringify(attachment.payload ?? null), attachment.createdAt);
          return { outcome: 'created', attachment: { ...attachment, payload: attachment.payload ?? null } };
        })
        .immediate(),
    );
  }

  /** The thread's attachment of this type and key. */
  get(threadId: string, attachmentType: string, identityKey: string): Promise<ThreadAttachment | undefined> {
    return settle(() => this.#get(threadId, attachmentType, identityKey));
  }

  #get(threadId: string, attachmentType: string, identityKey: string): ThreadAttachment | undefined {
    const row = prepared(this.db, 'SELECT * FROM thread_attachments WHERE thread_id = ? AND attachment_type = ? AND identity_key = ?')
      .get(threadId.toLowerCase(), attachmentType, identityKey) as Row | undefined;
    return row === undefined ? undefined : attachmentOf(row);
  }

  /** The thread's attachments, oldest first, after `after`. */
  list(threadId: string, options: { readonly after?: ThreadAttachmentKey | undefined; readonly limit: number }): Promise<{ readonly attachments: ThreadAttachment[]; readonly more: boolean }> {
    return settle(() => {
      const after = options.after ?? { createdAt: Number.MIN_SAFE_INTEGER, id: '' };
      const rows = prepared(this.db, 
          `SELECT * FROM thread_attachments WHERE thread_id = @thread AND (created_at > @created OR (created_at = @created AND id > @id))
           ORDER BY created_at, id LIMIT @limit`,
        )
        .all({ thread: threadId.toLowerCase(), created: after.createdAt, id: after.id, limit: options.limit + 1 }) as Row[];
      return { attachments: rows.slice(0, options.limit).map(attachmentOf), more: rows.length > options.limit };
    });
  }

  /** Removes the thread's attachment of this type and key; answers it, or undefined when there was none. */
  remove(threadId: string, attachmentType: string, identityKey: string): Promise<ThreadAttachment | undefined> {
    const thread = threadId.toLowerCase();
    return settle(() =>
      this.db
        .transaction(() => {
          const existing = this.#get(thread, attachmentType, identityKey);
          if (existing !== undefined) prepared(this.db, 'DELETE FROM thread_attachments WHERE id = ?').run(existing.id);
          return existing;
        })
        .immediate(),
    );
  }

  /** The threads holding an attachment of this type and key, by id. */
  owners(attachmentType: string, identityKey: string): Promise<string[]> {
    return settle(() =>
      (
        prepared(this.db, 'SELECT thread_id FROM thread_attachments WHERE attachment_type = ? AND identity_key = ? ORDER BY thread_id').all(attachmentType, identityKey) as { thread_id: string }[]
      ).map((row) => row.thread_id),
    );
  }

  /** Forgets every attachment of a thread (the thread was deleted). */
  removeAll(threadId: string): Promise<void> {
    return settle(() => {
      prepared(this.db, 'DELETE FROM thread_attachments WHERE thread_id = ?').run(threadId.toLowerCase());
    });
  }
}

function attachmentOf(row: Row): ThreadAttachment {
  return { id: row.id, attachmentType: row.attachment_type, identityKey: row.identity_key, payload: JSON.parse(row.payload) as unknown, createdAt: row.created_at };
}
