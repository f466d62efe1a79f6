// `thread/*`: start, resume, fork, list, read, archive, delete, naming, subscriptions and user shell
// commands. Each answers promptly; running turns notify in the background (turns: turns.ts).
import { pruneLocalCheckpoints, ThreadSessionError } from '@skein/core';
import {
  AppServerErrorCode,
  ThreadForkParams,
  ThreadIdParams,
  ThreadListParams,
  ThreadLoadedListParams,
  ThreadReadParams,
  ThreadResumeParams,
  ThreadSetNameParams,
  ThreadShellCommandParams,
  ThreadStartParams,
} from '@skein/protocol';
import type { ThreadListQuery } from '@skein/rollout';
import { AppServerRequestError } from '../app-server-error.js';
import { checkWorkspaceRoots, selectEnvironment } from '../environments/environment-selection.js';
import { defineMethod, type AppServerMethod, type MethodContext } from '../method.js';
import { paginate } from '../pagination.js';
import { forkWorktree } from './fork-worktree.js';
import { resumeExtras } from './resume-extras.js';
import { turnsPage } from './thread-turns-list.js';
import type { WireObject } from '@skein/core';
import { withStoredMetadata } from '../threads/thread-metadata.js';
import { sectionThreadPage, unfiledThreadPage } from '../threads/thread-sections.js';

/** Runs `notify` after the current response has gone out (Codex answers before it notifies). */
export function afterResponse(notify: () => void): void {
  setImmediate(notify);
}

function hubOf(context: MethodContext) {
  return context.server.threads;
}

/**
 * A thread's file checkpoints go with it (archive, delete): through its environments when it is
 * loaded, else those on this machine, from the records its file holds. One that cannot be pruned
 * now (an executor that is gone) is pruned by age when the next checkpoint is taken there.
 */
async function pruneCheckpoints(context: MethodContext, threadId: string): Promise<void> {
  const hub = hubOf(context);
  try {
    if (hub.isLoaded(threadId)) await hub.loaded(threadId).handle.pruneCheckpoints();
    else await pruneLocalCheckpoints(threadId, (await (await hub.store()).loadThread(threadId)).extensionState, hub.hostCommands);
  } catch {
    // Best effort by design: archiving or deleting the thread does not wait on its checkpoints.
  }
}

/** A session refusal as the client's error. */
export function asRequestError(error: unknown): never {
  if (error instanceof ThreadSessionError) throw AppServerRequestError.invalidRequest(error.message);
  if (error instanceof Error && !(error instanceof AppServerRequestError)) throw AppServerRequestError.invalidRequest(error.message);
  throw error;
}

/** Codex deprecates loading a paginated thread's whole history on resume and fork; a client is told how to page it instead. */
const FULL_HISTORY_DEPRECATION = 'Answering with the full history is deprecated: pass `excludeTurns: true`, then page with `thread/turns/list` and `thread/items/list`.';

