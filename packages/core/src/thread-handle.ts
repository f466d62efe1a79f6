// What a host holds of a loaded thread: the operations clients ask for, without the session behind
// them. Hosts (app-server, exec) and tests use only this.
import type { HookCatalog } from '@skein/hooks';
import type { ThreadGoals } from './goals/thread-goals.js';
import type { McpConnections } from './mcp/mcp-connections.js';
import type { ContextWindow } from './compaction/context-window.js';
import type { Config } from '@skein/config';
import type { ResponseItem, UserInput } from '@skein/protocol';
import type { BackgroundTerminals } from './session/background-terminals.js';
import type { SelectedEnvironment, ThreadSession } from './session/thread-session.js';
import type { TokenUsageBreakdown } from './session/thread-token-usage.js';
import type { TokenUsageReport } from './session/token-accounting.js';
import type { RealtimeItemRecord, UserMessageRecord } from './session/thread-recorder.js';
import type { ResponsesServiceTier } from './model/responses-request.js';
import type { UserShellResult } from './session/user-shell-command.js';
import type { CaptureCommandOptions, CommandCapture } from './session/command-capture.js';
import type { TurnOutcome } from './turn/run-turn.js';
import type { RevertOptions, RevertResult } from './session/thread-revert.js';
import type { MultiAgentMode } from './agents/agent-instructions.js';

/** Options of {@link ThreadHandle.runTurn}. */
export interface RunTurnOptions {
  readonly outputSchema?: unknown;
  readonly clientMetadata?: Readonly<Record<string, string>>;
  /** The turn's id when the host named it in advance (to answer the client before the turn starts). */
  readonly turnId?: string;
  /** The host's item for the user's message, recorded so a resumed thread shows the same id and client id. */
  readonly userMessage?: UserMessageRecord;
  /** The service tier this turn's requests ask for (`service_tier`); unset asks for none. */
  readonly serviceTier?: ResponsesServiceTier;
  /** Items recorded as the turn's input after the user's (a sub-agent's task envelope, which has no user message). */
  readonly inputItems?: readonly ResponseItem[];
  /** Why the turn runs when no one asked for it (`turn_trigger` in its requests' metadata, e.g. `goal`). */
  readonly turnTrigger?: string;
  /**
   * Called once the user's input is past the hooks that may keep it from the model (UserPromptSubmit),
   * before anything of the turn is recorded; a prompt a hook blocked never calls it. Hosts show the
   * user's message then, as Codex orders it after the hook's run.
   */
  readonly onPromptAccepted?: () => void;
}

/** A loaded thread. Close it to end its commands and release its rollout file. */
export interface ThreadHandle {
  readonly threadId: string;
  /** The root thread of this thread's tree (its own id for a root thread). */
  readonly sessionId: string;
  /** The rollout file; undefined for an ephemeral thread, which writes none, and for one kept in a database. */
  readonly path: string | undefined;
  /** Whether the thread keeps no record (nothing is written, it cannot be resumed). */
  readonly ephemeral: boolean;
  /** The settings turns run with now. */
  readonly config: Config;
  /** The running turn's id, if any. */
  readonly activeTurnId: string | undefined;
  /** Whether the thread has an environment to run commands on. */
  readonly hasEnvironment: boolean;
  /** The ids of the attached environments (`local` is this machine), the primary first. */
  readonly environmentIds: readonly string[];
  /** The native cwd turns use on the attached environment `environmentId`. */
  environmentCwd(environmentId: string): string;
  /** The workspace roots of the attached environment `environmentId`: those the client named, else its cwd and the configured writable roots. */
  environmentWorkspaceRoots(environmentId: string): readonly string[];
  /** Whether the selected environment `environmentId` is still connecting (or failed to): not usable yet. */
  environmentUnusable(environmentId: string): boolean;
  /** The commands exec_command left running, to list and end between turns. */
  readonly backgroundTerminals: BackgroundTerminals;
  /** Tokens used since the thread began. */
  readonly tokenUsage: TokenUsageBreakdown;
  /** The total, the last response's usage and the model's window, as `thread/tokenUsage/updated` carries them. */
  readonly tokenReport: TokenUsageReport;
  /** The context window the thread is in (its number and UUIDv7 id, the first and previous ids). */
  readonly contextWindow: ContextWindow;
  /** The history as the model sees it (for inspection; hosts read turns from the rollout). */
  history(): readonly ResponseItem[];
  /** The AGENTS.md files the next turn's context would hold, as native paths (global first, then each environment's). */
  instructionSources(): Promise<readonly string[]>;
  /** Runs one user turn to its end; refuses while another runs. */
  runTurn(input: readonly UserInput[], options?: RunTurnOptions): Promise<TurnOutcome>;
  /** Appends items to the model-visible history: now between turns, with the running turn's next request otherwise. */
  injectItems(items: readonly ResponseItem[]): Promise<void>;
  /** Adds input to the running turn. */
  steer(input: readonly UserInput[]): Promise<void>;
  /** Compacts the history now, as a turn of its own (runs even with `auto_compaction` off); refuses while another turn runs. */
  compact(): Promise<TurnOutcome>;
  /** Interrupts the running turn (refuses when none runs). */
  interrupt(): void;
  interruptIfRunning(): void;
  /** Settings for later turns. */
  reconfigure(config: Config): void;
  /** The delegation mode the client chose (multi-agent v2; told to the model of a thread in an agent tree). */
  readonly multiAgentMode: MultiAgentMode;
  /** Chooses the delegation mode for later turns (sticky, and restored on resume). */
  setMultiAgentMode(mode: MultiAgentMode): void;
  rename(name: string | null): void;
  /** Records an item of the thread's realtime conversation (a `realtime_item` line); resolves once it is written. */
  recordRealtimeItem(item: RealtimeItemRecord): Promise<void>;
  runUserShellCommand(command: string, options?: { readonly timeoutMs?: number | undefined }): Promise<UserShellResult>;
  /**
   * Runs `argv` once on the primary environment (its own process runner, the thread's cwd and
   * sandbox) and returns its bounded output — for the host's own use, never a turn item or model
   * input. Rejects with `ShellUnavailable` when the thread has no environment ready.
   */
  captureCommand(argv: readonly string[], options?: CaptureCommandOptions): Promise<CommandCapture>;
  /** The thread's configured hooks, read now under its current settings and environments: its config layers' and its executors' projects'. */
  listHooks(): Promise<HookCatalog>;
  /**
   * Drops `beforeTurnId` and every later turn from the history and puts back the files they changed
   * where checkpoints exist (`thread/revert`); the thread then continues from what its file holds.
   */
  revert(beforeTurnId: string, options?: RevertOptions): Promise<RevertResult>;
  /** Deletes the thread's file checkpoints on its attached environments. */
  pruneCheckpoints(): Promise<void>;
  /** Moves later turns to another environment (or to none). */
  useEnvironment(environment: SelectedEnvironment | readonly SelectedEnvironment[] | undefined): void;
  /** Later turns work over `roots` on the primary environment (the environments stay as they are). */
  useWorkspaceRoots(roots: readonly string[]): void;
  /** The thread's goal: read it, set or change it (thread/goal/set), clear it. */
  readonly goals: ThreadGoals;
  /** Continues an active goal with a turn of its own once the thread is idle (where the host lets goals continue). */
  continueGoal(): void;
  /** The thread's MCP servers: their statuses, and direct calls and reads for the host. */
  readonly mcp: McpConnections;
  /** Restarts the MCP servers from `config`'s `[mcp_servers]` tables, once a running turn has ended. */
  reloadMcp(config: Config): Promise<void>;
  close(): Promise<void>;
}

