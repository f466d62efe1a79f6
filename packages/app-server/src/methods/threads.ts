// `thread/*` and `turn/*`: start, resume, fork, list, read, archive, delete, naming, subscriptions, user shell
// commands, and the turns themselves. Each answers promptly; running turns notify in the background.
import { ThreadSessionError, type ThreadEnvironment } from '@skein/core';
import {
  AppServerErrorCode,
  FileSystemError,
  newTurnId,
  PathUri,
  randomUuidV7,
  ThreadForkParams,
  ThreadIdParams,
  ThreadListParams,
  ThreadLoadedListParams,
  ThreadReadParams,
  ThreadResumeParams,
  ThreadSetNameParams,
  ThreadShellCommandParams,
  ThreadStartParams,
  TurnInterruptParams,
  TurnStartParams,
  TurnSteerParams,
} from '@skein/protocol';
import { AppServerRequestError } from '../app-server-error.js';
import { environmentError, type EnvironmentManager } from '../environments/environment-manager.js';
import { defineMethod, type AppServerMethod, type MethodContext } from '../method.js';
import { paginate } from '../pagination.js';
import { turnsPage } from './thread-turns-list.js';
import type { LiveThread } from '../threads/live-thread.js';
import type { WireObject } from '../threads/thread-items.js';
import { withStoredMetadata } from '../threads/thread-metadata.js';
import { environmentEntries, nextTurnConfig, sandboxModeOf, threadSettingsObject } from '../threads/thread-settings.js';

/** Runs `notify` after the current response has gone out (Codex answers before it notifies). */
export function afterResponse(notify: () => void): void {
  setImmediate(notify);
}

function hubOf(context: MethodContext) {
  return context.server.threads;
}

/** A session refusal as the client's error. */
export function asRequestError(error: unknown): never {
  if (error instanceof ThreadSessionError) throw AppServerRequestError.invalidRequest(error.message);
  if (error instanceof Error && !(error instanceof AppServerRequestError)) throw AppServerRequestError.invalidRequest(error.message);
  throw error;
}

