// One loaded thread: its history, settings and extensions, running one turn at a time. It wires the
// parts that each own one job — context assembly, the tool plan, the environment, token accounting,
// the turn runner and its hooks — and answers interrupt and steer for the running turn.
import type { HookCatalog } from '@skein/hooks';
import type { Config } from '@skein/config';
import type { ToolEnvironment } from '@skein/extension-api';
import { newTurnId, randomUuidV7, type ResponseItem, type UserInput, type UuidV7Source } from '@skein/protocol';
import { ThreadBudgets } from '../budgets/thread-budgets.js';
import type { ContextWindow } from '../compaction/context-window.js';
import { DEFAULT_TOOL_OUTPUT_TOKEN_LIMIT, ThreadHistory } from '../history/thread-history.js';
import { effectiveContextWindow, findModelInfo, type ModelInfo } from '../model/model-catalog.js';
import type { CompactionTrigger, TurnRequestMetadata } from '../model/turn-metadata.js';
import { TurnToolCalls, type BindApprovals } from '../tools/turn-tool-calls.js';
import type { UnifiedExecEvent } from '../tools/unified-exec/unified-exec-sessions.js';
import type { CoreEvent } from '../turn/core-event.js';
import { runTurn, type TurnOutcome } from '../turn/run-turn.js';
import { TurnItems } from '../turn/turn-items.js';
import { combineTurnHooks } from '../turn/turn-hooks.js';
import { withApprovalItems } from './approval-items.js';
import type { ClientRequests } from './client-requests.js';
import { commandEvent } from './command-events.js';
import { threadApprovals } from './thread-approvals.js';
import { commandEnvironment, EnvironmentState } from './thread-environment.js';
import { captureCommand, type CaptureCommandOptions, type CommandCapture } from './command-capture.js';
import { TurnEnvironments } from './turn-environments.js';
import { ENVIRONMENTS_INSTRUCTIONS } from '../context/environments-instructions.js';
import { NO_TOKENS, type TokenUsageBreakdown } from './thread-token-usage.js';
import { ThreadTools } from './thread-tools.js';
import { TurnClaim } from './turn-claim.js';
import type { ThreadMcp } from '../mcp/thread-mcp.js';
import { GoalWork } from '../goals/goal-work.js';
import type { ThreadGoals } from '../goals/thread-goals.js';
import { ThreadCompaction, type CompactionRun } from './thread-compaction.js';
import { TokenAccounting, type TokenUsageReport } from './token-accounting.js';
import { ThreadUserShell } from './thread-user-shell.js';
import { ThreadSessionError, type ActiveTurn, type TurnSlot } from './active-turn.js';
import { InjectedItems } from './injected-items.js';
import { turnLifecycleHooks } from './hook-turn-events.js';
import { openTurn } from './turn-opening.js';
import { threadEnvironmentHooks } from './environment-hooks.js';
import type { ThreadCheckpoints } from '../checkpoints/thread-checkpoints.js';
import { sessionCheckpoints } from './session-checkpoints.js';
import { revertThread, type RevertOptions, type RevertResult } from './thread-revert.js';
import { ThreadHooks } from './thread-hooks.js';
import { OfferedToolsRecord } from './offered-tools-record.js';
import { worldStateStep } from './world-state-step.js';
import { requestMetadata, sharedRequestFields, type RequestPlace } from './turn-requests.js';
import { TurnContextAssembly, type RecordedTurnSettings } from './turn-context-assembly.js';
import type { MultiAgentMode } from '../agents/agent-instructions.js';
import { USER_SHELL_UNAVAILABLE, type UserShellResult } from './user-shell-command.js';
import type { RunTurnOptions } from '../thread-handle.js';
import { userInputToItems } from './user-input-items.js';
import { KeptAnnouncements } from './kept-announcements.js';

export type { HostFacts, RecordedTurnSettings } from './turn-context-assembly.js';
export type { SelectedEnvironment, StartingEnvironment, ThreadEnvironment } from './thread-environment.js';
export { ThreadSessionError } from './active-turn.js';
export { baseInstructionsFor, type ThreadSessionOptions } from './thread-session-options.js';
import { baseInstructionsFor, type ThreadSessionOptions } from './thread-session-options.js';

