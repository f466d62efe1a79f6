// The messages thread search covers, in the index database: each thread's user and agent messages
// in a table, a full-text index over them (SQLite FTS5 with the trigram tokenizer, so a search term
// matches anywhere in a word, case-insensitively, as Codex's search matches), and how far each
// thread's file has been read. Like the threads table it is derived from the files: a file that grew
// is read on from where its reading stopped, one that was rewritten is read again.
import type Database from 'better-sqlite3';
import { prepared } from './prepared-statement.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS thread_messages (
  rowid INTEGER PRIMARY KEY,
  thread_id TEXT NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS thread_messages_by_thread ON thread_messages (thread_id, rowid);
CREATE VIRTUAL TABLE IF NOT EXISTS thread_messages_fts USING fts5(body, content = 'thread_messages', content_rowid = 'rowid', tokenize = 'trigram');
CREATE TRIGGER IF NOT EXISTS thread_messages_added AFTER INSERT ON thread_messages BEGIN
  INSERT INTO thread_messages_fts (rowid, body) VALUES (new.rowid, new.body);
END;
CREATE TRIGGER IF NOT EXISTS thread_messages_removed AFTER DELETE ON thread_messages BEGIN
  INSERT INTO thread_messages_fts (thread_messages_fts, rowid, body) VALUES ('delete', old.rowid, old.body);
END;
CREATE TABLE IF NOT EXISTS thread_messages_read (
  thread_id TEXT PRIMARY KEY,
  path TEXT NOT NULL,
  read_bytes INTEGER NOT NULL,
  file_size INTEGER NOT NULL,
  file_mtime_ms INTEGER NOT NULL
);
`;

/** A thread whose messages are behind its file: where the file is, and how much of it was read. */
export interface UnreadThreadFile {
  readonly threadId: string;
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  /** Bytes already read (0 for a file never read, or one read again from the start). */
  readonly from: number;
}

/** What reading a thread's file from `from` found. */
export interface ThreadMessagesRead {
  readonly threadId: string;
  readonly path: string;
  readonly from: number;
  readonly texts: readonly string[];
  /** Offset just past the last whole line read. */
  readonly end: number;
  /** The file as it was when the reading began, so a later change is read next time. */
  readonly size: number;
  readonly mtimeMs: number;
}

interface UnreadRow {
  id: string;
  path: string;
  file_size: number;
  file_mtime_ms: number;
  read_bytes: number | null;
}

/** The searchable messages of one index database. */
export class ThreadMessages {
  constructor(private readonly db: Database.Database) {
    db.exec(SCHEMA);
  }

  /**
   * Indexed threads whose file changed since its messages were read. A file shorter than what was
   * read (rewritten) is read again from the start; one that grew or moved (archived) is read on
   * from where its reading stopped.
   */
  unread(): UnreadThreadFile[] {
    const rows = prepared(this.db, 
        `SELECT t.id, t.path, t.file_size, t.file_mtime_ms, r.read_bytes
         FROM threads t LEFT JOIN thread_messages_read r ON r.thread_id = t.id
         WHERE r.thread_id IS NULL OR r.path != t.path OR r.file_size != t.file_size OR r.file_mtime_ms != t.file_mtime_ms`,
      )
      .all() as UnreadRow[];
    return rows.map((row) => ({
      threadId: row.id,
      path: row.path,
      size: row.file_size,
      mtimeMs: row.file_mtime_ms,
      from: row.read_bytes !== null && row.read_bytes <= row.file_size ? row.read_bytes : 0,
    }));
  }

  /** Records what was read: the messages are added after the thread's others (all of them replaced when read from the start). */
  record(reads: readonly ThreadMessagesRead[]): void {
    const removeAll = prepared(this.db, 'DELETE FROM thread_messages WHERE thread_id = ?');
    const add = prepared(this.db, 'INSERT INTO thread_messages (thread_id, body) VALUES (?, ?)');
    const progress = prepared(this.db, 
      `INSERT INTO thread_messages_read (thread_id, path, read_bytes, file_size, file_mtime_ms) VALUES (@threadId, @path, @end, @size, @mtimeMs)
       ON CONFLICT(thread_id) DO UPDATE SET path = excluded.path, read_bytes = excluded.read_bytes, file_size = excluded.file_size, file_mtime_ms = excluded.file_mtime_ms`,
    );
    this.db
      .transaction(() => {
        for (const read of reads) {
          if (read.from === 0) removeAll.run(read.threadId);
          for (const text of read.texts) add.run(read.threadId, text);
          progress.run({ threadId: read.threadId, path: read.path, end: read.end, size: read.size, mtimeMs: Math.trunc(read.mtimeMs) });
        }
      })
      .immediate();
  }

  /** Forgets the messages of threads the index no longer has (deleted, or gone from disk). */
  forgetRemoved(): number {
    const gone = prepared(this.db, 'SELECT thread_id FROM thread_messages_read WHERE thread_id NOT IN (SELECT id FROM threads)').pluck().all() as string[];
    if (gone.length === 0) return 0;
    const removeMessages = prepared(this.db, 'DELETE FROM thread_messages WHERE thread_id = ?');
    const removeProgress = prepared(this.db, 'DELETE FROM thread_messages_read WHERE thread_id = ?');
    this.db
      .transaction(() => {
        for (const threadId of gone) {
          removeMessages.run(threadId);
          removeProgress.run(threadId);
        }
      })
      .immediate();
    return gone.length;
  }

  /** The thread's messages, oldest first. */
  of(threadId: string): string[] {
    return prepared(this.db, 'SELECT body FROM thread_messages WHERE thread_id = ? ORDER BY rowid').pluck().all(threadId.toLowerCase()) as string[];
  }
}
