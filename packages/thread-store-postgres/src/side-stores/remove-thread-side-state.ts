// Deleting a thread from the PostgreSQL store: the side stores hold no foreign key to its row, so
// what they keep for it is removed here, in the caller's transaction.
import type { Queryable } from '../database.js';
import { threadKey } from './side-store-queries.js';

const TABLES = ['skein_read_receipts', 'skein_queued_submissions', 'skein_thread_metadata', 'skein_thread_section_members', 'skein_thread_attachments'] as const;

/** Removes one thread's read receipt, queue, metadata, section place and attachments. */
export async function removeThreadSideState(db: Queryable, threadId: string): Promise<void> {
  for (const table of TABLES) await db.query(`DELETE FROM ${table} WHERE thread_id = $1`, [threadKey(threadId)]);
}
