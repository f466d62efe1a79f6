// Queued submissions: messages a client queued for a thread while it was busy (`thread/queue/*`),
// kept in the index database in their delivery order so they survive a restart of the server. Like
// the read receipts the table is Skein's own and never rebuilt from the files: only it knows them.
import type Database from 'better-sqlite3';
import { prepared } from './prepared-statement.js';
import { UserInput } from '@skein/protocol';
import * as z from 'zod';
import { settle } from './settle.js';

/** One queued message: what `turn/start` would take, and the client's id for its user message. */
export interface QueuedSubmission {
  readonly id: string;
  readonly input: readonly UserInput[];
  readonly clientUserMessageId: string;
  readonly responsesapiClientMetadata: Readonly<Record<string, string>> | null;
}

/** Why a queue edit was refused; `code` is stable for callers, the message is Codex's. */
export class QueuedSubmissionError extends Error {
  override readonly name = 'QueuedSubmissionError';
  constructor(
    readonly code: 'NotFound' | 'Empty' | 'NotAPermutation',
    message: string,
  ) {
    super(message);
  }
}

/** The most messages one thread may hold queued: a bound on what a client can pile up. */
export const MAX_QUEUED_SUBMISSIONS = 1_000;

/** Each thread's queued messages in delivery order, kept beside the threads (SQLite here; PostgreSQL in `@skein/thread-store-postgres`). */
export interface QueuedSubmissionStore {
  /** A thread's queue, first to be delivered first. */
  list(threadId: string): Promise<QueuedSubmission[]>;
  /** Queues `submission` last; a `RangeError` once the thread holds {@link MAX_QUEUED_SUBMISSIONS}. */
  add(threadId: string, submission: QueuedSubmission): Promise<void>;
  /** Replaces a queued message's input and metadata, keeping its place; `NotFound` when it is not queued. */
  update(threadId: string, id: string, change: Pick<QueuedSubmission, 'input' | 'responsesapiClientMetadata'>): Promise<QueuedSubmission>;
  /** Removes a queued message; false when it was not queued (already delivered, say). */
  remove(threadId: string, id: string): Promise<boolean>;
  /** Puts the queue in `ids`' order, which must name every queued message exactly once (`NotAPermutation`). */
  reorder(threadId: string, ids: readonly string[]): Promise<void>;
  /** Removes and returns the message to deliver: `id`, else the first; `NotFound` / `Empty` when there is none. */
  take(threadId: string, id?: string): Promise<QueuedSubmission>;
  /** Forgets a thread's queue (the thread was deleted). */
  removeAll(threadId: string): Promise<void>;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS queued_submissions (
  id TEXT PRIMARY KEY,
  thread_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  client_user_message_id TEXT NOT NULL,
  input TEXT NOT NULL,
  client_metadata TEXT
);
CREATE INDEX IF NOT EXISTS queued_submissions_by_thread ON queued_submissions (thread_id, position);
`;

interface Row {
  id: string;
  client_user_message_id: string;
  input: string;
  client_metadata: string | null;
}

// The stored JSON is ours, but a file on disk is input all the same: parsed before it is trusted.
const StoredInput = z.array(UserInput);
const StoredMetadata = z.record(z.string(), z.string()).nullable();

/** The queued submissions of one index database, per thread, in delivery order. */
export class QueuedSubmissions implements QueuedSubmissionStore {
  constructor(private readonly db: Database.Database) {
    db.exec(SCHEMA);
  }

  /** A thread's queue, first to be delivered first. */
  list(threadId: string): Promise<QueuedSubmission[]> {
    return settle(() => this.#list(threadId));
  }

  #list(threadId: string): QueuedSubmission[] {
    const rows = prepared(this.db, 'SELECT id, client_user_message_id, input, client_metadata FROM queued_submissions WHERE thread_id = ? ORDER BY position').all(key(threadId)) as Row[];
    return rows.map(fromRow);
  }

  /** Queues `submission` last; refused once the thread holds {@link MAX_QUEUED_SUBMISSIONS}. */
  add(threadId: string, submission: QueuedSubmission): Promise<void> {
    return settle(() =>
      this.db
        .transaction(() => {
          const { count, last } = prepared(this.db, 'SELECT COUNT(*) AS count, MAX(position) AS last FROM queued_submissions WHERE thread_id = ?').get(key(threadId)) as { count: number; last: number | null };
          if (count >= MAX_QUEUED_SUBMISSIONS) throw new RangeError(`a thread holds at most ${MAX_QUEUED_SUBMISSIONS} queued messages`);
          prepared(this.db, 'INSERT INTO queued_submissions (id, thread_id, position, client_user_message_id, input, client_metadata) VALUES (?, ?, ?, ?, ?, ?)')
            .run(submission.id, key(threadId), (last ?? 0) + 1, submission.clientUserMessageId, JSON.stringify(submission.input), metadataJson(submission.responsesapiClientMetadata));
        })
        .immediate(),
    );
  }

  /** Replaces a queued message's input and metadata, keeping its place; `NotFound` when it is not queued. */
  update(threadId: string, id: string, change: Pick<QueuedSubmission, 'input' | 'responsesapiClientMetadata'>): Promise<QueuedSubmission> {
    return settle(() => {
      const updated = prepared(this.db, 'UPDATE queued_submissions SET input = ?, client_metadata = ? WHERE thread_id = ? AND id = ?')
        .run(JSON.stringify(change.input), metadataJson(change.responsesapiClientMetadata), key(threadId), id);
      if (updated.changes === 0) throw notFound(id);
      return this.#get(threadId, id) ?? fail(notFound(id));
    });
  }

  /** Removes a queued message; false when it was not queued (already delivered, say). */
  remove(threadId: string, id: string): Promise<boolean> {
    return settle(() => this.#remove(threadId, id));
  }

  #remove(threadId: string, id: string): boolean {
    return prepared(this.db, 'DELETE FROM queued_submissions WHERE thread_id = ? AND id = ?').run(key(threadId), id).changes > 0;
  }

  /** Puts the queue in `ids`' order, which must name every queued message exactly once. */
  reorder(threadId: string, ids: readonly string[]): Promise<void> {
    return settle(() =>
      this.db
        .transaction(() => {
          const queued = this.#list(threadId).map((submission) => submission.id);
          const asked = new Set(ids);
          if (asked.size !== ids.length || ids.length !== queued.length || queued.some((id) => !asked.has(id))) {
            throw new QueuedSubmissionError('NotAPermutation', 'queue reorder must include every queued submission exactly once');
          }
          const place = prepared(this.db, 'UPDATE queued_submissions SET position = ? WHERE thread_id = ? AND id = ?');
          ids.forEach((id, index) => place.run(index + 1, key(threadId), id));
        })
        .immediate(),
    );
  }

  /** Removes and returns the message to deliver: `id`, else the first; `NotFound` / `Empty` when there is none. */
  take(threadId: string, id?: string): Promise<QueuedSubmission> {
    return settle(() =>
      this.db
        .transaction(() => {
          const next = id === undefined ? this.#list(threadId)[0] : this.#get(threadId, id);
          if (next === undefined) throw id === undefined ? new QueuedSubmissionError('Empty', 'queue is empty') : notFound(id);
          this.#remove(threadId, next.id);
          return next;
        })
        .immediate(),
    );
  }

  /** Forgets a thread's queue (the thread was deleted). */
  removeAll(threadId: string): Promise<void> {
    return settle(() => {
      prepared(this.db, 'DELETE FROM queued_submissions WHERE thread_id = ?').run(key(threadId));
    });
  }

  #get(threadId: string, id: string): QueuedSubmission | undefined {
    const row = prepared(this.db, 'SELECT id, client_user_message_id, input, client_metadata FROM queued_submissions WHERE thread_id = ? AND id = ?').get(key(threadId), id) as Row | undefined;
    return row === undefined ? undefined : fromRow(row);
  }
}

const key = (threadId: string): string => threadId.toLowerCase();
const metadataJson = (metadata: Readonly<Record<string, string>> | null): string | null => (metadata === null ? null : JSON.stringify(metadata));
const notFound = (id: string): QueuedSubmissionError => new QueuedSubmissionError('NotFound', `queued submission not found: ${id}`);
const fail = (error: Error): never => {
  throw error;
};

function fromRow(row: Row): QueuedSubmission {
  return {
    id: row.id,
    input: StoredInput.parse(JSON.parse(row.input)),
    clientUserMessageId: row.client_user_message_id,
    responsesapiClientMetadata: StoredMetadata.parse(row.client_metadata === null ? null : JSON.parse(row.client_metadata)),
  };
}
