// `thread/metadata/update`: stores a thread's Git facts (merged field by field) and Daybreak choice,
// as Codex 0.171.0 does, and answers the thread as `thread/read` shows it; no notification. Skein
// keeps no projects, so a `projectId` to assign is never found; an empty one (clear) is accepted.
import { ThreadMetadataUpdateParams } from '@skein/protocol';
import { refuse } from '../app-server-error.js';
import { defineMethod, type AppServerMethod } from '../method.js';
import { recordedGitFacts, withStoredMetadata } from '../threads/thread-metadata.js';

/** A Git field of the patch: kept (undefined), cleared (null) or replaced by its trimmed, non-empty value. */
function gitField(value: string | null | undefined, name: string): string | null | undefined {
  if (value === undefined || value === null) return value;
  const trimmed = value.trim();
  if (trimmed === '') refuse(`${name} must not be empty`);
  return trimmed;
}

/** The `thread/metadata/update` method. */
export const THREAD_METADATA_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'thread/metadata/update',
    defineMethod({
      params: ThreadMetadataUpdateParams,
      async handle(params, context) {
        const gitInfo = params.gitInfo ?? undefined;
        const projectId = params.projectId ?? undefined;
        const daybreakEnabled = params.daybreakEnabled ?? undefined;
        // Refused before the thread is looked up, as Codex does.
        if (gitInfo === undefined && projectId === undefined && daybreakEnabled === undefined) refuse('thread metadata update must include at least one field');
        const hub = context.server.threads;
        const store = await hub.store();
        const loaded = hub.isLoaded(params.threadId) ? hub.loaded(params.threadId) : undefined;
        // Only a stored thread has metadata: an ephemeral one, or an id no file has, is not found.
        if (loaded?.facts.ephemeral === true || (loaded === undefined && (await store.find(params.threadId)) === undefined)) refuse(`thread not found: ${params.threadId}`);
        if (projectId !== undefined && projectId !== '') refuse(`project not found: ${projectId}`);
        let git: { sha: string | null | undefined; branch: string | null | undefined; originUrl: string | null | undefined } | undefined;
        if (gitInfo !== undefined) {
          if (gitInfo.sha === undefined && gitInfo.branch === undefined && gitInfo.originUrl === undefined) refuse('gitInfo must include at least one field');
          git = { sha: gitField(gitInfo.sha, 'gitInfo.sha'), branch: gitField(gitInfo.branch, 'gitInfo.branch'), originUrl: gitField(gitInfo.originUrl, 'gitInfo.originUrl') };
        }
        // The first Git change merges over the facts the thread recorded when it started.
        const recorded = git === undefined ? undefined : recordedGitFacts((await store.loadThread(params.threadId)).meta.git);
        await store.threadMetadata.update(params.threadId, { gitInfo: git, daybreakEnabled }, recorded);
        return { thread: await withStoredMetadata(store, await hub.describe(params.threadId, false)) };
      },
    }),
  ],
]);
