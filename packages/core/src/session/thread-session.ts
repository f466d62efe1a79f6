// One loaded thread: its history, settings and extensions, running one turn at a time. It wires the
// parts that each own one job — context assembly, the tool plan, the environment, token accounting,
// the turn runner and its hooks — and answers interrupt and steer for the running turn.
import type { Config } from '@skein/config';
import type { ToolEnvironment } from '@skein/extension-api';
import { PathUri, newTurnId, randomUuidV7, type ResponseItem, type UserInput, type UuidV7Source } from '@skein/protocol';
import { firstContextWindow, nextContextWindow, type ContextWindow } from '../compaction/context-window.js';
import { requestHandoffSummary } from '../compaction/compaction-request.js';
import { handoffSummaryText } from '../compaction/handoff-summary.js';
import { buildReplacementHistory } from '../compaction/replacement-history.js';
import { approximateTokens } from '../history/truncate-output.js';
import { ModelError } from '../model-client/model-error.js';
import { DEFAULT_BASE_INSTRUCTIONS } from '../context/base-instructions.js';
import type { ExtensionHost } from '../extensions/extension-host.js';
import { DEFAULT_TOOL_OUTPUT_TOKEN_LIMIT, ThreadHistory } from '../history/thread-history.js';
import type { ResponsesClient } from '../model-client/responses-client.js';
import { autoCompactTokenLimit, effectiveContextWindow, findModelInfo, type ModelInfo } from '../model/model-catalog.js';
import type { SamplingRequest } from '../model/responses-request.js';
import { turnRequestMetadata, type CompactionTrigger, type TurnRequestMetadata } from '../model/turn-metadata.js';
import { TurnToolCalls, type BindApprovals } from '../tools/turn-tool-calls.js';
import type { UnifiedExecEvent } from '../tools/unified-exec/unified-exec-sessions.js';
import type { CoreEvent } from '../turn/core-event.js';
import { runTurn, type TurnOutcome } from '../turn/run-turn.js';
import { SteeredInput } from '../turn/steered-input.js';
import { TurnItems } from '../turn/turn-items.js';
import { combineTurnHooks, type BeforeSamplingHook, type TurnHooks } from '../turn/turn-hooks.js';
import { withApprovalItems } from './approval-items.js';
import type { ClientRequests } from './client-requests.js';
import { commandEvent } from './command-events.js';
import { threadApprovals } from './thread-approvals.js';
import { EnvironmentState, environmentIdOf, type ThreadEnvironment } from './thread-environment.js';
import type { ThreadRecorder } from './thread-recorder.js';
import { NO_TOKENS, type TokenUsageBreakdown } from './thread-token-usage.js';
import { ThreadTools } from './thread-tools.js';
import { TokenAccounting } from './token-accounting.js';
import { TurnContextAssembly, type HostFacts, type RecordedTurnSettings } from './turn-context-assembly.js';
import { runUserShellCommand, USER_SHELL_UNAVAILABLE, userShellCommandMessage, type UserShellResult } from './user-shell-command.js';
import { userInputToItems } from './user-input-items.js';
import type { WorkspaceReader } from './workspace-reader.js';

export type { HostFacts, RecordedTurnSettings } from './turn-context-assembly.js';
export type { ThreadEnvironment } from './thread-environment.js';

/** The base instructions a thread runs with: the thread's own (its parameters, or its rollout on resume), else config's, else Skein's. */
export function baseInstructionsFor(config: Pick<Config, 'baseInstructions'>, threadInstructions: string | undefined): string {
  return threadInstructions ?? config.baseInstructions ?? DEFAULT_BASE_INSTRUCTIONS;
}

/** Capabilities a session runs with; all injected. */
export interface ThreadSessionOptions {
  readonly threadId: string;
  readonly config: Config;
  readonly client: ResponsesClient;
  readonly reader: WorkspaceReader;
  readonly recorder: ThreadRecorder;
  readonly extensions: ExtensionHost;
  readonly host: HostFacts;
  readonly clock: { readonly now: () => Date; readonly monotonicMs: () => number };
  readonly onEvent: (event: CoreEvent) => void;
  readonly uuid?: UuidV7Source;
  /** Replaces the base instructions (thread parameters); else config, else Skein's. */
  readonly baseInstructions?: string;
  /** The root thread of this thread's tree (its own id for a root thread). */
  readonly sessionId?: string;
  /** Names the client in request headers. */
  readonly originator?: string;
  readonly userAgent?: string;
  /** Who started the thread (`user`, `subagent`, …), sent in the turn metadata. */
  readonly threadSource?: string;
  /**
   * Where the thread's tools act. With one, the model is offered `exec_command`, `write_stdin` and
   * `apply_patch` (Codex's order), confined by the thread's sandbox settings.
   */
  /** Where tools act: one environment, or every attached one with the primary first. */
  readonly environment?: ThreadEnvironment | readonly ThreadEnvironment[];
  /** Asks the client for approvals and answers; without it every question is declined. */
  readonly clientRequests?: ClientRequests | undefined;
  /** Hooks every turn of this thread runs: before-sampling ones before steered input, after-response ones after token accounting. */
  readonly hooks?: Partial<TurnHooks> | undefined;
}

