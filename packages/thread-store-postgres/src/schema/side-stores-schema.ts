// Version 2: what clients keep beside threads (read receipts, queued submissions, metadata,
// sections, attachments), as the file store keeps them in its SQLite index. No foreign key points
// at skein_threads: deleting a thread removes these rows explicitly (removeThreadSideState).
// Ids that lists order by are `COLLATE "C"`, so they sort bytewise, as SQLite sorts them.
import { PINNED_SECTION_ID, PINNED_SECTION_NAME } from '@skein/rollout';
import type { Migration } from './migrations.js';

export const sideStoresSchema: Migration = {
  version: 2,
  name: 'side stores',
  statements: [
    `CREATE TABLE skein_read_receipts (
       thread_id text PRIMARY KEY,
       first_unread_kind text CHECK (first_unread_kind IN ('turn', 'threadStart')),
       first_unread_turn_id text,
       revision text NOT NULL,
       last_published_turn_id text
     )`,
    `CREATE TABLE skein_queued_submissions (
       id text PRIMARY KEY,
       thread_id text NOT NULL,
       position bigint NOT NULL,
       client_user_message_id text NOT NULL,
       input jsonb NOT NULL,
       client_metadata jsonb
     )`,
    'CREATE INDEX skein_queued_submissions_by_thread ON skein_queued_submissions (thread_id, position)',
    `CREATE TABLE skein_thread_metadata (
       thread_id text PRIMARY KEY,
       git_set boolean NOT NULL,
       git_sha text,
       git_branch text,
       git_origin_url text,
       daybreak_enabled boolean
     )`,
    `CREATE TABLE skein_thread_sections (
       id text COLLATE "C" PRIMARY KEY,
       name text NOT NULL,
       appearance_set boolean NOT NULL,
       icon text,
       color text
     )`,
    `CREATE TABLE skein_thread_section_members (
       thread_id text COLLATE "C" PRIMARY KEY,
       section_id text COLLATE "C" NOT NULL REFERENCES skein_thread_sections (id) ON DELETE CASCADE,
       position bigint NOT NULL,
       entered_ms bigint NOT NULL
     )`,
    'CREATE INDEX skein_thread_section_members_by_position ON skein_thread_section_members (section_id, position, thread_id)',
    `INSERT INTO skein_thread_sections (id, name, appearance_set) VALUES ('${PINNED_SECTION_ID}', '${PINNED_SECTION_NAME}', false)`,
    `CREATE TABLE skein_thread_attachments (
       id text COLLATE "C" PRIMARY KEY,
       thread_id text COLLATE "C" NOT NULL,
       attachment_type text NOT NULL,
       identity_key text NOT NULL,
       payload jsonb NOT NULL,
       created_at bigint NOT NULL,
       UNIQUE (thread_id, attachment_type, identity_key)
     )`,
    'CREATE INDEX skein_thread_attachments_by_thread ON skein_thread_attachments (thread_id, created_at, id)',
    'CREATE INDEX skein_thread_attachments_by_identity ON skein_thread_attachments (attachment_type, identity_key, thread_id)',
  ],
};
