// One loaded thread: its history, settings and extensions, running one turn at a time. Its parts
// each own one job — context assembly, the tool plan, the environment, token accounting, the turn
// runner and its hooks — and are built in thread-session-parts.ts; a model turn's plumbing is in
// thread-turn-runner.ts. This class keeps the thread's changing settings and answers its API.
import type { HookCatalog } from '@skein/hooks';
import type { Config } from '@skein/config';
import type { ResponseItem, UserInput, UuidV7Source } from '@skein/protocol';
import type { ThreadBudgets } from '../budgets/thread-budgets.js';
import type { ContextWindow } from '../compaction/context-window.js';
import type { ThreadHistory } from '../history/thread-history.js';
import { findModelInfo, type ModelInfo } from '../model/model-catalog.js';
import type { CompactionTrigger, TurnRequestMetadata } from '../model/turn-metadata.js';
import type { CoreEvent } from '../turn/core-event.js';
import type { TurnOutcome } from '../turn/run-turn.js';
import { commandEnvironment, type EnvironmentState } from './thread-environment.js';
import { captureCommand, type CaptureCommandOptions, type CommandCapture } from './command-capture.js';
import { NO_TOKENS, type TokenUsageBreakdown } from './thread-token-usage.js';
import type { ThreadTools } from './thread-tools.js';
import type { TurnClaim } from './turn-claim.js';
import type { ThreadMcp } from '../mcp/thread-mcp.js';
import type { GoalWork } from '../goals/goal-work.js';
import type { ThreadGoals } from '../goals/thread-goals.js';
import type { ThreadCompaction } from './thread-compaction.js';
import type { TokenAccounting, TokenUsageReport } from './token-accounting.js';
import type { ThreadUserShell } from './thread-user-shell.js';
import { ThreadSessionError, type TurnSlot } from './active-turn.js';
import type { InjectedItems } from './injected-items.js';
import type { ThreadCheckpoints } from '../checkpoints/thread-checkpoints.js';
import { revertThread, type RevertOptions, type RevertResult } from './thread-revert.js';
import type { ThreadHooks } from './thread-hooks.js';
import { requestMetadata, type RequestPlace } from './turn-requests.js';
import type { TurnContextAssembly, RecordedTurnSettings } from './turn-context-assembly.js';
import type { MultiAgentMode } from '../agents/agent-instructions.js';
import { USER_SHELL_UNAVAILABLE, type UserShellResult } from './user-shell-command.js';
import type { RealtimeItemRecord } from './thread-recorder.js';
import type { RunTurnOptions } from '../thread-handle.js';
import { userInputToItems } from './user-input-items.js';
import type { KeptAnnouncements } from './kept-announcements.js';
import { buildSessionParts } from './thread-session-parts.js';
import { ThreadTurnRunner } from './thread-turn-runner.js';

export type { HostFacts, RecordedTurnSettings } from './turn-context-assembly.js';
export type { SelectedEnvironment, StartingEnvironment, ThreadEnvironment } from './thread-environment.js';
export { ThreadSessionError } from './active-turn.js';
export { baseInstructionsFor, type ThreadSessionOptions } from './thread-session-options.js';
import type { ThreadSessionOptions } from './thread-session-options.js';

/** A loaded thread. */
export class ThreadSession {
  readonly threadId: string;
  readonly history: ThreadHistory;
  readonly #options: ThreadSessionOptions;
  #config: Config;
  #model: ModelInfo;
  readonly #context: TurnContextAssembly;
  readonly #tools: ThreadTools;
  /**
   * Where the thread acts: its environment selection (`use` moves later turns; a running turn keeps
   * its own; sessions started elsewhere keep running until the thread ends) and its command sessions.
   */
  readonly environments: EnvironmentState;
  readonly #tokens: TokenAccounting;
  readonly #userShell: ThreadUserShell;
  readonly #checkpoints: ThreadCheckpoints;
  /** How the parts that run turns of their own (a compaction, a user's command) claim the thread. */
  readonly #slot: TurnSlot;
  readonly #uuid: UuidV7Source;
  readonly #turns: TurnClaim;
  readonly #turnRunner: ThreadTurnRunner;
  readonly #compaction: ThreadCompaction;
  readonly #budgets: ThreadBudgets;
  readonly #injected: InjectedItems;
  readonly #goalWork: GoalWork;
  #closed = false;
  /** The user's and the extensions' lifecycle hooks. */
  readonly #hooks: ThreadHooks;
  readonly #announcements: KeptAnnouncements;
  /** Records and announces an event, then the item events it leads to. */
  readonly #emit: (event: CoreEvent) => void;
  /** The delegation mode the client chose (a thread of an agent tree tells its model; sticky across turns and resume). */
  #multiAgentMode: MultiAgentMode = 'explicitRequestOnly';
  /** The last request metadata built, and for which place and window. */
  #lastRequestMetadata: { readonly place: Omit<RequestPlace, 'window'>; readonly window: ContextWindow; readonly metadata: TurnRequestMetadata } | undefined;