/** The thread methods. */
export const THREAD_METHODS: ReadonlyMap<string, AppServerMethod> = new Map<string, AppServerMethod>([
  [
    'thread/start',
    defineMethod({
      params: ThreadStartParams,
      experimentalFields: ['environments', 'selectedCapabilityRoots'],
      async handle(params, context) {
        const hub = hubOf(context);
        // An empty `environments` list starts a thread without access to any machine.
        const selected = await selectEnvironment(params.environments, hub.environments);
        const environment = selected === undefined ? hub.environment : selected.environments;
        const { thread, response } = await hub.start({ ...params, cwd: params.cwd ?? selected?.cwd }, context.connection, environment);
        afterResponse(() => {
          context.server.broadcast(thread.id, 'thread/started', { thread: hub.threadOf(thread, []) });
          for (const message of selected?.warnings ?? []) context.server.broadcast(thread.id, 'warning', { threadId: thread.id, message });
        });
        return response;
      },
    }),
  ],
  [
    'thread/resume',
    defineMethod({
      params: ThreadResumeParams,
      async handle(params, context) {
        const hub = hubOf(context);
        const { thread, response } = await hub.resume(params, context.connection);
        response['thread'] = withStoredMetadata(await hub.store(), response['thread'] as WireObject);
        // The page a client asked to bootstrap its history with (Codex's TUI does, with excludeTurns).
        if (params.initialTurnsPage !== undefined && params.initialTurnsPage !== null) {
          response['initialTurnsPage'] = turnsPage(await hub.recordedTurns(thread.id), thread.id, params.initialTurnsPage);
        }
        context.connection.notify('thread/status/changed', { threadId: thread.id, status: thread.status() });
        afterResponse(() => {
          // Approvals and questions still waiting for an answer reach the resuming client too (as Codex).
          context.server.replayThreadRequests(thread.id, context.connection);
          const usage = thread.handle.tokenUsage;
          if (usage.totalTokens > 0) {
            context.connection.notify('thread/tokenUsage/updated', { threadId: thread.id, turnId: '', tokenUsage: { total: usage, last: usage, modelContextWindow: null } });
          }
        });
        return response;
      },
    }),
  ],
  [
    'thread/fork',
    defineMethod({
      params: ThreadForkParams,
      async handle(params, context) {
        const hub = hubOf(context);
        const { thread, response } = await hub.fork(params, context.connection);
        afterResponse(() => context.server.broadcast(thread.id, 'thread/started', { thread: hub.threadOf(thread, []) }));
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
        // Skein keeps no sections (a desktop client's grouping): every thread is in none, so a
        // section's list is empty, as Codex answers for a section that holds no thread.
        if (sectionId !== null) return { data: [], nextCursor: null, backwardsCursor: null, readStates: {} };
        const cwd = typeof params.cwd === 'string' ? params.cwd : undefined;
        const page = await (await hub.store()).list({
          ...(params.cursor === undefined || params.cursor === null ? {} : { cursor: params.cursor }),
          ...(params.limit === undefined || params.limit === null ? {} : { limit: params.limit }),
          ...(cwd === undefined ? {} : { cwd }),
          ...(params.sourceKinds === undefined || params.sourceKinds === null ? {} : { source: params.sourceKinds }),
          archived: params.archived === true,
          // A thread's recencyAt is its updatedAt in Skein, so both keys order by the last update.
          ...(params.sortKey === 'updated_at' || params.sortKey === 'recency_at' ? { sortKey: 'updated' as const } : {}),
        });
        const store = await hub.store();
        // Every listed thread is a stored one, so each has a read state (Codex keys them by id).
        const readStates = Object.fromEntries(page.data.map((summary) => [summary.id, store.readReceipts.get(summary.id)]));
        return { data: page.data.map((summary) => withStoredMetadata(store, hub.summaryObject(summary))), nextCursor: page.nextCursor, backwardsCursor: null, readStates };
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
        const thread = withStoredMetadata(store, await hub.describe(params.threadId, params.includeTurns));
        // An ephemeral thread keeps nothing durable, its read state included.
        const readState = thread['ephemeral'] === true ? null : store.readReceipts.get(params.threadId);
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
      async handle(params, context) {
        const hub = hubOf(context);
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
      async handle(params, context) {
        const hub = hubOf(context);
        const store = await hub.store();
        const summary = await store.unarchive(params.threadId).catch((error: unknown) => asRequestError(error));
        afterResponse(() => context.server.broadcastToAll('thread/unarchived', { threadId: params.threadId }));
        return { thread: withStoredMetadata(store, hub.summaryObject(summary)) };
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

/** Refuses a new turn while one runs. */
function assertNoTurnRunning(thread: LiveThread): void {
  if (thread.activeTurnId !== undefined) throw AppServerRequestError.invalidRequest(`turn ${thread.activeTurnId} is still running; use turn/steer or turn/interrupt`);
}

/** The turn methods. */
export const TURN_METHODS: ReadonlyMap<string, AppServerMethod> = new Map<string, AppServerMethod>([
  [
    'turn/start',
    defineMethod({
      params: TurnStartParams,
      experimentalFields: ['environments', 'collaborationMode'],
      async handle(params, context) {
        const hub = hubOf(context);
        const thread = hub.loaded(params.threadId);
        assertNoTurnRunning(thread);
        // Checked (ids, and each cwd on its environment) before anything changes.
        const selected = await selectEnvironment(params.environments, hub.environments);
        const requested = params.cwd ?? selected?.cwd ?? undefined;
        const cwd = requested === undefined ? undefined : context.server.resolveCwd(requested);
        // The overrides layer over the thread's settings so far (thread/start's, earlier turns',
        // thread/settings/update's), after any settings change that arrived before this turn; the
        // settings are compared from that point on.
        let settingsBefore: WireObject | undefined;
        const config = await thread
          .serializeSettings(() => {
            settingsBefore = currentSettings(thread);
            return nextTurnConfig(context.server, thread, { model: params.model, approvalPolicy: params.approvalPolicy, effort: params.effort, summary: params.summary, sandbox: sandboxModeOf(params.sandboxPolicy), cwd });
          })
          .catch((error: unknown) => asRequestError(error));
        // Another turn may have started while the settings were loading. Nothing has changed until
        // here, so a refused or failed turn/start leaves the thread as it was.
        assertNoTurnRunning(thread);
        if (selected !== undefined) {
          thread.handle.useEnvironment(selected.environments);
          for (const message of selected.warnings) context.server.broadcast(thread.id, 'warning', { threadId: thread.id, message });
        }
        if (config !== undefined) thread.reconfigure(config);
        // As Codex: overrides that change the thread's settings announce them before the turn starts.
        const settingsAfter = currentSettings(thread);
        if (settingsBefore !== undefined && JSON.stringify(settingsAfter) !== JSON.stringify(settingsBefore)) context.server.broadcast(thread.id, 'thread/settings/updated', { threadId: thread.id, threadSettings: settingsAfter });
        const turn = thread.startTurn(params.input, { turnId: newTurnId(randomUuidV7), ...(params.outputSchema === undefined ? {} : { outputSchema: params.outputSchema }) });
        return { turn };
      },
    }),
  ],
  [
    'turn/steer',
    defineMethod({
      params: TurnSteerParams,
      async handle(params, context) {
        const thread = hubOf(context).loaded(params.threadId);
        const turnId = await thread.steer(params.expectedTurnId, params.input).catch((error: unknown) => asRequestError(error));
        return { turnId };
      },
    }),
  ],
  [
    'turn/interrupt',
    defineMethod({
      params: TurnInterruptParams,
      handle(params, context) {
        const thread = hubOf(context).loaded(params.threadId);
        try {
          thread.interrupt(params.turnId);
        } catch (error) {
          asRequestError(error);
        }
        return {};
      },
    }),
  ],
]);

/** A thread's or turn's environments as the server could resolve them. */
export interface EnvironmentSelection {
  /** The entries that resolved, each with its cwd; the first is where the thread works. */
  readonly environments: readonly ThreadEnvironment[];
  /** The primary's cwd, which becomes the thread's. */
  readonly cwd: string | undefined;
  /** One line per entry that was skipped, for `warning` notifications. */
  readonly warnings: readonly string[];
}

/**
 * The environments a thread or turn asks for: undefined when it names none (keep the current one),
 * else the first entry that resolves is the primary. An id the server does not know, or a cwd that is
 * no directory on its environment (asked of that environment's own file system, so a remote cwd is
 * checked on the executor), is the client's mistake and refuses the request before anything changes;
 * a known environment that cannot be reached now is skipped with a warning, so one dead executor does
 * not fail the thread.
 */
export async function selectEnvironment(
  environments: readonly { readonly environmentId: string; readonly cwd: string }[] | null | undefined,
  manager: EnvironmentManager,
): Promise<EnvironmentSelection | undefined> {
  if (environments === undefined || environments === null) return undefined;
  const unknown = environments.find((entry) => !manager.has(entry.environmentId));
  if (unknown !== undefined) throw environmentError(unknown.environmentId, 'unknownEnvironment', `unknown environment id \`${unknown.environmentId}\``);
  const warnings: string[] = [];
  const skipped = (environmentId: string, error: unknown) => warnings.push(`environment \`${environmentId}\` was skipped: ${error instanceof Error ? error.message : String(error)}`);
  const seen = new Set<string>();
  const candidates: { readonly environmentId: string; readonly environment: ThreadEnvironment & { readonly cwd: string } }[] = [];
  for (const entry of environments) {
    // Duplicate ids: the first wins.
    if (seen.has(entry.environmentId)) continue;
    seen.add(entry.environmentId);
    try {
      candidates.push({ environmentId: entry.environmentId, environment: { ...manager.resolve(entry.environmentId), cwd: entry.cwd } });
    } catch (error) {
      skipped(entry.environmentId, error);
    }
  }
  // Every cwd is checked (in parallel) before any entry is taken, so a refusal leaves nothing half-applied.
  const checks = await Promise.all(candidates.map(({ environmentId, environment }) => checkCwd(environmentId, environment)));
  const refused = checks.find((check) => check instanceof AppServerRequestError);
  if (refused !== undefined) throw refused;
  const resolved: ThreadEnvironment[] = [];
  candidates.forEach(({ environmentId, environment }, index) => {
    const check = checks[index];
    if (check === undefined) resolved.push(environment);
    else skipped(environmentId, check);
  });
  return { environments: resolved, cwd: resolved[0]?.cwd, warnings };
}

/** Why `data.reason` of a refused environment cwd: it is no directory there. */
export const INVALID_CWD_REASON = 'invalidCwd';

/**
 * Checks on the environment's own file system (`fs/getMetadata` on a remote executor) that `cwd` is
 * a directory there: undefined when it is, the -32600 error naming the environment and the cwd when
 * it is not, or the failure itself when the environment could not be asked (it went away).
 */
async function checkCwd(environmentId: string, environment: ThreadEnvironment & { readonly cwd: string }): Promise<AppServerRequestError | Error | undefined> {
  const { cwd } = environment;
  const invalid = (why: string) =>
    new AppServerRequestError(AppServerErrorCode.InvalidRequest, `environment \`${environmentId}\`: cwd \`${cwd}\` ${why}`, { environmentId, reason: INVALID_CWD_REASON, cwd });
  let uri: PathUri;
  try {
    uri = PathUri.fromNativePath(cwd, environment.os === 'windows' ? 'windows' : 'posix');
  } catch {
    return invalid('is not an absolute path');
  }
  try {
    const metadata = await environment.fileSystem.getMetadata(uri);
    return metadata.isDirectory ? undefined : invalid('is not a directory on that environment');
  } catch (error) {
    if (!(error instanceof FileSystemError)) return error instanceof Error ? error : new Error(String(error));
    if (error.code === 'NotFound') return invalid('does not exist on that environment');
    if (error.code === 'NotADirectory') return invalid('is not a directory on that environment');
    return invalid(`cannot be used on that environment: ${error.message}`);
  }
}

/** The settings the thread's next turn runs with, as `thread/settings/updated` carries them. */
function currentSettings(thread: LiveThread): WireObject {
  return threadSettingsObject(thread, thread.nextConfig, environmentEntries(thread, undefined));
}
