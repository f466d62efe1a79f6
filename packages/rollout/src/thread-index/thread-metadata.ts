// Thread metadata clients set (`thread/metadata/update`): a thread's Git facts as the client says
// they are, and its Daybreak choice. Kept in the index database beside the read receipts and, like
// them, never rebuilt from the files: the files cannot tell it (Codex keeps these in `state_5.sqlite`).
import type Database from 'better-sqlite3';
import { prepared } from './prepared-statement.js';
import { settle } from './settle.js';

/** A thread's Git facts in the app-server's terms; a null field is unknown or cleared. */
export interface ThreadGitFacts {
  readonly sha: string | null;
  readonly branch: string | null;
  readonly originUrl: string | null;
}

/** What a client stored for a thread; `gitInfo` undefined when no client set it. */
export interface StoredThreadMetadata {
  readonly gitInfo: ThreadGitFacts | undefined;
  readonly daybreakEnabled: boolean | null;
}

/** A change: an omitted field is kept, `null` clears it, a value replaces it. */
export interface ThreadMetadataPatch {
  readonly gitInfo?: { readonly [K in keyof ThreadGitFacts]?: string | null | undefined } | undefined;
  readonly daybreakEnabled?: boolean | undefined;
}

/** The metadata clients set on threads, kept beside the threads (SQLite here; PostgreSQL in `@skein/thread-store-postgres`). */
export interface ThreadMetadataStore {
  /** What clients stored for the thread (nothing: no Git facts, no Daybreak choice). */
  get(threadId: string): Promise<StoredThreadMetadata>;
  /**
   * Applies `patch` atomically. Git fields merge one by one over what was stored, or over
   * `recordedGit` (the facts the thread was started with) when no client set any yet.
   */
  update(threadId: string, patch: ThreadMetadataPatch, recordedGit: ThreadGitFacts | undefined): Promise<StoredThreadMetadata>;
  /** Forgets the thread's metadata (the thread was deleted). */
  remove(threadId: string): Promise<void>;
}

/** What a thread has before any client stored metadata for it. */
export const NO_THREAD_METADATA: StoredThreadMetadata = { gitInfo: undefined, daybreakEnabled: null };

/** `current` with `patch` applied (see {@link ThreadMetadataStore.update}); every backend merges the same way. */
export function patchThreadMetadata(current: StoredThreadMetadata, patch: ThreadMetadataPatch, recordedGit: ThreadGitFacts | undefined): StoredThreadMetadata {
  let gitInfo = current.gitInfo;
  if (patch.gitInfo !== undefined) {
    const from = gitInfo ?? recordedGit ?? { sha: null, branch: null, originUrl: null };
    gitInfo = {
      sha: patch.gitInfo.sha === undefined ? from.sha : patch.gitInfo.sha,
      branch: patch.gitInfo.branch === undefined ? from.branch : patch.gitInfo.branch,
      originUrl: patch.gitInfo.originUrl === undefined ? from.originUrl : patch.gitInfo.originUrl,
    };
  }
  return { gitInfo, daybreakEnabled: patch.daybreakEnabled ?? current.daybreakEnabled };
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS thread_metadata (
  thread_id TEXT PRIMARY KEY,
  git_set INTEGER NOT NULL,
  git_sha TEXT,
  git_branch TEXT,
  git_origin_url TEXT,
  daybreak_enabled INTEGER
);
`;

interface Row {
  git_set: number;
  git_sha: string | null;
  git_branch: string | null;
  git_origin_url: string | null;
  daybreak_enabled: number | null;
}

/** The client-set metadata of one index database. */
export class ThreadMetadata implements ThreadMetadataStore {
  constructor(private readonly db: Database.Database) {
    db.exec(SCHEMA);
  }

  /** What clients stored for the thread (nothing: no Git facts, no Daybreak choice). */
  get(threadId: string): Promise<StoredThreadMetadata> {
    return settle(() => {
      const row = this.#row(threadId);
      return row === undefined ? NO_THREAD_METADATA : metadataOf(row);
    });
  }

  /**
   * Applies `patch` in one transaction. Git fields merge one by one over what was stored, or over
   * `recordedGit` (the facts the thread was started with) when no client set any yet.
   */
  update(threadId: string, patch: ThreadMetadataPatch, recordedGit: ThreadGitFacts | undefined): Promise<StoredThreadMetadata> {
    return settle(() =>
      this.db
        .transaction(() => {
          const current = this.#row(threadId);
          const next = patchThreadMetadata(current === undefined ? NO_THREAD_METADATA : metadataOf(current), patch, recordedGit);
          this.#write(threadId, next);
          return next;
        })
        .immediate(),
    );
  }

  /** Forgets the thread's metadata (the thread was deleted). */
  remove(threadId: string): Promise<void> {
    return settle(() => {
      prepared(this.db, 'DELETE FROM thread_metadata WHERE thread_id = ?').run(threadId.toLowerCase());
    });
  }

  #row(threadId: string): Row | undefined {
    return prepared(this.db, 'SELECT git_set, git_sha, git_branch, git_origin_url, daybreak_enabled FROM thread_metadata WHERE thread_id = ?').get(threadId.toLowerCase()) as Row | undefined;
  }

  #write(threadId: string, metadata: StoredThreadMetadata): void {
    prepared(this.db, 
        `INSERT INTO thread_metadata (thread_id, git_set, git_sha, git_branch, git_origin_url, daybreak_enabled)
         VALUES (@thread_id, @git_set, @git_sha, @git_branch, @git_origin_url, @daybreak_enabled)
         ON CONFLICT(thread_id) DO UPDATE SET git_set = excluded.git_set, git_sha = excluded.git_sha, git_branch = excluded.git_branch,
           git_origin_url = excluded.git_origin_url, daybreak_enabled = excluded.daybreak_enabled`,
      )
      .run({
        thread_id: threadId.toLowerCase(),
        git_set: metadata.gitInfo === undefined ? 0 : 1,
        git_sha: metadata.gitInfo?.sha ?? null,
        git_branch: metadata.gitInfo?.branch ?? null,
        git_origin_url: metadata.gitInfo?.originUrl ?? null,
        daybreak_enabled: metadata.daybreakEnabled === null ? null : metadata.daybreakEnabled ? 1 : 0,
      });
  }
}

function metadataOf(row: Row): StoredThreadMetadata {
  return {
    gitInfo: row.git_set === 1 ? { sha: row.git_sha, branch: row.git_branch, originUrl: row.git_origin_url } : undefined,
    daybreakEnabled: row.daybreak_enabled === null ? null : row.daybreak_enabled === 1,
  };
}