  constructor(options: ThreadSessionOptions) {
    this.threadId = options.threadId;
    this.#options = options;
    this.#config = options.config;
    this.#model = findModelInfo(options.config.model, { contextWindow: options.config.modelContextWindow });
    const parts = buildSessionParts(options, {
      sessionId: this.sessionId,
      config: () => this.#config,
      model: () => this.#model,
      multiAgentMode: () => this.#multiAgentMode,
      closed: () => this.#closed,
      runTurn: (input, runOptions) => this.runTurn(input, runOptions),
    });
    this.history = parts.history;
    this.environments = parts.environments;
    this.#context = parts.context;
    this.#tools = parts.tools;
    this.#tokens = parts.tokens;
    this.#userShell = parts.userShell;
    this.#checkpoints = parts.checkpoints;
    this.#slot = parts.slot;
    this.#uuid = parts.uuid;
    this.#turns = parts.turns;
    this.#compaction = parts.compaction;
    this.#budgets = parts.budgets;
    this.#injected = parts.injected;
    this.#goalWork = parts.goalWork;
    this.#hooks = parts.hooks;
    this.#announcements = parts.announcements;
    this.#emit = parts.emit;
    this.#turnRunner = new ThreadTurnRunner({ ...parts, options, config: () => this.#config, model: () => this.#model, requestMetadata: (place) => this.#requestMetadata(place) });
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

  /**
   * Records an item of the thread's realtime conversation; resolves once it is where a killed process
   * keeps it, so a list read after it sees it.
   */
  recordRealtimeItem(item: RealtimeItemRecord): Promise<void> {
    this.#options.recorder.recordRealtimeItem(item);
    return this.#options.recorder.written();
  }

  /** Names the thread (recorded, so lists and resumes show it). */
  rename(name: string | null): void {
    this.#emit({ type: 'threadNameUpdated', threadId: this.threadId, name });
  }

  /** Runs one user turn to its end. Refuses while another turn runs. */
  runTurn(input: readonly UserInput[], options: RunTurnOptions = {}): Promise<TurnOutcome> {
    return this.#announced(this.#turnRunner.run(input, options));
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

  /**
   * The headers and client metadata of one request, in the thread's current window. A turn asks for
   * them two or three times with the same place; the last answer is kept while place and window are.
   */
  #requestMetadata(place: Omit<RequestPlace, 'window'>): TurnRequestMetadata {
    const window = this.#compaction.window;
    const last = this.#lastRequestMetadata;
    if (last !== undefined && last.window === window && samePlace(last.place, place)) return last.metadata;
    const { installationId, historyInitialization, threadSource, clientTurnTrigger, originator, userAgent, agent } = this.#options;
    const sender = { installationId, sessionId: this.sessionId, threadId: this.threadId, historyInitialization, threadSource, clientTurnTrigger, originator, userAgent, agent };
    const metadata = requestMetadata(sender, { ...place, window });
    this.#lastRequestMetadata = { place, window, metadata };
    return metadata;
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
}

/** Whether two requests' places are the same (a turn passes the same objects for each of its requests). */
function samePlace(a: Omit<RequestPlace, 'window'>, b: Omit<RequestPlace, 'window'>): boolean {
  return (
    a.turnId === b.turnId &&
    a.config === b.config &&
    a.model === b.model &&
    a.compaction === b.compaction &&
    a.turnStartedAtMs === b.turnStartedAtMs &&
    a.extraClientMetadata === b.extraClientMetadata &&
    a.turnTrigger === b.turnTrigger
  );
}
