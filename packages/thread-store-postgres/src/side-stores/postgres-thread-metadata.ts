// Thread metadata in PostgreSQL: the `ThreadMetadataStore` of @skein/rollout's SQLite index, shared
// by every host. A patch merges over what is stored under the thread's lock, so two hosts' patches
// both land, one after the other.
import type pg from 'pg';
import { NO_THREAD_METADATA, patchThreadMetadata, type StoredThreadMetadata, type ThreadGitFacts, type ThreadMetadataPatch, type ThreadMetadataStore } from '@skein/rollout';
import type { Queryable } from '../database.js';
import { atomically, LockScope, lockThread, threadKey } from './side-store-queries.js';

interface Row {
  git_set: boolean;
  git_sha: string | null;
  git_branch: string | null;
  git_origin_url: string | null;
  daybreak_enabled: boolean | null;
}

/** The client-set metadata of a PostgreSQL thread store. */
export class PostgresThreadMetadata implements ThreadMetadataStore {
  constructor(private readonly db: Queryable | pg.Pool) {}

  // Queries go to the pool or the caller's client alike; only `atomically` tells them apart (a pool gets a transaction).
  get #sql(): Queryable {
    return this.db;
  }

  async get(threadId: string): Promise<StoredThreadMetadata> {
    return (await readMetadata(this.db, threadId)) ?? NO_THREAD_METADATA;
  }

  update(threadId: string, patch: ThreadMetadataPatch, recordedGit: ThreadGitFacts | undefined): Promise<StoredThreadMetadata> {
    return atomically(this.db, async (client) => {
      await lockThread(client, LockScope.threadMetadata, threadKey(threadId));
      const next = patchThreadMetadata((await readMetadata(client, threadId)) ?? NO_THREAD_METADATA, patch, recordedGit);
      await client.query(
        `INSERT INTO skein_thread_metadata (thread_id, git_set, git_sha, git_branch, git_origin_url, daybreak_enabled) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (thread_id) DO UPDATE SET git_set = excluded.git_set, git_sha = excluded.git_sha, git_branch = excluded.git_branch,
           git_origin_url = excluded.git_origin_url, daybreak_enabled = excluded.daybreak_enabled`,
        [threadKey(threadId), next.gitInfo !== undefined, next.gitInfo?.sha ?? null, next.gitInfo?.branch ?? null, next.gitInfo?.originUrl ?? null, next.daybreakEnabled],
      );
      return next;
    });
  }

  async remove(threadId: string): Promise<void> {
    await this.#sql.query('DELETE FROM skein_thread_metadata WHERE thread_id = $1', [threadKey(threadId)]);
  }
}

async function readMetadata(db: Queryable, threadId: string): Promise<StoredThreadMetadata | undefined> {
  const { rows } = await db.query<Row>('SELECT git_set, git_sha, git_branch, git_origin_url, daybreak_enabled FROM skein_thread_metadata WHERE thread_id = $1', [threadKey(threadId)]);
  const row = rows[0];
  if (row === undefined) return undefined;
  return { gitInfo: row.git_set ? { sha: row.git_sha, branch: row.git_branch, originUrl: row.git_origin_url } : undefined, daybreakEnabled: row.daybreak_enabled };
}