/** The handle over a session; `close` is the manager's (it also releases the rollout and the registry entry). */
export function handleFor(session: ThreadSession, record: { readonly path: string | undefined; readonly ephemeral: boolean }, reload: (() => Promise<void>) | undefined, close: () => Promise<void>): ThreadHandle {
  return {
    threadId: session.threadId,
    sessionId: session.sessionId,
    path: record.path,
    ephemeral: record.ephemeral,
    get config() {
      return session.config;
    },
    get activeTurnId() {
      return session.activeTurnId;
    },
    get hasEnvironment() {
      return session.environments.selection.usable;
    },
    get environmentIds() {
      return session.environments.selection.ids;
    },
    environmentCwd: (environmentId) => session.environments.cwdOf(environmentId, session.config),
    environmentWorkspaceRoots: (environmentId) => session.environments.workspaceRootsOf(environmentId, session.config),
    environmentUnusable: (environmentId) => session.environments.selection.isUnusable(environmentId),
    backgroundTerminals: session.environments.backgroundTerminals,
    get tokenUsage() {
      return session.tokenUsage;
    },
    get tokenReport() {
      return session.tokenReport;
    },
    get contextWindow() {
      return session.contextWindow;
    },
    history: () => session.history.items,
    get mcp() {
      return session.mcp.connections;
    },
    goals: session.goals,
    continueGoal: () => session.continueGoal(),
    reloadMcp: (config) => session.reloadMcp(config),
    instructionSources: () => session.instructionSources(),
    compact: () => session.compact(),
    runTurn: (input, options) => session.runTurn(input, options),
    steer: (input) => session.steer(input),
    injectItems: (items) => session.injectItems(items),
    interrupt: () => session.interrupt(),
    interruptIfRunning: () => session.interruptIfRunning(),
    reconfigure: (config) => session.reconfigure(config),
    get multiAgentMode() {
      return session.multiAgentMode;
    },
    setMultiAgentMode: (mode) => session.setMultiAgentMode(mode),
    rename: (name) => session.rename(name),
    recordRealtimeItem: (item) => session.recordRealtimeItem(item),
    runUserShellCommand: (command, options) => session.runUserShellCommand(command, options),
    captureCommand: (argv, options) => session.captureCommand(argv, options),
    listHooks: () => session.listHooks(),
    revert: (beforeTurnId, options) => session.revert(beforeTurnId, options, reload),
    pruneCheckpoints: () => session.pruneCheckpoints(),
    useEnvironment: (environment) => session.environments.use(environment),
    useWorkspaceRoots: (roots) => session.environments.useWorkspaceRoots(roots),
    close,
  };
}
