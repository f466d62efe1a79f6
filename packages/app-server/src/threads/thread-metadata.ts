// The metadata clients set on a stored thread (`thread/metadata/update`: Git facts, Daybreak) on the
// Thread objects the server answers with; it lives in the index database, not the rollout file.
import type { GitInfo, StoredThreadMetadata, ThreadGitFacts, ThreadStore } from '@skein/rollout';
import type { WireObject } from '@skein/core';
import { withSection } from './thread-sections.js';

/** The wire `gitInfo`: null when every fact is unknown, as for a thread outside a repository. */
export function gitInfoObject(facts: ThreadGitFacts): WireObject | null {
  return facts.sha === null && facts.branch === null && facts.originUrl === null ? null : { sha: facts.sha, branch: facts.branch, originUrl: facts.originUrl };
}

/** The Git facts a rollout header recorded when the thread started, in the app-server's terms. */
export function recordedGitFacts(git: GitInfo | null | undefined): ThreadGitFacts | undefined {
  if (git === null || git === undefined) return undefined;
  return { sha: git.commit_hash ?? null, branch: git.branch ?? null, originUrl: git.repository_url ?? null };
}

/** `thread` with what clients stored for it, its section included (an ephemeral thread has nothing stored). */
export async function withStoredMetadata(store: ThreadStore, thread: WireObject): Promise<WireObject> {
  if (thread['ephemeral'] === true || typeof thread['id'] !== 'string') return thread;
  return withSection(store, withMetadata(thread, await store.threadMetadata.get(thread['id'])));
}

function withMetadata(thread: WireObject, stored: StoredThreadMetadata): WireObject {
  if (stored.gitInfo === undefined && stored.daybreakEnabled === null) return thread;
  return {
    ...thread,
    ...(stored.gitInfo === undefined ? {} : { gitInfo: gitInfoObject(stored.gitInfo) }),
    ...(stored.daybreakEnabled === null ? {} : { daybreakEnabled: stored.daybreakEnabled }),
  };
}
