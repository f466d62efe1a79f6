// The thread registry of one host process (cli, app-server): starts, resumes and forks threads on
// top of @skein/rollout, knows every live thread, shares the model client, and hands out narrow
// thread handles. Each loaded thread is a ThreadSession recording into its rollout file; resume
// continues the same file with the history it reconstructs.
export { ThreadManagerError } from './thread-manager-options.js';
export type { OpenThreadOptions, StartThreadOptions, ThreadManagerOptions, ThreadRegistryEvent } from './thread-manager-options.js';
import { restoredContextWindow } from './compaction/context-window.js';
import { ThreadManagerError, type OpenThreadOptions, type StartThreadOptions, type ThreadManagerOptions, type ThreadRegistryEvent } from './thread-manager-options.js';
import type { Config } from '@skein/config';
import { newThreadId, randomUuidV7, ThreadId, type UuidV7Source } from '@skein/protocol';
import { capabilityRootRecord, type ForkPoint, type GitInfo, type LoadedThread, type ThreadWriter, type ThreadListQuery, type ThreadPage } from '@skein/rollout';
import { RolloutBudgetLedgers } from './budgets/rollout-budget-ledger.js';
import { ExtensionHost } from './extensions/extension-host.js';
import { CHECKPOINT_STORE_ID, type CheckpointStore } from './checkpoints/thread-checkpoints.js';
import { ThreadExtensionState } from './extensions/thread-extension-state.js';
import { ResponsesClient } from './model-client/responses-client.js';
import { RolloutThreadRecorder } from './persistence/rollout-recorder.js';
import { baseInstructionsFor, ThreadSession, type SelectedEnvironment } from './session/thread-session.js';
import { firstSelected, withPrimaryWorkspaceRoots } from './session/thread-environment.js';
import { defaultWorkspaceRoots } from '@skein/sandboxing';
import { handleFor, type ThreadHandle } from './thread-handle.js';
import { combineTurnHooks } from './turn/turn-hooks.js';
import { discardingRecorder, namedRootsOf, recordedInit, recordedMultiAgentMode, subagentHeader, threadSourceField } from './thread-open.js';
import type { HistoryInitialization } from './model/turn-metadata.js';
import { AgentRegistry } from './agents/agent-registry.js';
import { recordedSpawn, subagentsInOrder } from './agents/agent-resume.js';
import { forkedTurns } from './agents/forked-turns.js';
import type { ChildThreadRequest } from './agents/agent-tree.js';
import { localWorkspaceReader } from './session/workspace-reader.js';
import { NO_TOKENS, breakdownFromRollout } from './session/thread-token-usage.js';

/** The most sub-agents a resumed root brings back (one page of the index). */
const MAX_SUBAGENTS_RESUMED = 500;

/** The real clock, for hosts that do not inject one. */
// eslint-disable-next-line no-restricted-syntax, no-restricted-properties -- the one place core reads the system clock
const systemClock = { now: () => new Date(), monotonicMs: () => performance.now() };

/** The threads of one host process and home directory. */
export class ThreadManager {
  readonly #options: ThreadManagerOptions;
  /** One model client per provider, shared by every thread that uses it. */
  readonly #clients = new Map<string, ResponsesClient>();
  readonly #uuid: UuidV7Source;
  readonly #live = new Map<string, ThreadHandle>();
  readonly #listeners = new Set<(event: ThreadRegistryEvent) => void>();
  /** The rollout budget's ledgers, one per session, for as long as this registry lives (not persisted). */
  readonly #rolloutLedgers = new RolloutBudgetLedgers();
  /** The sessions' agent trees (multi-agent v2). */
  readonly #agents: AgentRegistry;
  /** The git facts of each live thread's header (null: not a repository), which its sub-agents in the same cwd reuse. */
  readonly #gitFacts = new Map<string, GitInfo | null>();
  /** The environments each live thread was opened on: its sub-agents work on the same ones. */
  readonly #environments = new Map<string, SelectedEnvironment | readonly SelectedEnvironment[] | undefined>();