/** What one compaction runs with: the turn it belongs to and how its request identifies itself. */
interface CompactionRun {
  readonly turnId: string;
  readonly signal: AbortSignal;
  readonly config: Config;
  readonly model: ModelInfo;
  /** Between two samplings the current prompt keeps its place last, with the context before it (as Codex does). */
  readonly phase: CompactionTrigger['phase'];
  readonly metadata: () => TurnRequestMetadata;
}

/** Why a request to the session was refused. */
export class ThreadSessionError extends Error {
  override readonly name = 'ThreadSessionError';
  constructor(
    readonly code: 'TurnInProgress' | 'NoActiveTurn' | 'ShellUnavailable' | 'EmptyCommand' | 'Interrupted',
    message: string,
  ) {
    super(message);
  }
}

/** The running turn: its id, its interrupt, and the input steered into it. */
interface ActiveTurn {
  readonly turnId: string;
  readonly controller: AbortController;
  readonly steered: SteeredInput;
  /** Settles when the turn has ended (however it ended). */
  readonly ended: Promise<void>;
  readonly end: () => void;
}

/** A loaded thread. */
export class ThreadSession {
  readonly threadId: string;
  readonly history: ThreadHistory;
  readonly #options: ThreadSessionOptions;
  #config: Config;
  #model: ModelInfo;
  readonly #approvals: BindApprovals;
  readonly #context: TurnContextAssembly;
  readonly #tools: ThreadTools;
  readonly #environments: EnvironmentState;
  readonly #tokens: TokenAccounting;
  readonly #items: TurnItems;
  /** User shell commands in flight: their call id → the turn they belong to. */
  readonly #userShellCalls = new Map<string, string>();
  readonly #uuid: UuidV7Source;
  #active: ActiveTurn | undefined;
  #window: ContextWindow;
  /** The model the last turn ran with (unknown after a resume until a turn runs). */
  #lastTurnModel: ModelInfo | undefined;