/** A loaded thread. */
export class ThreadSession {
  readonly threadId: string;
  readonly history: ThreadHistory;
  readonly #options: ThreadSessionOptions;
  #config: Config;
  #model: ModelInfo;
  readonly #approvals: BindApprovals;
  /** Extension tools' questions to the client (`ToolContext.elicit`). */
  readonly #elicit: ClientRequests['requestMcpElicitation'];
  readonly #context: TurnContextAssembly;
  readonly #tools: ThreadTools;
  /**
   * Where the thread acts: its environment selection (`use` moves later turns; a running turn keeps
   * its own; sessions started elsewhere keep running until the thread ends) and its command sessions.
   */
  readonly environments: EnvironmentState;
  readonly #tokens: TokenAccounting;
  readonly #items: TurnItems;
  readonly #userShell: ThreadUserShell;
  readonly #checkpoints: ThreadCheckpoints;
  /** How the parts that run turns of their own (a compaction, a user's command) claim the thread. */
  readonly #slot: TurnSlot = {
    running: () => this.#turns.running,
    begin: () => this.#turns.begin(undefined),
    end: (turn) => this.#turns.end(turn),
    emit: (event) => this.#emit(event),
  };
  readonly #uuid: UuidV7Source;
  readonly #turns: TurnClaim;
  readonly #compaction: ThreadCompaction;
  readonly #budgets: ThreadBudgets;
  readonly #injected: InjectedItems;
  readonly #goalWork: GoalWork;
  #closed = false;
  /** The model the last turn ran with (unknown after a resume until a turn runs). */
  #lastTurnModel: ModelInfo | undefined;
  readonly #offeredTools: OfferedToolsRecord;
  /** The user's and the extensions' lifecycle hooks. */
  readonly #hooks: ThreadHooks;
  readonly #announcements: KeptAnnouncements;
  /** The delegation mode the client chose (a thread of an agent tree tells its model; sticky across turns and resume). */
  #multiAgentMode: MultiAgentMode = 'explicitRequestOnly';

  constructor(options: ThreadSessionOptions) {
    this.threadId = options.threadId;
    this.#options = options;
    this.#announcements = new KeptAnnouncements(options.recorder, (event) => options.onEvent(event));
    this.#config = options.config;
    this.#uuid = options.uuid ?? randomUuidV7;
    this.#turns = new TurnClaim(() => newTurnId(this.#uuid), () => this.environments.selection);
    this.#model = findModelInfo(options.config.model, { contextWindow: options.config.modelContextWindow });
    const emit = (event: CoreEvent) => this.#emit(event);
    this.#goalWork = new GoalWork({
      threadId: options.threadId,
      nowMs: () => options.clock.now().getTime(),
      emit,
      maxTokenBudget: () => this.#config.goals.maxTokenBudget,
      continueGoals: options.continueGoals === true,
      idle: () => this.#turns.running === undefined && !this.#closed,
      run: (items) => this.runTurn([], { inputItems: items, turnTrigger: 'goal' }),
      inject: (items) => void this.#injected.inject(items),
    });
    this.#items = new TurnItems(() => options.clock.now().getTime());
    this.#offeredTools = new OfferedToolsRecord(options.recorder);
    this.#hooks = ThreadHooks.forSession(options.lifecycleHooks, {
      sessionId: this.sessionId,
      emit,
      resumed: options.historyInitialization === 'cold_resume',
      mcpConnections: () => this.#tools.mcp.connections,
      environmentHooks: threadEnvironmentHooks(() => this.environments, () => this.#turns.running?.environments, options.clock.monotonicMs),
    });
    const clientRequests = options.clientRequests === undefined ? undefined : withApprovalItems(options.clientRequests, this.#items, (events) => events.forEach((event) => this.#announce(event)));
    this.environments = new EnvironmentState(options.environment, { monotonicMs: options.clock.monotonicMs, onCommandEvent: (event) => this.#onCommandEvent(event) });
    options.extensions.useEnvironments(() => this.environments.toolEnvironments(this.#config));
    this.#elicit = clientRequests?.requestMcpElicitation?.bind(clientRequests);
    this.#approvals = threadApprovals({
      client: clientRequests,
      config: () => this.#config,
      writeScope: (environmentId) => this.environments.writeScope(environmentId, this.#config, this.#turns.running?.environments),
      cancelTurn: () => this.#turns.running?.controller.abort(),
      warn: (message) => emit({ type: 'warning', message }),
      permissionHook: (call, signal) => this.#hooks.permissionRequest(call, signal),
    });
    this.#context = new TurnContextAssembly({ threadId: options.threadId, extensions: options.extensions, reader: options.reader, recorder: options.recorder, host: options.host, now: options.clock.now, lineage: (config, window) => this.#budgets.lineage(config, window),
      // A running turn is told of the selection it runs with.
      attachedEnvironments: (cwd, hostShell) => (this.#turns.running?.environments ?? this.environments.selection).described(cwd, (environment) => environment.shellName ?? hostShell),
      environmentsInstructions: (config) => (config.features.isEnabled('deferred_executor') ? ENVIRONMENTS_INSTRUCTIONS : undefined),
      agentsMdPlaces: (config) => this.environments.toolEnvironments(config, this.#turns.running?.environments).map((environment) => ({ environmentId: environment.id, fileSystem: environment.fileSystem, cwd: environment.cwd })),
      workspaceRoots: () => (this.#turns.running?.environments ?? this.environments.selection).namedPrimaryRoots,
      agent: options.agentRole === undefined ? undefined : { role: options.agentRole, mode: () => this.#multiAgentMode },
      deferredTools: () => this.#tools.deferredEntries(),
    });
    this.#tools = new ThreadTools({
      threadId: options.threadId,
      extensions: options.extensions,
      clientRequests,
      monotonicMs: options.clock.monotonicMs,
      emit,
      contextRemaining: () => this.#budgets.contextRemaining(),
      sessionsFor: (environment: ToolEnvironment) => this.environments.attachedSessions(environment.id, this.#config),
      waitForEnvironment: (environmentId, signal) => (this.#turns.running?.environments ?? this.environments.selection).waitFor(environmentId, signal),
      collaboration: options.collaboration?.({
        emit,
        now: () => options.clock.now().getTime(),
        settings: () => ({ model: this.#config.model, reasoningEffort: this.#config.modelReasoningEffort ?? findModelInfo(this.#config.model).defaultReasoningEffort }),
      }),
      mcpEnv: options.mcpEnv,
      now: () => options.clock.now().getTime(),
      config: () => this.#config,
      activeTurnId: () => this.#turns.running?.turnId,
      goalTools: this.#goalWork.tools,
      subAgent: options.agent?.parent !== undefined,
      inject: (items) => this.#injected.inject(items),
    });
    // The servers start now, in the background: the first turn does not wait for them.
    this.#tools.mcp.use(options.config);
    this.#tokens = new TokenAccounting(emit, () => effectiveContextWindow(this.#model));
    this.history = new ThreadHistory({ toolOutputTokenLimit: options.config.toolOutputTokenLimit ?? DEFAULT_TOOL_OUTPUT_TOKEN_LIMIT, uuid: this.#uuid, onRecorded: (items) => options.recorder.recordItems(items) });
    this.history.setInstructions(baseInstructionsFor(options.config, options.baseInstructions));
    this.#checkpoints = sessionCheckpoints({
      threadId: options.threadId,
      store: options.checkpointStore,
      nowMs: () => options.clock.now().getTime(),
      monotonicMs: options.clock.monotonicMs,
      config: () => this.#config,
      environments: this.environments,
      running: () => this.#turns.running?.environments,
      warn: (message) => emit({ type: 'warning', message }),
    });
    this.#userShell = new ThreadUserShell({
      environments: this.environments,
      config: () => this.#config,
      history: this.history,
      recorder: options.recorder,
      monotonicMs: options.clock.monotonicMs,
      slot: this.#slot,
    });
    this.#compaction = new ThreadCompaction({
      threadId: options.threadId,
      client: options.client,
      uuid: this.#uuid,
      history: this.history,
      tokens: this.#tokens,
      context: this.#context,
      recorder: options.recorder,
      extensions: options.extensions,
      emit,
      requestFields: (config, clientMetadata) => sharedRequestFields(config, this.threadId, clientMetadata),
      chargeUsage: (usage) => this.#budgets.chargeCompaction(usage),
    });
    this.#injected = new InjectedItems({ history: this.history, context: this.#context, running: () => this.#turns.running !== undefined, opening: () => this.#context.openingContext(this.#config, this.#model, newTurnId(this.#uuid)) });
    this.#budgets = new ThreadBudgets({
      threadId: options.threadId,
      config: () => this.#config,
      model: () => this.#model,
      now: options.clock.now,
      window: () => this.#compaction.window,
      windowTokens: () => this.#tokens.windowTokens,
      history: () => this.history.forPrompt(),
      recorded: () => this.history.items,
      rolloutLedger: options.rolloutLedger,
    });
  }

  /** The root thread of this thread's tree (its own id for a root thread). */
  get sessionId(): string {
    return this.#options.sessionId ?? this.threadId;
  }

  /** The settings turns run with now. */
  get config(): Config {
    return this.#config;
  }

  /** The id of the running turn, if any. */
  get activeTurnId(): string | undefined {
    return this.#turns.running?.turnId;
  }

  /** The context window the thread is in (the next after each compaction; restored on resume). */
  get contextWindow(): ContextWindow {
    return this.#compaction.window;
  }

  /** Tokens used since the thread began (restored on resume). */
  get tokenUsage(): TokenUsageBreakdown {
    return this.#tokens.total;
  }

  /** The AGENTS.md files a context built now would hold. */
  async instructionSources(): Promise<readonly string[]> {
    return (await this.#context.instructions(this.#config)).sources;
  }

  /** The total, the last response's usage and the model's window, as a resuming client is told them. */
  get tokenReport(): TokenUsageReport {
    return this.#tokens.report;
  }

  /**
   * Changes the settings later turns run with (a client's turn overrides: cwd, model, approval
   * policy, sandbox). The model is told what changed at the start of the next turn.
   */
  reconfigure(config: Config): void {
    this.#config = config;
    this.#model = findModelInfo(config.model, { contextWindow: config.modelContextWindow });
  }

  /** The delegation mode later turns run with. */
  get multiAgentMode(): MultiAgentMode {
    return this.#multiAgentMode;
  }

  /** Chooses the delegation mode; the model is told at the next turn when it changed. */
  setMultiAgentMode(mode: MultiAgentMode): void {
    this.#multiAgentMode = mode;
  }

  /** Names the thread (recorded, so lists and resumes show it). */
  rename(name: string | null): void {
    this.#emit({ type: 'threadNameUpdated', threadId: this.threadId, name });
  }

  /** Runs one user turn to its end. Refuses while another turn runs. */
  runTurn(input: readonly UserInput[], options: RunTurnOptions = {}): Promise<TurnOutcome> {
    return this.#announced(this.#runTurn(input, options));
  }

  async #runTurn(input: readonly UserInput[], options: RunTurnOptions): Promise<TurnOutcome> {
    if (options.turnTrigger === undefined) await this.#turns.yieldGoalTurn();
    const active = this.#turns.begin(options.turnId, options.turnTrigger);
    const { turnId } = active;
    const { userMessage } = options;
    const config = this.#config;
    const model = this.#model;
    const checkpoints = this.#checkpoints.forTurn(turnId);
    try {
      this.#options.extensions.beginTurn(turnId);
      const environments = new TurnEnvironments(active.environments, this.environments, config, (turnConfig) => this.#context.environmentUpdate(turnConfig));
      const { selection } = environments;
      const router = await this.#tools.router(config, model, selection.usable, selection.ids.length > 1);
      const hookRunner = await this.#hooks.forTurn(config, model.slug);
      const lifecycle = turnLifecycleHooks(hookRunner, { threadId: this.threadId, turnId, signal: active.controller.signal }, (message) => this.#emit({ type: 'warning', message }));
      if (lifecycle.screenSteered !== undefined) active.steered.screenWith(lifecycle.screenSteered);
      const turnStartedAtMs = this.#options.clock.now().getTime();
      // Read before each request: a compaction moves the turn to the next window.
      const metadata = (compaction?: CompactionTrigger) => this.#requestMetadata({ turnId, config, model, compaction, turnStartedAtMs, extraClientMetadata: options.clientMetadata, turnTrigger: options.turnTrigger });
      const emit = (event: CoreEvent) => this.#emit(event);
      const signal = active.controller.signal;
      const compaction = (phase: 'pre_turn' | 'mid_turn', compactingModel: ModelInfo = model): CompactionRun => ({ turnId, signal, config, model: compactingModel, phase, metadata: () => metadata({ trigger: 'auto', phase }), hooks: () => Promise.resolve(hookRunner) });
      const outcome = await runTurn(
        {
          client: this.#options.client,
          history: this.history,
          router,
          calls: new TurnToolCalls({ router, ...environments.callOptions, approvals: this.#approvals, emit, newCallId: () => `call_${this.#uuid()}`, hooks: lifecycle.toolCalls, beforeWrite: (environmentId) => checkpoints.beforeWrite(environmentId), elicit: this.#elicit }),
          model,
          request: {
            ...sharedRequestFields(config, this.threadId, metadata().clientMetadata),
            ...(options.outputSchema === undefined ? {} : { outputSchema: options.outputSchema }),
            ...(options.serviceTier === undefined ? {} : { serviceTier: options.serviceTier }),
          },
          emit,
          now: this.#options.clock.monotonicMs,
          written: () => this.#options.recorder.written(),
          beforeEnd: () => checkpoints.finish(),
          onOffered: (item) => this.#offeredTools.record(item),
          // Before sampling: compaction when a response filled the window, the budgets' reminders,
          // the thread's hooks, then steered input, just before the request. After a response:
          // token accounting first, so budgets and compaction see its usage.
          hooks: combineTurnHooks(
            {
              afterResponse: [this.#tokens],
              beforeSampling: [this.#compaction.midTurnHook(compaction('mid_turn')), environments, worldStateStep({ extensions: this.#options.extensions, recorder: this.#options.recorder, threadId: this.threadId, cwd: config.cwd })],
            },
            this.#budgets.hooks,
            this.#options.hooks ?? {},
            { beforeSampling: [this.#injected, active.steered], responseGates: [this.#goalWork.accounting] },
            lifecycle.turnHooks,
          ),
        },
        {
          turnId,
          // A compaction due before the turn runs before its context and input are recorded, so the
          // new prompt follows the summary.
          open: () =>
            openTurn(
              { turnId, signal, input, inputItems: options.inputItems },
              {
                hooks: hookRunner,
                opening: this.#hooks.takeOpening(),
                onPromptAccepted: options.onPromptAccepted,
                compactIfDue: async () => {
                  // The window is measured against this turn's model (a switch to a smaller one can
                  // make a compaction due); the model that held the history writes the summary.
                  if (this.#compaction.isDue(config, model)) await this.#compaction.compact(compaction('pre_turn', this.#lastTurnModel ?? model));
                  this.#lastTurnModel = model;
                },
                assemble: () => this.#context.assemble(config, model, turnId, input),
                recordOffered: () => this.#offeredTools.record(router.additionalTools),
                recordUserMessage: userMessage === undefined ? undefined : () => this.#options.recorder.recordUserMessage(turnId, userMessage, input),
              },
            ),
          signal,
          requestMetadata: () => metadata(),
        },
      );
      await this.#finishTurn(active);
      await this.#options.recorder.flush();
      this.#goalWork.afterTurn(outcome);
      return outcome;
    } finally {
      await checkpoints.finish();
      await this.#finishTurn(active);
    }
  }

  /**
   * Compacts the history now, as a turn of its own (`thread/compact/start`): the model summarises
   * the window and the thread continues in the next one. Runs whether or not automatic compaction
   * is enabled. Refuses while another turn runs.
   */
  compact(): Promise<TurnOutcome> {
    const config = this.#config;
    const model = this.#model;
    const turnStartedAtMs = this.#options.clock.now().getTime();
    const compaction: CompactionTrigger = { trigger: 'manual', phase: 'standalone_turn' };
    return this.#announced(this.#compaction.runAsTurn(this.#slot, ({ turnId, controller }) => ({
      turnId,
      signal: controller.signal,
      config,
      model,
      phase: 'standalone_turn',
      metadata: () => this.#requestMetadata({ turnId, config, model, compaction, turnStartedAtMs, extraClientMetadata: undefined }),
      hooks: () => this.#hooks.forTurn(config, model.slug),
    })));
  }

  /** The headers and client metadata of one request, in the thread's current window. */
  #requestMetadata(place: Omit<RequestPlace, 'window'>): TurnRequestMetadata {
    const { installationId, historyInitialization, threadSource, clientTurnTrigger, originator, userAgent, agent } = this.#options;
    const sender = { installationId, sessionId: this.sessionId, threadId: this.threadId, historyInitialization, threadSource, clientTurnTrigger, originator, userAgent, agent };
    return requestMetadata(sender, { ...place, window: this.#compaction.window });
  }

  /**
   * Ends a model turn (again, harmlessly, once ended): input steered in that no request carried is
   * kept for the next turn, past the same UserPromptSubmit hooks, then the thread is free.
   */
  async #finishTurn(active: ActiveTurn): Promise<void> {
    const leftover = await active.steered.closeScreened();
    if (leftover.length > 0) this.history.record(leftover, active.turnId);
    this.#injected.recordWaiting();
    this.#turns.end(active);
  }

  /**
   * Continues a thread from its recorded history (resume, fork). `baseline` is what its last turn
   * ran with (the rollout's reference turn context): the next turn tells the model only what differs
   * from it. Without a baseline (none recorded, or a compaction replaced the history it described),
   * the next turn sends the full initial context again.
   */
  restore(
    items: readonly ResponseItem[],
    baseline: RecordedTurnSettings | undefined,
    tokenUsage: TokenUsageBreakdown = NO_TOKENS,
    recorded: { readonly window?: ContextWindow; readonly lastTokenUsage?: TokenUsageBreakdown } = {},
  ): void {
    this.history.replace(items);
    if (baseline?.multiAgentMode !== undefined) this.#multiAgentMode = baseline.multiAgentMode;
    this.#tokens.restore(tokenUsage, recorded.lastTokenUsage);
    this.#compaction.restore(recorded.window);
    this.#budgets.restore();
    this.#context.restore(this.#config, items.length > 0, baseline);
  }

  /** Appends a client's items to the model-visible history (`thread/inject_items`); see InjectedItems. */
  injectItems(items: readonly ResponseItem[]): Promise<void> {
    return this.#injected.inject(items);
  }

  /** Interrupts the running turn; it ends as `interrupted` once in-flight work stops. */
  interrupt(): void {
    if (!this.#turns.interrupt()) throw new ThreadSessionError('NoActiveTurn', 'no turn is running');
    this.#interrupted();
  }

  /** Interrupts the running turn, if there is one. */
  interruptIfRunning(): void {
    if (this.#turns.interrupt()) this.#interrupted();
  }

  /** After an interrupt: the agents this thread runs are told, and its code-mode cells end (as Codex's). */
  #interrupted(): void {
    this.#options.onInterrupt?.();
    void this.#tools.terminateCells();
  }

  /** Adds input to the running turn; the model sees it with its next request. */
  async steer(input: readonly UserInput[]): Promise<void> {
    const active = this.#turns.running;
    if (active === undefined) throw new ThreadSessionError('NoActiveTurn', 'no turn is running to steer');
    const items = await userInputToItems(input, this.#options.reader, this.#config.cwd, { localImageDetail: this.#model.supportsImageDetailOriginal ? 'original' : undefined });
    // The turn may have ended while the input was read; accepting it then would lose it.
    if (this.#turns.running !== active || !active.steered.push(...items)) throw new ThreadSessionError('NoActiveTurn', 'the turn ended before the input could be added');
  }

  /**
   * Runs a command the user typed (not the model) on the thread's environment, unconfined; see
   * ThreadUserShell.
   */
  runUserShellCommand(command: string, options: { readonly timeoutMs?: number | undefined } = {}): Promise<UserShellResult> {
    return this.#announced(this.#userShell.run(command, options));
  }

  /**
   * Runs `argv` once on the thread's primary environment — through that environment's own process
   * runner, in the thread's cwd, under its sandbox — for the host's own use (a review's diff): no
   * turn item, nothing the model sees. Refuses when the thread has no environment ready.
   */
  captureCommand(argv: readonly string[], options: CaptureCommandOptions = {}): Promise<CommandCapture> {
    const environment = this.environments.current;
    const tool = this.environments.toolEnvironment(this.#config);
    if (environment === undefined || tool === undefined) return Promise.reject(new ThreadSessionError('ShellUnavailable', USER_SHELL_UNAVAILABLE));
    const target = { processes: tool.processes, cwd: tool.cwd, sandbox: tool.sandbox, now: this.#options.clock.monotonicMs, ...commandEnvironment(environment, this.#config.shellEnvironmentPolicy) };
    return captureCommand(target, argv, options);
  }

  /**
   * Drops `beforeTurnId` and every later turn from the history and, where checkpoints were taken,
   * puts the files they changed back (see thread-revert.ts); `reload` puts the file's state back
   * into the session before another turn can start.
   */
  revert(beforeTurnId: string, options: RevertOptions = {}, reload?: () => Promise<void>): Promise<RevertResult> {
    return this.#announced(revertThread({ slot: this.#slot, recorder: this.#options.recorder, checkpoints: this.#checkpoints, recordedTurns: this.#options.recordedTurns, newCallId: () => `call_${this.#uuid()}`, reload }, beforeTurnId, options));
  }

  /** Deletes the thread's checkpoints on its attached environments (archive, delete). */
  pruneCheckpoints(): Promise<void> {
    return this.#checkpoints.prune();
  }

  /** Interrupts a running turn and waits for it to end, runs the SessionEnd hooks, then ends the thread's commands (every live exec session is killed). */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#turns.stop();
    try {
      await this.#hooks.sessionEnd(this.#config);
    } finally {
      await Promise.all([this.environments.closeAll(), this.#tools.close()]);
    }
  }

  /** The thread's configured hooks (`hooks/list {threadId}`). */
  listHooks(): Promise<HookCatalog> {
    return this.#hooks.catalog(this.#config);
  }

  /** The thread's MCP servers (statuses, direct calls, reads). */
  get mcp(): ThreadMcp {
    return this.#tools.mcp;
  }

  /** The thread's goal (create_goal, thread/goal/set). */
  get goals(): ThreadGoals {
    return this.#goalWork.goals;
  }

  /** Continues an active goal once the thread is idle (after a client set it, say). */
  continueGoal(): void {
    this.#goalWork.continue();
  }

  /** Restarts the MCP servers from `config`'s tables; a running turn keeps the set it has until it ends. */
  async reloadMcp(config: Config): Promise<void> {
    await this.#turns.running?.ended;
    this.#tools.mcp.use(config, true);
  }

  /** Settles as `work` does, once the events it announced reached the host (a turn's end waits for its record). */
  async #announced<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } finally {
      await this.#announcements.settled();
    }
  }

  /** Records and announces `event`, then the item events it leads to. */
  #emit(event: CoreEvent): void {
    this.#announce(event);
    for (const derived of this.#items.observe(event)) this.#announce(derived);
  }

  #announce(event: CoreEvent): void {
    this.#announcements.announce(event);
  }

  #onCommandEvent(event: UnifiedExecEvent): void {
    const userShellTurn = this.#userShell.turnOf(event.callId);
    const turnId = userShellTurn ?? this.#turns.running?.turnId ?? '';
    this.#emit(commandEvent(event, turnId, userShellTurn === undefined ? 'agent' : 'userShell'));
  }
}
