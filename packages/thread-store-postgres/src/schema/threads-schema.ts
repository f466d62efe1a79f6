// Version 1: threads, their rollout lines, the messages search covers, and the lease that makes one
// host at a time the writer of a thread.
import type { Migration } from './migrations.js';

export const threadsSchema: Migration = {
  version: 1,
  name: 'threads, lines and leases',
  statements: [
    // One row per thread: what a list shows and filters on, as the file store's SQLite index has it.
    `CREATE TABLE skein_threads (
       id text PRIMARY KEY,
       session_id text NOT NULL,
       cwd text NOT NULL,
       created_ms bigint NOT NULL,
       updated_ms bigint NOT NULL,
       title text,
       model_provider text,
       model text,
       source text,
       archived boolean NOT NULL DEFAULT false,
       parent_thread_id text,
       forked_from_id text,
       line_count bigint NOT NULL DEFAULT 0
     )`,
    'CREATE INDEX skein_threads_by_created ON skein_threads (archived, created_ms DESC, id DESC)',
    'CREATE INDEX skein_threads_by_updated ON skein_threads (archived, updated_ms DESC, id DESC)',
    'CREATE INDEX skein_threads_by_session ON skein_threads (session_id)',
    // A thread's rollout, one JSON line per row in `seq` order (the header is seq 0): the Codex
    // JSONL file is these lines joined by newlines.
    `CREATE TABLE skein_rollout_lines (
       thread_id text NOT NULL REFERENCES skein_threads (id) ON DELETE CASCADE,
       seq bigint NOT NULL,
       line text NOT NULL,
       PRIMARY KEY (thread_id, seq)
     )`,
    // The user's and the agent's messages, written with their lines, for thread search.
    `CREATE TABLE skein_thread_messages (
       thread_id text NOT NULL REFERENCES skein_threads (id) ON DELETE CASCADE,
       seq bigint NOT NULL,
       body text NOT NULL,
       PRIMARY KEY (thread_id, seq)
     )`,
    // The host writing a thread, until `expires_at` (the database's clock, so hosts' clocks do not matter).
    `CREATE TABLE skein_thread_leases (
       thread_id text PRIMARY KEY,
       owner text NOT NULL,
       token text NOT NULL,
       expires_at timestamptz NOT NULL
     )`,
  ],
};
