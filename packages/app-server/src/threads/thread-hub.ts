// The app-server's threads: opens them through the process's one ThreadManager (core's thread
// registry) with the settings a client asked for, keeps each loaded thread's client-facing state,
// and answers thread questions from the rollout store for the rest.
import path from 'node:path';
import type { Config } from '@skein/config';
import { withPrimaryWorkspaceRoots, type SelectedEnvironment, type ThreadEnvironment, type ThreadHandle, type ThreadManager } from '@skein/core';
import type { ExtensionRegistry } from '@skein/extension-api';
import type { ThreadStartParams, ThreadForkParams, ThreadResumeParams } from '@skein/protocol';
import type { LoadedThread, RolloutLine, ThreadStore, ThreadSummary } from '@skein/rollout';
import { AppServerRequestError, refuse } from '../app-server-error.js';
import type { ClientConnection } from '../method.js';
import { chosenServiceTier } from './service-tier.js';
import { LiveThread, type ThreadHost } from './live-thread.js';
import { previewOf, recordedTurns, recordedTurnsWithPositions, teeLines, type RecordedTurn } from './recorded-turns.js';
import type { WireObject } from '@skein/core';
import { EnvironmentManager } from '../environments/environment-manager.js';
import { announceWhenConnected, relayConnectionNotices } from '../environments/environment-notices.js';
import { settleSelection } from '../environments/environment-selection.js';
import { threadSettingsObject } from './thread-object.js';
import { listedThreadObject, liveThreadObject, storedThreadObject } from './thread-objects.js';
import { recordedApprovalPolicy } from './recorded-approval-policy.js';
import { threadConfigOverrides } from './thread-config-overrides.js';
import { recordPermissions, selectThreadPermissions, type PermissionSelection } from './permission-selection.js';
import { nextTurnConfig } from './thread-settings.js';
import { deliverQueuedAfter } from './queued-turns.js';
import { ThreadUnloader } from './thread-unloader.js';
import { subagentThreads, type SubagentThreads } from './subagent-threads.js';
import { appServerThreadManager } from './thread-registry.js';
import type { ThreadHubOptions, ThreadHubServer } from './thread-hub-options.js';
export type { ThreadHubOptions, ThreadHubServer } from './thread-hub-options.js';
import { resolveThreadCwd } from './thread-cwd.js';

/** Settings a client may pass when it opens a thread. */
type OpenParams = Pick<ThreadStartParams, 'cwd' | 'model' | 'modelProvider' | 'approvalPolicy' | 'sandbox' | 'config' | 'baseInstructions' | 'developerInstructions'>;

/** The loaded threads of one app-server. */
export class ThreadHub {
  readonly #threads = new Map<string, LiveThread>();
  readonly #unloader: ThreadUnloader;
  #store: Promise<ThreadStore> | undefined;
  /** The store once open (threads exist only after it opened). */
  #openStore: ThreadStore | undefined;
  #registry: Promise<ThreadManager> | undefined;
  /** The registry once made (sub-agents' events arrive synchronously). */
  #openRegistry: ThreadManager | undefined;
  /** Sub-agents' LiveThreads and events (see subagent-threads.ts). */
  readonly #subagentThreads: SubagentThreads;

  /** The environments threads may be started on: this machine and the exec-servers clients added. */
  readonly environments: EnvironmentManager;