  constructor(options: ThreadManagerOptions) {
    this.#options = options;
    this.#uuid = options.uuid ?? randomUuidV7;
    const clock = options.clock ?? systemClock;
    this.#agents = new AgentRegistry({ openChild: (child, sessionId) => this.#startChild(child, sessionId), now: () => clock.now().getTime(), uuid: this.#uuid });
  }

  /** The live threads, oldest first. */
  loaded(): readonly ThreadHandle[] {
    return [...this.#live.values()];
  }

  /** A live thread, if it is loaded. */
  get(threadId: string): ThreadHandle | undefined {
    return this.#live.get(threadId);
  }

  /** Tells `listener` when a thread is created, loaded or closed; returns the unsubscribe. */
  onThreadEvent(listener: (event: ThreadRegistryEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Closes every live thread (host shutdown). */
  async closeAll(): Promise<void> {
    await Promise.all(this.loaded().map((handle) => handle.close()));
  }

  /** Starts a new thread with a fresh rollout file (none when `ephemeral`). */
  start(options: StartThreadOptions): Promise<ThreadHandle> {
    return this.#start(options, undefined);
  }

  /** Opens a sub-agent's thread: the parent's settings (its model and effort unless the spawn names others), the root's session. */
  async #startChild(child: ChildThreadRequest, sessionId: string): Promise<ThreadHandle> {
    const parent = this.#live.get(child.parent.threadId);
    if (parent === undefined) throw new Error(`the parent thread ${child.parent.threadId} is not loaded`);
    const model = child.request.model ?? parent.config.agents.defaultSubagentModel ?? parent.config.model;
    const config: Config = { ...parent.config, model, modelReasoningEffort: child.request.reasoningEffort ?? parent.config.modelReasoningEffort };
    // Named before it opens, so the host can tell whose the events of its opening are.
    const threadId = newThreadId(this.#uuid);
    const handle = await this.#start(
      {
        config,
        sessionId,
        onEvent: (event) => this.#options.onSubagentEvent?.(threadId, event),
        clientRequests: this.#options.subagentClientRequests?.(threadId, child.parent.threadId, { path: child.path, depth: child.depth }),
        // The parent's attached environments (null: it had none), so the sub-agent works where its parent does.
        environment: this.#environments.get(child.parent.threadId) ?? null,
        ephemeral: parent.ephemeral,
      },
      child,
      threadId,
    );
    // fork_turns "all": the parent's finished turns, recorded in the sub-agent's own history before its task.
    if (child.request.forkTurns === 'all') await handle.injectItems(forkedTurns(parent.history(), child.parent.turnId));
    return handle;
  }

  async #start(options: StartThreadOptions, child: ChildThreadRequest | undefined, threadId: ThreadId = newThreadId(this.#uuid)): Promise<ThreadHandle> {
    const config = this.#configFor(options);
    if (options.ephemeral === true) return this.#open(threadId, undefined, undefined, options, 'created', child, 'new');
    const roots = options.init?.selectedCapabilityRoots ?? [];
    // Before the file exists: a root whose path has no file: URI refuses the start, leaving nothing behind.
    const recordedRoots = roots.map(capabilityRootRecord);
    // A sub-agent in its parent's cwd takes the parent's git facts: spawning git again would cost most of a spawn.
    const parentGit = child !== undefined && this.#live.get(child.parent.threadId)?.config.cwd === config.cwd ? this.#gitFacts.get(child.parent.threadId) : undefined;
    const writer = await this.#options.store.createThread({
      threadId,
      ...(parentGit === undefined ? {} : { gitKnown: true }),
      meta: {
        ...(parentGit === undefined || parentGit === null ? {} : { git: parentGit }),
        cwd: config.cwd,
        runtime_workspace_roots: [...(options.workspaceRoots ?? firstSelected(options.environment ?? this.#options.environment)?.workspaceRoots ?? defaultWorkspaceRoots(config, config.cwd))],
        originator: options.originator ?? this.#options.originator,
        cli_version: this.#options.cliVersion,
        source: this.#options.source,
        ...threadSourceField(child === undefined ? (options.threadSource ?? this.#options.threadSource) : 'subagent'),
        ...(options.sessionId === undefined ? {} : { session_id: options.sessionId }),
        model_provider: config.modelProviderId,
        history_mode: 'paginated',
        // As Codex: the instructions live in the header, and a resumed thread keeps them.
        base_instructions: { text: baseInstructionsFor(config, undefined) },
        // Codex's header field, in Codex's form, so either runtime resumes the thread with its roots.
        ...(recordedRoots.length === 0 ? {} : { selected_capability_roots: recordedRoots }),
        // A sub-agent's place in its tree (its source replaces the host's).
        ...(child === undefined ? {} : subagentHeader(child, threadId)),
      },
    });
    try {
      return await this.#open(ThreadId.parse(writer.threadId), writer, undefined, options, 'created', child, 'new');
    } catch (error) {
      await writer.close();
      throw error;
    }
  }

  /** Loads a thread and continues its file; the next turn sends only what changed since its last turn. */
  async resume(threadId: string, options: OpenThreadOptions): Promise<ThreadHandle> {
    return this.#resume(threadId, options, 'loaded', 'cold_resume');
  }

  /** `optionsFor` may depend on what the file holds (a sub-agent's place, for its host). */
  async #resume(
    threadId: string,
    optionsFor: OpenThreadOptions | ((loaded: LoadedThread) => OpenThreadOptions),
    announce: ThreadRegistryEvent['type'],
    history: HistoryInitialization,
  ): Promise<ThreadHandle> {
    const live = this.#live.get(threadId);
    if (live !== undefined) throw new ThreadManagerError('AlreadyLoaded', `thread ${threadId} is already loaded in this process`);
    // One read of the file, under its writer lock: no other writer can append between reading and continuing it.
    const { writer, loaded } = await this.#options.store.openForResume(threadId);
    const options = typeof optionsFor === 'function' ? optionsFor(loaded) : optionsFor;
    let handle: ThreadHandle;
    // A sub-agent resumed alone keeps its session and path (its header records them).
    const child = this.#agents.rejoin(loaded, this.#configFor(options));
    try {
      handle = await this.#open(ThreadId.parse(writer.threadId), writer, loaded, options, announce, child, history);
    } catch (error) {
      await writer.close();
      throw error;
    }
    if (child !== undefined) this.#agents.tree(handle.sessionId)?.attach(handle.threadId, handle);
    else if (handle.sessionId === handle.threadId && this.#agents.tree(handle.sessionId) !== undefined) await this.#resumeSubagents(handle, options);
    return handle;
  }

  /** A resumed root brings back the sub-agents of its session (the index's edges), parents first. */
  async #resumeSubagents(root: ThreadHandle, options: OpenThreadOptions): Promise<void> {
    const page = await this.#options.store.list({ sessionId: root.sessionId, source: 'subagent', limit: MAX_SUBAGENTS_RESUMED });
    for (const summary of subagentsInOrder(page.data)) {
      if (this.#live.has(summary.id)) continue;
      const parentId = summary.parentThreadId ?? root.threadId;
      try {
        await this.#resume(
          summary.id,
          (loaded) => {
            const spawn = recordedSpawn(loaded.meta);
            return {
              config: root.config,
              onEvent: (event) => this.#options.onSubagentEvent?.(summary.id, event),
              clientRequests: spawn === undefined ? undefined : this.#options.subagentClientRequests?.(summary.id, parentId, spawn),
              environment: this.#environments.get(parentId) ?? null,
            };
          },
          'loaded',
          'cold_resume',
        );
      } catch (error) {
        options.onEvent({ type: 'warning', message: `the sub-agent thread ${summary.id} could not be resumed: ${error instanceof Error ? error.message : String(error)}` });
      }
    }
  }

  /** Copies a thread (whole, or up to a turn) into a new one and loads the copy. */
  async fork(threadId: string, options: OpenThreadOptions & { readonly upTo?: ForkPoint }): Promise<ThreadHandle> {
    // Codex's names: a fork of a thread this process has loaded is warm, of one only on disk cold.
    const history = this.#live.has(threadId) ? 'warm_fork' : 'cold_fork';
    const fork = await this.#options.store.forkThread(threadId, {
      threadId: newThreadId(this.#uuid),
      ...(options.upTo === undefined ? {} : { upTo: options.upTo }),
    });
    return this.#resume(fork.id, options, 'created', history);
  }

  #configFor(options: OpenThreadOptions): Config {
    const config = options.config ?? this.#options.config;
    if (config === undefined) throw new ThreadManagerError('NoConfig', 'this thread manager has no default settings; pass the thread its config');
    return config;
  }

  /** The shared model client of a thread's provider. */
  #clientFor(config: Config): ResponsesClient {
    // Threads share a client only when everything about the provider is the same (headers, key variable, retries).
    const key = JSON.stringify(config.modelProvider);
    let client = this.#clients.get(key);
    if (client === undefined) {
      client = new ResponsesClient({ provider: config.modelProvider, env: this.#options.env, savedApiKey: this.#options.savedApiKey, ...(this.#options.post === undefined ? {} : { post: this.#options.post }) });
      this.#clients.set(key, client);
    }
    return client;
  }

  /** Threads, newest first. */
  list(query: ThreadListQuery = {}): Promise<ThreadPage> {
    return this.#options.store.list(query);
  }

  /** A thread's reconstruction, without loading it. */
  read(threadId: string): Promise<LoadedThread> {
    return this.#options.store.loadThread(threadId);
  }

  /** `writer` is undefined for an ephemeral thread, which records nowhere. */
  async #open(
    threadId: ThreadId,
    writer: ThreadWriter | undefined,
    loaded: LoadedThread | undefined,
    options: OpenThreadOptions & Pick<StartThreadOptions, 'init' | 'sessionId' | 'threadSource'>,
    announce: ThreadRegistryEvent['type'],
    child: ChildThreadRequest | undefined,
    historyInitialization: HistoryInitialization,
  ): Promise<ThreadHandle> {
    const config = this.#configFor(options);
    const originator = options.originator ?? this.#options.originator;
    const chosen = options.environment === null ? undefined : (options.environment ?? this.#options.environment);
    const roots = options.workspaceRoots ?? (loaded === undefined ? undefined : namedRootsOf(loaded, config));
    const environment = chosen === undefined ? undefined : withPrimaryWorkspaceRoots(chosen, roots);
    this.#environments.set(threadId, environment);
    if (writer !== undefined) this.#gitFacts.set(threadId, writer.meta.git ?? null);
    const rollout = writer === undefined ? undefined : new RolloutThreadRecorder(writer);
    const sessionId = loaded?.meta.session_id ?? options.sessionId ?? threadId;
    const recorder = rollout ?? discardingRecorder;
    const warn = (message: string) => options.onEvent({ type: 'warning', message });
    // Thread state set from here on (hooks included) is recorded; what the file holds is restored below, unrecorded.
    const threadState = new ThreadExtensionState((change) => recorder.recordExtensionState(change));
    const init = loaded === undefined ? { selectedCapabilityRoots: options.init?.selectedCapabilityRoots ?? [] } : recordedInit(loaded, warn);
    const extensions = new ExtensionHost(options.extensions ?? this.#options.extensions, warn, undefined, { state: threadState, init });
    const agent = this.#agents.join({ threadId, sessionId, config, child });
    const session = new ThreadSession({
      threadId,
      config,
      client: this.#clientFor(config),
      reader: this.#options.reader ?? localWorkspaceReader,
      recorder,
      extensions,
      host: this.#options.host,
      clock: this.#options.clock ?? systemClock,
      onEvent: options.onEvent,
      clientRequests: options.clientRequests,
      uuid: this.#uuid,
      sessionId,
      rolloutLedger: this.#rolloutLedgers.ledgerOf(sessionId),
      ...(loaded?.meta.base_instructions?.text === undefined ? {} : { baseInstructions: loaded.meta.base_instructions.text }),
      originator,
      userAgent: options.userAgent ?? this.#options.userAgent ?? `${originator}/${this.#options.cliVersion}`,
      threadSource: loaded === undefined ? (child === undefined ? (options.threadSource ?? this.#options.threadSource) : 'subagent') : (loaded.meta.thread_source ?? undefined),
      installationId: this.#options.installationId,
      historyInitialization,
      clientTurnTrigger: this.#options.clientTurnTrigger,
      ...(environment === undefined ? {} : { environment }),
      hooks: combineTurnHooks(this.#options.turnHooks?.({ threadId }) ?? {}, agent?.hooks ?? {}),
      agent: agent?.place,
      agentRole: agent?.role,
      onInterrupt: agent?.onInterrupt,
      collaboration: agent?.collaboration,
      mcpEnv: this.#options.env,
      continueGoals: this.#options.continueGoals,
      checkpointStore: checkpointStoreOf(threadState),
      recordedTurns: writer === undefined ? undefined : async () => (await this.#options.store.loadThread(threadId)).turns,
      lifecycleHooks: {
        transcriptPath: writer?.path ?? null,
        contributed: (options.extensions ?? this.#options.extensions).hooks,
        env: this.#options.env ?? {},
        bypassTrust: this.#options.bypassHookTrust === true,
        // A sub-agent's hooks are told who it is; Skein's spawns name no role, which Codex calls `default`.
        subagent: child === undefined ? undefined : { agentId: threadId, agentType: 'default', parentTranscriptPath: this.#live.get(child.parent.threadId)?.path ?? null },
      },
    });
    // What the file holds goes back into the session: on resume, and again after a revert dropped turns.
    const restoreFromFile = (from: LoadedThread) => {
      extensions.restoreWorldState(from.worldState);
      threadState.replaceAll(from.extensionState);
      if (from.goal !== undefined && from.goal !== null) session.goals.restore(from.goal);
      const baseline = from.needsInitialContext ? undefined : from.referenceTurnContext;
      session.restore(
        from.history,
        baseline === undefined
          ? undefined
          : {
              cwd: baseline.cwd,
              approvalPolicy: baseline.approval_policy ?? undefined,
              sandboxPolicy: baseline.sandbox_policy,
              currentDate: baseline.current_date ?? undefined,
              timezone: baseline.timezone ?? undefined,
              workspaceRoots: baseline.runtime_workspace_roots ?? undefined,
              multiAgentMode: recordedMultiAgentMode(baseline),
            },
        from.tokenCount === undefined ? NO_TOKENS : breakdownFromRollout(from.tokenCount.total_token_usage),
        {
          window: restoredContextWindow(threadId, from.window, this.#uuid),
          ...(from.tokenCount === undefined ? {} : { lastTokenUsage: breakdownFromRollout(from.tokenCount.last_token_usage) }),
        },
      );
    };
    if (loaded !== undefined && writer !== undefined) {
      restoreFromFile(loaded);
      await extensions.lifecycle('onThreadResume', threadId, config.cwd);
    } else {
      await extensions.lifecycle('onThreadStart', threadId, config.cwd);
    }
    // An ephemeral thread has no file; the event's path is empty until the event type allows none.
    options.onEvent({ type: 'sessionConfigured', threadId, model: config.model, cwd: config.cwd, rolloutPath: writer?.path ?? '', resumed: loaded !== undefined });
    // Closing twice (a signal handler and a finally block, say) closes once.
    let closing: Promise<void> | undefined;
    const reload = writer === undefined ? undefined : async () => restoreFromFile(await this.#options.store.loadThread(threadId));
    const handle = handleFor(session, { path: writer?.path ?? undefined, ephemeral: writer === undefined }, reload, () =>
      (closing ??= (async () => {
        try {
          await this.#agents.closed(threadId);
          await session.close();
          await extensions.lifecycle('onThreadStop', threadId, config.cwd);
          await rollout?.close();
        } finally {
          this.#live.delete(threadId);
          this.#environments.delete(threadId);
          this.#gitFacts.delete(threadId);
          this.#announce({ type: 'closed', threadId });
        }
      })()),
    );
    this.#live.set(threadId, handle);
    this.#announce({ type: announce, threadId });
    return handle;
  }

  #announce(event: ThreadRegistryEvent): void {
    for (const listener of this.#listeners) listener(event);
  }
}

/** The thread's durable store for checkpoint records: a store of its own among the extensions'. */
function checkpointStoreOf(state: ThreadExtensionState): CheckpointStore {
  return { ...state.storeFor(CHECKPOINT_STORE_ID), keys: () => state.keysOf(CHECKPOINT_STORE_ID) };
}