/** The thread methods. */
export const THREAD_METHODS: ReadonlyMap<string, AppServerMethod> = new Map<string, AppServerMethod>([
  [
    'thread/start',
    defineMethod({
      params: ThreadStartParams,
      experimentalFields: ['environments', 'selectedCapabilityRoots'],
      async handle(params, context) {
        const hub = hubOf(context);
        checkWorkspaceRoots(params.runtimeWorkspaceRoots);
        // An empty `environments` list starts a thread without access to any machine.
        const selected = await selectEnvironment(params.environments, hub.environments);
        // Without one, the hub attaches the default environments. With explicit environments the
        // primary's own cwd is the thread's; the top-level cwd is only a fallback (as the seed states).
        const { thread, response, skipped } = await hub.start({ ...params, cwd: selected?.cwd ?? params.cwd }, context.connection, selected?.environments);
        thread.environmentsNamed = selected !== undefined;
        afterResponse(() => {
          context.server.broadcast(thread.id, 'thread/started', { thread: hub.threadOf(thread, []) });
          for (const message of [...(selected?.warnings ?? []), ...skipped]) context.server.broadcast(thread.id, 'warning', { threadId: thread.id, message });
        });
        return response;
      },
    }),
  ],
  [
    'thread/resume',
    defineMethod({
      params: ThreadResumeParams,
      threadIdNoun: 'session',
      async handle(params, context) {
        const hub = hubOf(context);
        checkWorkspaceRoots(params.runtimeWorkspaceRoots);
        const { thread, response } = await hub.resume(params, context.connection);
        response['thread'] = await withStoredMetadata(await hub.store(), response['thread'] as WireObject);
        const turns = params.excludeTurns === true ? await hub.recordedTurns(thread.id) : ((response['thread'] as WireObject)['turns'] as WireObject[]);
        // The page a client asked to bootstrap its history with (Codex's TUI does, with excludeTurns).
        const initialPage = params.initialTurnsPage ?? null;
        Object.assign(response, resumeExtras(thread.id, response, turns), { initialTurnsPage: initialPage === null ? null : turnsPage(turns, thread.id, initialPage) });
        if (params.excludeTurns !== true) context.connection.notify('deprecationNotice', { summary: FULL_HISTORY_DEPRECATION, details: null });
        context.connection.notify('thread/status/changed', { threadId: thread.id, status: thread.status() });
        afterResponse(() => {
          // Approvals and questions still waiting for an answer reach the resuming client too (as Codex).
          context.server.replayThreadRequests(thread.id, context.connection);
          const usage = thread.handle.tokenReport;
          if (usage.total.totalTokens > 0) {
            const lastTurnId = turns.at(-1)?.['id'] ?? '';
            context.connection.notify('thread/tokenUsage/updated', { threadId: thread.id, turnId: lastTurnId, tokenUsage: usage });
          }
          // The thread's goal, or a notice that it has none (Codex's clients clear the one they showed on it).
          const goal = thread.handle.goals.goal;
          if (goal === undefined) context.connection.notify('thread/goal/cleared', { threadId: thread.id });
          else context.connection.notify('thread/goal/updated', { threadId: thread.id, turnId: null, goal });
        });
        return response;
      },
    }),
  ],
  [
    'thread/fork',
    defineMethod({
      params: ThreadForkParams,
      threadIdNoun: 'session',
      async handle(params, context) {
        const hub = hubOf(context);
        checkWorkspaceRoots(params.runtimeWorkspaceRoots);
        // A fork into a worktree works there: its files as the source's checkpoints recorded them.
        const worktree = await forkWorktree(params, context);
        const { thread, response } = await hub.fork(worktree === undefined ? params : { ...params, cwd: worktree.cwd }, context.connection);
        if (worktree !== undefined) response['worktree'] = { path: worktree.path, commit: worktree.commit };
        if (params.excludeTurns !== true) context.connection.notify('deprecationNotice', { summary: FULL_HISTORY_DEPRECATION, details: null });
        // The thread exists now: a turn list that cannot be read costs the notification its turn id, not the fork.
        const turns = params.excludeTurns === true ? await hub.recordedTurns(thread.id).catch((): WireObject[] => []) : (((response['thread'] as WireObject)['turns'] ?? []) as WireObject[]);
        afterResponse(() => {
          // The copy's token usage, then the new thread, as Codex sends them.
          const usage = thread.handle.tokenReport;
          if (usage.total.totalTokens > 0) context.connection.notify('thread/tokenUsage/updated', { threadId: thread.id, turnId: turns.at(-1)?.['id'] ?? '', tokenUsage: usage });
          context.server.broadcast(thread.id, 'thread/started', { thread: hub.threadOf(thread, []) });
        });
        return response;
      },
    }),
  ],
  [
    'thread/list',
    defineMethod({
      params: ThreadListParams,
      async handle(params, context) {
        const hub = hubOf(context);
        const sectionId = params.sectionId ?? null;
        if (params.sortKey === 'section_position' && sectionId === null) {
          throw new AppServerRequestError(AppServerErrorCode.InvalidRequest, 'section-position sorting requires a section filter');
        }
        const cwd = typeof params.cwd === 'string' ? params.cwd : undefined;
        const query: ThreadListQuery = {
          ...(params.cursor === undefined || params.cursor === null ? {} : { cursor: params.cursor }),
          ...(params.limit === undefined || params.limit === null ? {} : { limit: params.limit }),
          ...(cwd === undefined ? {} : { cwd }),
          // Without source kinds, root threads only: sub-agents are reached through their root, as in Codex.
          ...(params.sourceKinds === undefined || params.sourceKinds === null ? { excludeSource: 'subagent' } : { source: indexSourceKinds(params.sourceKinds) }),
          archived: params.archived === true,
          // A thread's recencyAt is its updatedAt in Skein, so both keys order by the last update.
          ...(params.sortKey === 'updated_at' || params.sortKey === 'recency_at' ? { sortKey: 'updated' as const } : {}),
        };
        const store = await hub.store();
        // A section's threads come from its members (an unknown section holds none); `sectionId: null`
        // asks for the threads filed in none, absent for all.
        const page = sectionId !== null ? await sectionThreadPage(store, sectionId, params) : params.sectionId === null ? await unfiledThreadPage(store, query) : await store.list(query);
        // Every listed thread is a stored one, so each has a read state (Codex keys them by id).
        const readStates = Object.fromEntries(await Promise.all(page.data.map(async (summary) => [summary.id, await store.readReceipts.get(summary.id)] as const)));
        const data = await Promise.all(page.data.map((summary) => withStoredMetadata(store, hub.summaryObject(summary))));
        return { data, nextCursor: page.nextCursor, backwardsCursor: null, readStates };
      },
    }),
  ],
  [
    'thread/read',
    defineMethod({
      params: ThreadReadParams,
      async handle(params, context) {
        const hub = hubOf(context);
        const store = await hub.store();
        const thread = await withStoredMetadata(store, await hub.describe(params.threadId, params.includeTurns));
        // An ephemeral thread keeps nothing durable, its read state included.
        const readState = thread['ephemeral'] === true ? null : await store.readReceipts.get(params.threadId);
        return { thread, readState };
      },
    }),
  ],
  [
    'thread/loaded/list',
    defineMethod({
      params: ThreadLoadedListParams,
      async handle(params, context) {
        return paginate(await hubOf(context).loadedIds(), params);
      },
    }),
  ],
  [
    'thread/archive',
    defineMethod({
      params: ThreadIdParams,
      threadIdNoun: 'session',
      async handle(params, context) {
        const hub = hubOf(context);
        await pruneCheckpoints(context, params.threadId);
        await hub.unload(params.threadId);
        await (await hub.store()).archive(params.threadId).catch((error: unknown) => asRequestError(error));
        afterResponse(() => context.server.broadcastToAll('thread/archived', { threadId: params.threadId }));
        return {};
      },
    }),
  ],
  [
    'thread/delete',
    defineMethod({
      params: ThreadIdParams,
      async handle(params, context) {
        const hub = hubOf(context);
        const store = await hub.store();
        // Refused before anything is unloaded, with Codex's words.
        if ((await store.find(params.threadId)) === undefined) {
          throw new AppServerRequestError(AppServerErrorCode.InvalidRequest, `no rollout found for thread id ${params.threadId}`);
        }
        await pruneCheckpoints(context, params.threadId);
        await hub.unload(params.threadId);
        await store.delete(params.threadId).catch((error: unknown) => asRequestError(error));
        afterResponse(() => context.server.broadcastToAll('thread/deleted', { threadId: params.threadId }));
        return {};
      },
    }),
  ],
  [
    'thread/unarchive',
    defineMethod({
      params: ThreadIdParams,
      threadIdNoun: 'session',
      async handle(params, context) {
        const hub = hubOf(context);
        const store = await hub.store();
        const summary = await store.unarchive(params.threadId).catch((error: unknown) => asRequestError(error));
        // Before the answer, as issue #35 asks (the TUI refreshes its list on it); codex app-server
        // 0.171.0 sent it after the answer over stdio when probed.
        context.server.broadcastToAll('thread/unarchived', { threadId: params.threadId });
        return { thread: await withStoredMetadata(store, hub.summaryObject(summary)) };
      },
    }),
  ],
  [
    'thread/name/set',
    defineMethod({
      params: ThreadSetNameParams,
      handle(params, context) {
        const thread = hubOf(context).loaded(params.threadId);
        const name = params.name.trim() === '' ? null : params.name.trim();
        thread.facts.name = name;
        thread.handle.rename(name);
        afterResponse(() => context.server.broadcast(thread.id, 'thread/name/updated', { threadId: thread.id, threadName: name }));
        return {};
      },
    }),
  ],
  [
    'thread/unsubscribe',
    defineMethod({
      params: ThreadIdParams,
      handle(params, context) {
        if (!hubOf(context).isLoaded(params.threadId)) return { status: 'notLoaded' };
        // The thread keeps running for its other subscribers, or alone until it is unloaded, as in Codex.
        const unsubscribed = context.server.subscriptions.unsubscribe(params.threadId, context.connection);
        if (unsubscribed) hubOf(context).releaseIfUnheld(params.threadId);
        return { status: unsubscribed ? 'unsubscribed' : 'notSubscribed' };
      },
    }),
  ],
  [
    'thread/shellCommand',
    defineMethod({
      params: ThreadShellCommandParams,
      handle(params, context) {
        const thread = hubOf(context).loaded(params.threadId);
        if (params.command.trim() === '') throw new AppServerRequestError(AppServerErrorCode.InvalidRequest, 'command must not be empty');
        afterResponse(() => {
          // It runs on the thread's `local` environment, whichever is primary. The session reports
          // failures itself: with no local environment, as Codex, a turn that fails with "shell is
          // unavailable in this session" (an `error` notification); else a warning and the turn's
          // end. Interrupts end the turn.
          thread.handle.runUserShellCommand(params.command, { timeoutMs: params.timeoutMs ?? undefined }).catch(() => undefined);
        });
        return {};
      },
    }),
  ],
]);

/** Wire source kinds as the index records them: every sub-agent kind (`subAgent`, `subAgentThreadSpawn`, …) is `subagent`. */
function indexSourceKinds(kinds: readonly string[]): string[] {
  return [...new Set(kinds.map((kind) => (kind.startsWith('subAgent') ? 'subagent' : kind)))];
}