  constructor(options: ThreadSessionOptions) {
    this.threadId = options.threadId;
    this.#options = options;
    this.#config = options.config;
    this.#uuid = options.uuid ?? randomUuidV7;
    this.#window = firstContextWindow(options.threadId);
    this.#model = findModelInfo(options.config.model, { contextWindow: options.config.modelContextWindow });
    const emit = (event: CoreEvent) => this.#emit(event);
    this.#items = new TurnItems(() => options.clock.now().getTime());
    const clientRequests = options.clientRequests === undefined ? undefined : withApprovalItems(options.clientRequests, this.#items, (events) => events.forEach((event) => this.#announce(event)));
    this.#environments = new EnvironmentState(options.environment, { monotonicMs: options.clock.monotonicMs, onCommandEvent: (event) => this.#onCommandEvent(event) });
    this.#approvals = threadApprovals({
      client: clientRequests,
      config: () => this.#config,
      hostEnv: () => this.#environments.current?.env ?? {},
      cancelTurn: () => this.#active?.controller.abort(),
      warn: (message) => emit({ type: 'warning', message }),
    });
    this.#context = new TurnContextAssembly({ threadId: options.threadId, extensions: options.extensions, reader: options.reader, recorder: options.recorder, host: options.host, now: options.clock.now, attachedEnvironments: (cwd) =>
        this.#environments.attached.map((environment, index) => ({ id: environmentIdOf(environment), cwd: index === 0 ? cwd : (environment.cwd ?? cwd), shell: environment.shellName })),
    });
    this.#tools = new ThreadTools({
      threadId: options.threadId,
      extensions: options.extensions,
      clientRequests,
      monotonicMs: options.clock.monotonicMs,
      emit,
      sessionsFor: (environment: ToolEnvironment) => {
        const sessions = this.#environments.sessionsFor(environment.id, this.#config);
        if (sessions === undefined) throw new Error(`environment '${environment.id}' is no longer the thread's`);
        return sessions;
      },
    });
    this.#tokens = new TokenAccounting(emit, () => effectiveContextWindow(this.#model));
    this.history = new ThreadHistory({ toolOutputTokenLimit: options.config.toolOutputTokenLimit ?? DEFAULT_TOOL_OUTPUT_TOKEN_LIMIT, uuid: this.#uuid, onRecorded: (items) => options.recorder.recordItems(items) });
    this.history.setInstructions(baseInstructionsFor(options.config, options.baseInstructions));
  }

  /** The root thread of this thread's tree (its own id for a root thread). */
  get sessionId(): string {
    return this.#options.sessionId ?? this.threadId;
  }

  /** Whether the thread has an environment to run commands on. */
  get hasEnvironment(): boolean {
    return this.#environments.current !== undefined;
  }

  /** The ids of the attached environments, the primary first. */
  get environmentIds(): readonly string[] {
    return this.#environments.attached.map(environmentIdOf);
  }

  /** The attached environments' cwds by id, native paths (the primary's is the thread's cwd). */
  environmentCwd(environmentId: string): string {
    const environments = this.#environments.attached;
    const environment = environments.find((candidate) => environmentIdOf(candidate) === environmentId);
    return environment === undefined || environment === environments[0] ? this.#config.cwd : (environment.cwd ?? this.#config.cwd);
  }

  /** The settings turns run with now. */
  get config(): Config {
    return this.#config;
  }

  /** The id of the running turn, if any. */
  get activeTurnId(): string | undefined {
    return this.#active?.turnId;
  }

  /** The context window the thread is in (the next after each compaction; restored on resume). */
  get contextWindow(): ContextWindow {
    return this.#window;
  }

  /** Tokens used since the thread began (restored on resume). */
  get tokenUsage(): TokenUsageBreakdown {
    return this.#tokens.total;
  }

  /**
   * Changes the settings later turns run with (a client's turn overrides: cwd, model, approval
   * policy, sandbox). The model is told what changed at the start of the next turn.
   */
  reconfigure(config: Config): void {
    this.#config = config;
    this.#model = findModelInfo(config.model, { contextWindow: config.modelContextWindow });
  }

  /**
   * Moves later turns to another environment (or to none: no built-in tools). Sessions started on
   * the old one keep running until the thread ends; approvals given there do not carry over.
   */
  useEnvironment(environment: ThreadEnvironment | readonly ThreadEnvironment[] | undefined): void {
    this.#environments.use(environment);
  }

  /** Names the thread (recorded, so lists and resumes show it). */
  rename(name: string | null): void {
    this.#emit({ type: 'threadNameUpdated', threadId: this.threadId, name });
  }

  /** Runs one user turn to its end. Refuses while another turn runs. */
  async runTurn(
    input: readonly UserInput[],
    options: {
      readonly outputSchema?: unknown;
      readonly clientMetadata?: Readonly<Record<string, string>>;
      /** The turn's id when the host named it in advance (to answer the client before the turn starts). */
      readonly turnId?: string;
    } = {},
  ): Promise<TurnOutcome> {
    const active = this.#begin(options.turnId);
    const { turnId } = active;
    const config = this.#config;
    const model = this.#model;
    try {
      this.#options.extensions.beginTurn(turnId);
      const environments = this.#environments.toolEnvironments(config);
      const environment = environments[0];
      const router = await this.#tools.router(config, model, environment !== undefined, environments.length > 1);
      const turnStartedAtMs = this.#options.clock.now().getTime();
      // Read before each request: a compaction moves the turn to the next window.
      const metadata = (compaction?: CompactionTrigger) => this.#requestMetadata({ turnId, config, model, compaction, turnStartedAtMs, extraClientMetadata: options.clientMetadata });
      const emit = (event: CoreEvent) => this.#emit(event);
      const signal = active.controller.signal;
      const compaction = (phase: 'pre_turn' | 'mid_turn', compactingModel: ModelInfo = model): CompactionRun => ({ turnId, signal, config, model: compactingModel, phase, metadata: () => metadata({ trigger: 'auto', phase }) });
      const outcome = await runTurn(
        {
          client: this.#options.client,
          history: this.history,
          router,
          calls: new TurnToolCalls({ router, environment, environments, approvals: this.#approvals, emit, newCallId: () => `call_${this.#uuid()}` }),
          model,
          request: { ...this.#requestFields(config, metadata().clientMetadata), ...(options.outputSchema === undefined ? {} : { outputSchema: options.outputSchema }) },
          emit,
          now: this.#options.clock.monotonicMs,
          // Before sampling: compaction when a response filled the window, the thread's hooks
          // (reminders, …), then steered input, just before the request. After a response: token
          // accounting first, so budgets and compaction see its usage.
          hooks: combineTurnHooks({ afterResponse: [this.#tokens], beforeSampling: [this.#midTurnCompaction(compaction('mid_turn'))] }, this.#options.hooks ?? {}, { beforeSampling: [active.steered] }),
        },
        {
          turnId,
          // A compaction due before the turn runs before its context and input are recorded, so the
          // new prompt follows the summary.
          open: async () => {
            // The window is measured against this turn's model (a switch to a smaller one can make a
            // compaction due); the model that held the history writes the summary.
            if (this.#autoCompactionDue(config, model)) await this.#compact(compaction('pre_turn', this.#lastTurnModel ?? model));
            this.#lastTurnModel = model;
            return this.#context.assemble(config, model, turnId, input);
          },
          signal,
          requestMetadata: () => metadata(),
        },
      );
      this.#finishTurn(active);
      await this.#options.recorder.flush();
      return outcome;
    } finally {
      this.#finishTurn(active);
    }
  }

  /**
   * Compacts the history now, as a turn of its own (`thread/compact/start`): the model summarises
   * the window and the thread continues in the next one. Runs whether or not automatic compaction
   * is enabled. Refuses while another turn runs.
   */
  async compact(): Promise<TurnOutcome> {
    const active = this.#begin(undefined);
    const { turnId } = active;
    const config = this.#config;
    const model = this.#model;
    const signal = active.controller.signal;
    const turnStartedAtMs = this.#options.clock.now().getTime();
    this.#emit({ type: 'turnStarted', turnId });
    try {
      const compaction: CompactionTrigger = { trigger: 'manual', phase: 'standalone_turn' };
      await this.#compact({ turnId, signal, config, model, phase: 'standalone_turn', metadata: () => this.#requestMetadata({ turnId, config, model, compaction, turnStartedAtMs, extraClientMetadata: undefined }) });
      await this.#options.recorder.flush();
      this.#emit({ type: 'turnCompleted', turnId, lastAgentMessage: undefined });
      return { status: 'completed', lastAgentMessage: undefined };
    } catch (error) {
      if (signal.aborted) {
        this.#emit({ type: 'turnAborted', turnId, reason: 'interrupted' });
        return { status: 'interrupted' };
      }
      if (!(error instanceof ModelError)) throw error;
      this.#emit({ type: 'turnFailed', turnId, error });
      return { status: 'failed', error };
    } finally {
      this.#end(active);
    }
  }

  /** Whether the last response's usage reached the auto-compaction limit (and the feature allows compacting). */
  #autoCompactionDue(config: Config, model: ModelInfo): boolean {
    if (!config.features.isEnabled('auto_compaction')) return false;
    return this.history.items.length > 0 && this.#tokens.windowTokens >= autoCompactTokenLimit(model, config.modelAutoCompactTokenLimit);
  }

  /** Compacts between two samplings of a turn when the response before pushed usage over the limit. */
  #midTurnCompaction(compaction: CompactionRun): BeforeSamplingHook {
    return {
      name: 'auto-compaction',
      beforeSampling: async (step) => {
        if (step.samplingIndex > 0 && this.#autoCompactionDue(compaction.config, compaction.model)) await this.#compact(compaction);
        return [];
      },
    };
  }

  /**
   * One compaction: the model's summary, then the replacement history, the next window and the
   * `compacted` record. A failed request changes nothing (the error is rethrown for the turn).
   */
  async #compact(run: CompactionRun): Promise<void> {
    const { turnId, config, model } = run;
    // Codex's compaction items are bare UUIDv7s.
    const itemId = this.#uuid();
    this.#emit({ type: 'compactionStarted', turnId, itemId });
    // The client first sees the usage that made the compaction due (as Codex reports it).
    this.#tokens.announce(turnId);
    try {
      const metadata = run.metadata();
      const { summary, usage } = await requestHandoffSummary({
        client: this.#options.client,
        model,
        request: this.#requestFields(config, metadata.clientMetadata),
        input: this.history.forPrompt(),
        headers: metadata.headers,
        signal: run.signal,
        uuid: this.#uuid,
        onRetry: (retry) => this.#emit({ type: 'streamRetrying', turnId, ...retry }),
      });
      const context = await this.#context.compactionContext(config, turnId);
      const replacement = buildReplacementHistory({
        context: context.items,
        contextPlacement: run.phase === 'mid_turn' ? 'beforeLastPrompt' : 'start',
        history: this.history.items,
        summary,
        contextFragments: this.#options.extensions.contextFragments,
        turnId,
        uuid: this.#uuid,
      });
      const window = nextContextWindow(this.#window, this.#uuid);
      this.history.replace(replacement);
      this.#window = window;
      context.onReplaced();
      this.#options.recorder.recordCompaction({ message: handoffSummaryText(summary), replacementHistory: replacement, window });
      this.#tokens.compacted(turnId, usage, approximateTokens(JSON.stringify(this.history.forPrompt())));
      this.#emit({ type: 'compactionEnded', turnId, itemId, status: 'completed' });
    } catch (error) {
      this.#emit({ type: 'compactionEnded', turnId, itemId, status: 'failed' });
      throw error;
    }
  }

  /** The request fields every request of a turn shares (compaction requests too). */
  #requestFields(config: Config, clientMetadata: Readonly<Record<string, string>>): Omit<SamplingRequest, 'model' | 'input' | 'tools'> {
    return {
      reasoningEffort: config.modelReasoningEffort,
      reasoningSummary: config.modelReasoningSummary,
      verbosity: config.modelVerbosity,
      promptCacheKey: this.threadId,
      clientMetadata,
      stripItemMetadata: config.modelProvider.id !== 'openai',
    };
  }

  /** The headers and client metadata of one request, in the thread's current window. */
  #requestMetadata(request: {
    readonly turnId: string;
    readonly config: Config;
    readonly model: ModelInfo;
    readonly compaction: CompactionTrigger | undefined;
    readonly turnStartedAtMs: number;
    readonly extraClientMetadata: Readonly<Record<string, string>> | undefined;
  }): TurnRequestMetadata {
    const { config, model } = request;
    return turnRequestMetadata({
      sessionId: this.sessionId,
      threadId: this.threadId,
      turnId: request.turnId,
      rootTurnId: request.turnId,
      windowNumber: this.#window.windowNumber,
      contextWindowId: this.#window.windowId,
      ...(request.compaction === undefined ? {} : { compaction: request.compaction }),
      threadSource: this.#options.threadSource ?? 'user',
      sandboxMode: config.sandboxMode,
      model: model.slug,
      reasoningEffort: config.modelReasoningEffort ?? model.defaultReasoningEffort,
      turnStartedAtMs: request.turnStartedAtMs,
      originator: this.#options.originator ?? 'skein',
      userAgent: this.#options.userAgent ?? 'skein',
      ...(request.extraClientMetadata === undefined ? {} : { extraClientMetadata: request.extraClientMetadata }),
    });
  }

  /** Ends a model turn: input steered in that no request carried is kept for the next turn, then the thread is free. */
  #finishTurn(active: ActiveTurn): void {
    const leftover = active.steered.close();
    if (leftover.length > 0) this.history.record(leftover, active.turnId);
    this.#end(active);
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
    this.#tokens.restore(tokenUsage, recorded.lastTokenUsage);
    this.#window = recorded.window ?? firstContextWindow(this.threadId);
    this.#context.restore(this.#config, items.length > 0, baseline);
  }

  /** Interrupts the running turn; it ends as `interrupted` once in-flight work stops. */
  interrupt(): void {
    if (this.#active === undefined) throw new ThreadSessionError('NoActiveTurn', 'no turn is running');
    this.#active.controller.abort();
  }

  /** Interrupts the running turn, if there is one. */
  interruptIfRunning(): void {
    this.#active?.controller.abort();
  }

  /** Adds input to the running turn; the model sees it with its next request. */
  async steer(input: readonly UserInput[]): Promise<void> {
    const active = this.#active;
    if (active === undefined) throw new ThreadSessionError('NoActiveTurn', 'no turn is running to steer');
    const items = await userInputToItems(input, this.#options.reader, this.#config.cwd);
    // The turn may have ended while the input was read; accepting it then would lose it.
    if (this.#active !== active || !active.steered.push(...items)) throw new ThreadSessionError('NoActiveTurn', 'the turn ended before the input could be added');
  }

  /**
   * Runs a command the user typed (not the model) on the thread's environment, unconfined, as its
   * own turn; the model sees the command and its output with its next request.
   */
  async runUserShellCommand(command: string, options: { readonly timeoutMs?: number | undefined } = {}): Promise<UserShellResult> {
    const environment = this.#environments.current;
    if (environment === undefined) throw new ThreadSessionError('ShellUnavailable', USER_SHELL_UNAVAILABLE);
    if (command.trim() === '') throw new ThreadSessionError('EmptyCommand', 'command must not be empty');
    const running = this.#active;
    // Alongside a model turn the command belongs to it, and its record joins the model's next input.
    if (running !== undefined) {
      return this.#userShell(command, running, options.timeoutMs, (message) => {
        // The turn may have ended while the command ran; then the next turn carries it.
        if (!running.steered.push(message)) this.history.record([message], running.turnId);
      });
    }
    // Otherwise it is a turn of its own: exclusive, and interruptible like any other.
    const active = this.#begin(undefined);
    this.#emit({ type: 'turnStarted', turnId: active.turnId });
    try {
      const result = await this.#userShell(command, active, options.timeoutMs, (message) => this.history.record([message], active.turnId));
      await this.#options.recorder.flush();
      this.#emit({ type: 'turnCompleted', turnId: active.turnId, lastAgentMessage: undefined });
      return result;
    } catch (error) {
      if (active.controller.signal.aborted) {
        this.#emit({ type: 'turnAborted', turnId: active.turnId, reason: 'interrupted' });
        throw new ThreadSessionError('Interrupted', 'the shell command was interrupted');
      }
      // The command could not run: say so, and end the turn so the thread is free again.
      this.#emit({ type: 'warning', message: `shell command failed: ${(error as Error).message}` });
      this.#emit({ type: 'turnCompleted', turnId: active.turnId, lastAgentMessage: undefined });
      throw error;
    } finally {
      this.#end(active);
    }
  }

  /** Interrupts a running turn and waits for it to end, then ends the thread's commands (every live exec session is killed). */
  async close(): Promise<void> {
    const active = this.#active;
    if (active !== undefined) {
      active.controller.abort();
      await active.ended;
    }
    await this.#environments.closeAll();
  }

  async #userShell(command: string, turn: ActiveTurn, timeoutMs: number | undefined, record: (message: ResponseItem) => void): Promise<UserShellResult> {
    const environment = this.#environments.toolEnvironment(this.#config);
    const sessions = environment === undefined ? undefined : this.#environments.sessionsFor(environment.id, this.#config);
    if (environment === undefined || sessions === undefined) throw new ThreadSessionError('ShellUnavailable', USER_SHELL_UNAVAILABLE);
    const callId = randomUuidV7();
    this.#userShellCalls.set(callId, turn.turnId);
    try {
      const cwd = PathUri.fromNativePath(this.#config.cwd, environment.pathConvention);
      const result = await runUserShellCommand(sessions, { callId, command, cwd, timeoutMs, signal: turn.controller.signal, monotonicMs: this.#options.clock.monotonicMs });
      record(userShellCommandMessage(command, result));
      return result;
    } finally {
      this.#userShellCalls.delete(callId);
    }
  }

  /** Claims the thread for a turn; refuses while another runs. */
  #begin(turnId: string | undefined): ActiveTurn {
    if (this.#active !== undefined) throw new ThreadSessionError('TurnInProgress', `turn ${this.#active.turnId} is still running; interrupt or steer it`);
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    const active: ActiveTurn = { turnId: turnId ?? newTurnId(this.#uuid), controller: new AbortController(), steered: new SteeredInput(), ended, end };
    this.#active = active;
    return active;
  }

  #end(active: ActiveTurn): void {
    if (this.#active === active) this.#active = undefined;
    active.end();
  }

  /** Records and announces `event`, then the item events it leads to. */
  #emit(event: CoreEvent): void {
    this.#announce(event);
    for (const derived of this.#items.observe(event)) this.#announce(derived);
  }

  #announce(event: CoreEvent): void {
    this.#options.recorder.recordEvent(event);
    this.#options.onEvent(event);
  }

  #onCommandEvent(event: UnifiedExecEvent): void {
    const userShellTurn = this.#userShellCalls.get(event.callId);
    const turnId = userShellTurn ?? this.#active?.turnId ?? '';
    this.#emit(commandEvent(event, turnId, userShellTurn === undefined ? 'agent' : 'userShell'));
  }
}