  constructor(
    private readonly options: ThreadHubOptions,
    private readonly server: ThreadHubServer,
  ) {
    this.#unloader = new ThreadUnloader(this.#threads, server);
    this.environments = new EnvironmentManager({ environment: options.environment, cwd: server.defaultCwd });
    if (options.environmentsConfig !== undefined) this.environments.configure(options.environmentsConfig, options.env);
    relayConnectionNotices(this.environments, () => this.#threads.values(), server);
    this.#subagentThreads = subagentThreads({
      threads: this.#threads,
      handle: (threadId) => this.#openRegistry?.get(threadId),
      threadHost: this.#threadHost(),
      subscribers: (threadId) => server.subscribers(threadId),
      subscribe: (threadId, connection) => server.subscribe(threadId, connection),
      now: () => server.now(),
    });
  }

  /** The rollout store threads are recorded in, opened on first use. */
  store(): Promise<ThreadStore> {
    // A store that failed to open is tried again by the next request.
    this.#store ??= this.options.openStore().then((store) => (this.#openStore = store), (error: unknown) => {
      this.#store = undefined;
      throw error;
    });
    return this.#store;
  }

  /** A loaded thread, or a -32600 naming the id. */
  loaded(threadId: string): LiveThread {
    const thread = this.#threads.get(threadId);
    if (thread === undefined) refuse(`thread not found: ${threadId}`);
    return thread;
  }

  /** Loaded thread ids, oldest first, as the thread registry knows them. */
  async loadedIds(): Promise<string[]> {
    if (this.#registry === undefined) return [];
    return (await this.#registry).loaded().map((handle) => handle.threadId);
  }

  /** Every loaded thread that has a session attached. */
  attached(): LiveThread[] {
    return [...this.#threads.values()].filter((thread) => thread.attached);
  }

  /** Where the host's own commands run on this machine: the local environment's processes and variables, and the clock for their deadlines. */
  get hostCommands(): { readonly processes: ThreadEnvironment['processes']; readonly env: ThreadEnvironment['env']; readonly now: () => number } {
    return { processes: this.options.environment.processes, env: this.options.environment.env, now: () => this.server.now() };
  }

  isLoaded(threadId: string): boolean {
    return this.#threads.has(threadId);
  }

  /**
   * Starts a thread for `connection` (which is subscribed to it) on `environment`; without one, on
   * the default environments (this machine and environments.toml's executors), each in the thread's
   * cwd. `skipped` says which defaults could not be attached, for the client's `warning`s.
   */
  async start(
    params: ThreadStartParams,
    connection: ClientConnection,
    selected: readonly SelectedEnvironment[] | undefined,
  ): Promise<{ thread: LiveThread; response: WireObject; skipped: readonly string[] }> {
    const permissions = selectThreadPermissions(params);
    const config = await this.#config({ ...params, sandbox: permissions.sandbox });
    const chosen = selected === undefined ? this.environments.defaults(config.cwd) : { environments: selected, skipped: [] };
    // With deferred_executor off the thread starts once its environments are connected.
    const settled = await settleSelection(withPrimaryWorkspaceRoots(chosen.environments, params.runtimeWorkspaceRoots ?? undefined), config.features.isEnabled('deferred_executor'));
    const skipped = [...chosen.skipped, ...settled.warnings];
    const extensions = await this.#extensions(config, connection);
    const live = this.#live(undefined, config, connection, { ephemeral: params.ephemeral === true, forkedFromId: null, threadSource: params.threadSource ?? null, preview: '', name: null }, params.serviceTier);
    recordPermissions(live, permissions);
    const handle = await (await this.#manager()).start({
      extensions,
      onEvent: live.onEvent,
      clientRequests: live.questions,
      config,
      ...this.#client(connection),
      ...(params.threadSource === undefined || params.threadSource === null ? {} : { threadSource: params.threadSource }),
      environment: settled.environments,
      ephemeral: params.ephemeral === true,
      init: { selectedCapabilityRoots: params.selectedCapabilityRoots ?? [] },
    });
    announceWhenConnected(this.server, handle.threadId, settled.environments);
    // The client's delegation mode (Codex 0.171.0 ignores it and answers explicitRequestOnly; Skein keeps it).
    if (params.multiAgentMode !== undefined && params.multiAgentMode !== null) handle.setMultiAgentMode(params.multiAgentMode);
    return { ...(await this.#register(live, handle, connection)), skipped };
  }

  /** Loads a stored thread (or joins it when loaded) for `connection`. */
  async resume(params: ThreadResumeParams, connection: ClientConnection): Promise<{ thread: LiveThread; response: WireObject; loaded: LoadedThread | undefined }> {
    const permissions = selectThreadPermissions(params);
    const existing = this.#threads.get(params.threadId);
    if (existing !== undefined) {
      this.server.subscribe(existing.id, connection);
      if (params.runtimeWorkspaceRoots != null) existing.handle.useWorkspaceRoots(params.runtimeWorkspaceRoots);
      await this.#reselectPermissions(existing, permissions);
      this.#unloader.hold(existing.id);
      const turns = params.excludeTurns === true || existing.facts.ephemeral ? [] : await recordedTurns(await this.store(), await this.#read(existing.id), this.options.contextFragments, existing.activeTurnId);
      return { thread: existing, response: await this.response(existing, turns), loaded: undefined };
    }
    const loaded = await this.#read(params.threadId);
    const config = await this.#config({ ...params, sandbox: permissions.sandbox, cwd: params.cwd ?? loaded.meta.cwd, approvalPolicy: params.approvalPolicy ?? recordedApprovalPolicy(loaded, params) });
    const extensions = await this.#extensions(config, connection);
    const live = this.#live(params.threadId, config, connection, {
      ephemeral: false,
      forkedFromId: loaded.meta.forked_from_id ?? null,
      threadSource: loaded.meta.thread_source ?? null,
      preview: previewOf(loaded, this.options.contextFragments),
      name: loaded.threadName ?? null,
      createdAtMs: Date.parse(loaded.meta.timestamp),
    }, params.serviceTier);
    recordPermissions(live, permissions);
    // The turns are read before the thread opens: nothing appends to the file until its next turn,
    // and a failed read then leaves nothing loaded behind.
    const turns = params.excludeTurns === true ? [] : await recordedTurns(await this.store(), loaded, extensions.contextFragments);
    const manager = await this.#manager();
    const handle = await manager.resume(params.threadId, { extensions, onEvent: live.onEvent, clientRequests: live.questions, config, ...this.#client(connection), workspaceRoots: params.runtimeWorkspaceRoots ?? undefined });
    // A resumed root brought its sub-agents back: the client follows them as it follows the root.
    for (const sub of manager.loaded()) if (sub.sessionId === handle.threadId && sub.threadId !== handle.threadId) this.server.subscribe(sub.threadId, connection);
    return { ...(await this.#register(live, handle, connection, turns)), loaded };
  }

  /** Copies a stored thread into a new one and loads the copy for `connection`. */
  async fork(params: ThreadForkParams, connection: ClientConnection): Promise<{ thread: LiveThread; response: WireObject }> {
    const permissions = selectThreadPermissions(params);
    const source = await this.#read(params.threadId);
    const config = await this.#config({ ...params, sandbox: permissions.sandbox, cwd: params.cwd ?? source.meta.cwd, approvalPolicy: params.approvalPolicy ?? recordedApprovalPolicy(source, params) });
    const extensions = await this.#extensions(config, connection);
    const upTo = params.lastTurnId === undefined || params.lastTurnId === null ? undefined : { turnId: params.lastTurnId };
    const live = this.#live(undefined, config, connection, {
      ephemeral: false,
      forkedFromId: params.threadId,
      threadSource: params.threadSource ?? null,
      preview: previewOf(source, this.options.contextFragments),
      name: null,
    }, params.serviceTier);
    recordPermissions(live, permissions);
    const handle = await (await this.#manager()).fork(params.threadId, {
      extensions,
      onEvent: live.onEvent,
      clientRequests: live.questions,
      config,
      ...this.#client(connection),
      workspaceRoots: params.runtimeWorkspaceRoots ?? undefined,
      ...(upTo === undefined ? {} : { upTo }),
    });
    let turns: WireObject[];
    try {
      turns = params.excludeTurns === true ? [] : await recordedTurns(await this.store(), await (await this.store()).loadThread(handle.threadId), this.options.contextFragments);
    } catch (error) {
      // The copy is made, but this client cannot be shown it: release it rather than keep a thread no one holds.
      await handle.close();
      throw error;
    }
    return this.#register(live, handle, connection, turns);
  }

  /** Unloads a thread now (see thread-unloader.ts). */
  unload(threadId: string): Promise<void> {
    return this.#unloader.unload(threadId);
  }

  /** A client let go of a thread: it unloads after a delay unless a client takes it again (see thread-unloader.ts). */
  releaseIfUnheld(threadId: string): void {
    this.#unloader.releaseIfUnheld(threadId);
  }

  /** Unloads every thread and releases the store and environment (server shutdown). */
  async closeAll(): Promise<void> {
    await Promise.all([...this.#threads.keys()].map((threadId) => this.unload(threadId)));
    await this.environments.closeAll();
    await this.options.release?.();
    await (await this.#store?.catch(() => undefined))?.close();
  }

  /**
   * A thread's recorded turns (none for an ephemeral thread). For a paging `method` (named in the
   * refusals, as Codex words them) an ephemeral thread, or a loaded one before its first turn, is -32600.
   */
  async recordedTurns(threadId: string, method?: string): Promise<WireObject[]> {
    return (await this.recordedTurnsWithPositions(threadId, method)).map((recorded) => recorded.turn);
  }

  /** {@link recordedTurns} with where each turn's parts are in its rollout (`thread/timeline/list`); `alsoVisit` sees each line read. */
  async recordedTurnsWithPositions(threadId: string, method?: string, alsoVisit?: (line: RolloutLine, lineNumber: number) => void): Promise<RecordedTurn[]> {
    const live = this.#threads.get(threadId);
    if (live?.facts.ephemeral === true) return method === undefined ? [] : refuse(`ephemeral threads do not support ${method}`);
    // A turn that just completed may still be writing its last lines; its end is on file once it settled.
    await live?.settled();
    const turns = await recordedTurnsWithPositions(teeLines(await this.store(), alsoVisit), await this.#read(threadId), this.options.contextFragments, live?.activeTurnId);
    if (method !== undefined && live !== undefined && turns.length === 0 && live.activeTurnId === undefined) {
      refuse(`thread ${threadId} is not materialized yet; ${method} is unavailable before first user message`);
    }
    return turns;
  }

  /** The Thread object of a stored thread, loaded or not. */
  async describe(threadId: string, includeTurns: boolean): Promise<WireObject> {
    const live = this.#threads.get(threadId);
    // A loaded thread describes itself; its file is read only for its turns (an ephemeral one has none).
    if (live?.facts.ephemeral === true && includeTurns) refuse('ephemeral threads do not support includeTurns');
    if (live !== undefined) return this.threadOf(live, includeTurns ? await recordedTurns(await this.store(), await this.#read(threadId), this.options.contextFragments, live.activeTurnId) : []);
    const loaded = await this.#read(threadId);
    return storedThreadObject(loaded, includeTurns ? await recordedTurns(await this.store(), loaded, this.options.contextFragments) : [], this.options.cliVersion, this.options.contextFragments);
  }

  /** A listed thread: the live object when loaded, else the index's summary. */
  summaryObject(summary: ThreadSummary): WireObject {
    const live = this.#threads.get(summary.id);
    // Codex's list leaves forkedFromId out (null), even for a loaded fork.
    if (live !== undefined) return { ...this.threadOf(live, []), forkedFromId: null };
    return listedThreadObject(summary, this.options.cliVersion);
  }

  /** The Thread object of a loaded thread. */
  threadOf(thread: LiveThread, turns: readonly WireObject[]): WireObject {
    return liveThreadObject(thread, turns, this.options.cliVersion);
  }

  /** The thread/start, resume and fork response. */
  async response(thread: LiveThread, turns: readonly WireObject[]): Promise<WireObject> {
    // The AGENTS.md files the thread's context holds, as Codex lists them (read from each environment).
    const instructionSources = await thread.handle.instructionSources().catch(() => []);
    return threadSettingsObject(thread.config, this.threadOf(thread, turns), { serviceTier: thread.serviceTier, instructionSources, permissionProfile: thread.permissionProfile, multiAgentMode: thread.handle.multiAgentMode });
  }

  #live(
    threadId: string | undefined,
    config: Config,
    connection: ClientConnection,
    facts: { ephemeral: boolean; forkedFromId: string | null; threadSource: string | null; preview: string; name: string | null; createdAtMs?: number },
    serviceTier: string | null | undefined,
  ): LiveThread {
    // The id is known only once core opened the thread; LiveThread takes it from the handle.
    const live = new LiveThread(threadId ?? '', config, {
      createdAtMs: facts.createdAtMs ?? this.server.now(),
      ephemeral: facts.ephemeral,
      forkedFromId: facts.forkedFromId,
      originator: connection.initializeParams.clientInfo.name,
      source: 'vscode',
      threadSource: facts.threadSource,
      name: facts.name,
      preview: facts.preview,
    }, this.#threadHost());
    live.serviceTier = serviceTier === null ? null : chosenServiceTier(serviceTier, null);
    return live;
  }

  async #register(live: LiveThread, handle: ThreadHandle, connection: ClientConnection, turns: readonly WireObject[] = []): Promise<{ thread: LiveThread; response: WireObject }> {
    live.attach(handle);
    this.#threads.set(live.id, live);
    this.server.subscribe(live.id, connection);
    this.#unloader.hold(live.id);
    return { thread: live, response: await this.response(live, turns) };
  }

  /** How a client's threads name it to the model: its name (`originator`) and user agent. */
  #client(connection: ClientConnection): { readonly originator: string; readonly userAgent: string } {
    return { originator: connection.initializeParams.clientInfo.name, userAgent: this.server.userAgentOf(connection) };
  }

  /** What LiveThreads report to: the server, read receipts, and the queue delivered after a turn. */
  #threadHost(): ThreadHost {
    return {
      ...this.server,
      publishTurn: (id, turnId) => this.#openStore?.readReceipts.publishTurn(id, turnId),
      turnEnded: (id, status) => this.#deliverQueued(id, status),
    };
  }

  /** The process's one thread registry, made with the store on first use. */
  #manager(): Promise<ThreadManager> {
    this.#registry ??= this.store().then(
      (store) => {
        const manager = appServerThreadManager(store, this.options, this.server.installationId, this.#subagentThreads);
        this.#openRegistry = manager;
        return manager;
      },
      (error: unknown) => {
        this.#registry = undefined;
        throw error;
      },
    );
    return this.#registry;
  }

  /** After a turn of a loaded thread ended: its next queued message starts (see queued-turns.ts). */
  #deliverQueued(threadId: string, status: 'completed' | 'interrupted' | 'failed'): void {
    const thread = this.#threads.get(threadId);
    const store = this.#openStore;
    if (thread === undefined || store === undefined) return;
    deliverQueuedAfter(status, thread, store.queuedSubmissions, (id) => this.server.broadcast(id, 'thread/queue/changed', { threadId: id })).catch((error: unknown) => {
      // A queue that cannot be read must not break the turn that just ended; the client hears why.
      this.server.broadcast(threadId, 'warning', { threadId, message: `the queued message could not be started: ${(error as Error).message}` });
    });
  }

  /**
   * A resume's `permissions` or `sandbox` for a thread that is already loaded: its later turns run
   * under them, as after `thread/settings/update` (a client asking for read-only must not be handed
   * the writable thread another client left loaded).
   */
  async #reselectPermissions(thread: LiveThread, permissions: PermissionSelection): Promise<void> {
    if (permissions.sandbox === undefined) return;
    const sandbox = permissions.sandbox;
    const next = await thread.serializeSettings(() => nextTurnConfig(this.server, thread, { sandbox })).catch((error: unknown) => {
      throw AppServerRequestError.invalidRequest((error as Error).message);
    });
    if (next !== undefined) thread.configureNextTurns(next);
    recordPermissions(thread, permissions);
  }

  async #config(params: OpenParams): Promise<Config> {
    // A relative cwd is the server's working directory's, as Codex takes it.
    const cwd = resolveThreadCwd(this.server.defaultCwd, params.cwd ?? '.');
    try {
      return (await this.server.loadConfig(cwd, threadConfigOverrides(params))).config;
    } catch (error) {
      throw AppServerRequestError.invalidRequest((error as Error).message);
    }
  }

  /** The thread's extensions; tells `connection` about those that failed to load and were not reported yet. */
  async #extensions(config: Config, connection: ClientConnection): Promise<ExtensionRegistry> {
    let loaded;
    try {
      loaded = await this.options.extensions(config);
    } catch (error) {
      // Only a strict server (`--strict-config`) refuses the thread.
      throw AppServerRequestError.invalidRequest((error as Error).message);
    }
    for (const problem of loaded.unreported) {
      connection.notify('configWarning', { summary: problem.message, details: null, path: path.isAbsolute(problem.source.origin) ? problem.source.origin : null });
    }
    return loaded.registry;
  }

  async #read(threadId: string): Promise<LoadedThread> {
    try {
      return await (await this.store()).loadThread(threadId);
    } catch (error) {
      throw AppServerRequestError.invalidRequest(`thread not found: ${threadId} (${(error as Error).message})`);
    }
  }
}
