// The collaborators a ThreadSession is made of, built from its options in one place so the session
// class reads as its API. Most parts ask each other for something only later (while a turn runs),
// so their closures name parts built further down; the order below is the order they are built in.
// The three typed explicitly (context, compaction, budgets) reach each other that way, a cycle
// inference cannot follow.
import type { Config } from '@skein/config';
import type { ToolEnvironment } from '@skein/extension-api';
import { newTurnId, randomUuidV7, type UserInput, type UuidV7Source } from '@skein/protocol';
import type { MultiAgentMode } from '../agents/agent-instructions.js';
import { ThreadBudgets } from '../budgets/thread-budgets.js';
import type { ThreadCheckpoints } from '../checkpoints/thread-checkpoints.js';
import { ENVIRONMENTS_INSTRUCTIONS } from '../context/environments-instructions.js';
import { GoalWork } from '../goals/goal-work.js';
import { DEFAULT_TOOL_OUTPUT_TOKEN_LIMIT, ThreadHistory } from '../history/thread-history.js';
import { effectiveContextWindow, findModelInfo, type ModelInfo } from '../model/model-catalog.js';
import type { RunTurnOptions } from '../thread-handle.js';
import type { BindApprovals } from '../tools/turn-tool-calls.js';
import type { UnifiedExecEvent } from '../tools/unified-exec/unified-exec-sessions.js';
import type { CoreEvent } from '../turn/core-event.js';
import type { TurnOutcome } from '../turn/run-turn.js';
import { TurnItems } from '../turn/turn-items.js';
import type { TurnSlot } from './active-turn.js';
import { withApprovalItems } from './approval-items.js';
import type { ClientRequests } from './client-requests.js';
import { commandEvent } from './command-events.js';
import { threadEnvironmentHooks } from './environment-hooks.js';
import { InjectedItems } from './injected-items.js';
import { KeptAnnouncements } from './kept-announcements.js';
import { OfferedToolsRecord } from './offered-tools-record.js';
import { sessionCheckpoints } from './session-checkpoints.js';
import { threadApprovals } from './thread-approvals.js';
import { TokenAccounting } from './token-accounting.js';
import { TurnClaim } from './turn-claim.js';
import { TurnContextAssembly } from './turn-context-assembly.js';
import { EnvironmentState } from './thread-environment.js';
import { ThreadCompaction } from './thread-compaction.js';
import { ThreadHooks } from './thread-hooks.js';
import { baseInstructionsFor, type ThreadSessionOptions } from './thread-session-options.js';
import { ThreadTools } from './thread-tools.js';
import { ThreadUserShell } from './thread-user-shell.js';
import { sharedRequestFields } from './turn-requests.js';

/** What the parts ask of the session itself: its changing settings and state, and its turns. */
export interface SessionState {
  /** The root thread of this thread's tree. */
  readonly sessionId: string;
  config(): Config;
  model(): ModelInfo;
  multiAgentMode(): MultiAgentMode;
  /** Whether the thread was closed (a goal's continuation then starts no turn). */
  closed(): boolean;
  runTurn(input: readonly UserInput[], options: RunTurnOptions): Promise<TurnOutcome>;
}

/** A thread session's collaborators, each owning one job. */
export interface SessionParts {
  readonly uuid: UuidV7Source;
  readonly announcements: KeptAnnouncements;
  /** Records and announces an event, then the item events it leads to. */
  readonly emit: (event: CoreEvent) => void;
  readonly turns: TurnClaim;
  /** How the parts that run turns of their own (a compaction, a user's command) claim the thread. */
  readonly slot: TurnSlot;
  readonly goalWork: GoalWork;
  readonly offeredTools: OfferedToolsRecord;
  /** The user's and the extensions' lifecycle hooks. */
  readonly hooks: ThreadHooks;
  readonly environments: EnvironmentState;
  readonly approvals: BindApprovals;
  /** Extension tools' questions to the client (`ToolContext.elicit`). */
  readonly elicit: ClientRequests['requestMcpElicitation'];
  readonly context: TurnContextAssembly;
  readonly tools: ThreadTools;
  readonly tokens: TokenAccounting;
  readonly history: ThreadHistory;
  readonly checkpoints: ThreadCheckpoints;
  readonly userShell: ThreadUserShell;
  readonly compaction: ThreadCompaction;
  readonly injected: InjectedItems;
  readonly budgets: ThreadBudgets;
}

/** Builds the parts of the session `options` describe; `session` answers what changes after (settings, mode, closing). */
export function buildSessionParts(options: ThreadSessionOptions, session: SessionState): SessionParts {
  const announcements = new KeptAnnouncements(options.recorder, (event) => options.onEvent(event));
  const announce = (event: CoreEvent) => announcements.announce(event);
  const emit = (event: CoreEvent) => {
    announce(event);
    for (const derived of items.observe(event)) announce(derived);
  };
  const uuid = options.uuid ?? randomUuidV7;
  const turns = new TurnClaim(() => newTurnId(uuid), () => environments.selection);
  const slot: TurnSlot = { running: () => turns.running, begin: () => turns.begin(undefined), end: (turn) => turns.end(turn), emit };
  const goalWork = new GoalWork({
    threadId: options.threadId,
    nowMs: () => options.clock.now().getTime(),
    emit,
    maxTokenBudget: () => session.config().goals.maxTokenBudget,
    continueGoals: options.continueGoals === true,
    idle: () => turns.running === undefined && !session.closed(),
    run: (inputItems) => session.runTurn([], { inputItems, turnTrigger: 'goal' }),
    inject: (injectedItems) => void injected.inject(injectedItems),
  });
  const items = new TurnItems(() => options.clock.now().getTime());
  const offeredTools = new OfferedToolsRecord(options.recorder);
  const hooks = ThreadHooks.forSession(options.lifecycleHooks, {
    sessionId: session.sessionId,
    emit,
    resumed: options.historyInitialization === 'cold_resume',
    mcpConnections: () => tools.mcp.connections,
    environmentHooks: threadEnvironmentHooks(() => environments, () => turns.running?.environments, options.clock.monotonicMs),
  });
  const clientRequests = options.clientRequests === undefined ? undefined : withApprovalItems(options.clientRequests, items, (events) => events.forEach((event) => announce(event)));
  // A command's events belong to the user's shell turn that ran it, else to the running model turn.
  const onCommandEvent = (event: UnifiedExecEvent) => {
    const userShellTurn = userShell.turnOf(event.callId);
    const turnId = userShellTurn ?? turns.running?.turnId ?? '';
    emit(commandEvent(event, turnId, userShellTurn === undefined ? 'agent' : 'userShell'));
  };
  const environments = new EnvironmentState(options.environment, { monotonicMs: options.clock.monotonicMs, onCommandEvent });
  options.extensions.useEnvironments(() => environments.toolEnvironments(session.config()));
  const elicit = clientRequests?.requestMcpElicitation?.bind(clientRequests);
  const approvals = threadApprovals({
    client: clientRequests,
    config: () => session.config(),
    writeScope: (environmentId) => environments.writeScope(environmentId, session.config(), turns.running?.environments),
    cancelTurn: () => turns.running?.controller.abort(),
    warn: (message) => emit({ type: 'warning', message }),
    permissionHook: (call, signal) => hooks.permissionRequest(call, signal),
  });
  const context: TurnContextAssembly = new TurnContextAssembly({ threadId: options.threadId, extensions: options.extensions, reader: options.reader, recorder: options.recorder, host: options.host, now: options.clock.now, lineage: (config, window) => budgets.lineage(config, window),
    // A running turn is told of the selection it runs with.
    attachedEnvironments: (cwd, hostShell) => (turns.running?.environments ?? environments.selection).described(cwd, (environment) => environment.shellName ?? hostShell),
    environmentsInstructions: (config) => (config.features.isEnabled('deferred_executor') ? ENVIRONMENTS_INSTRUCTIONS : undefined),
    agentsMdPlaces: (config) => environments.toolEnvironments(config, turns.running?.environments).map((environment) => ({ environmentId: environment.id, fileSystem: environment.fileSystem, cwd: environment.cwd })),
    workspaceRoots: () => (turns.running?.environments ?? environments.selection).namedPrimaryRoots,
    agent: options.agentRole === undefined ? undefined : { role: options.agentRole, mode: () => session.multiAgentMode() },
    deferredTools: () => tools.deferredEntries(),
  });
  const tools = new ThreadTools({
    threadId: options.threadId,
    extensions: options.extensions,
    clientRequests,
    monotonicMs: options.clock.monotonicMs,
    emit,
    contextRemaining: () => budgets.contextRemaining(),
    sessionsFor: (environment: ToolEnvironment) => environments.attachedSessions(environment.id, session.config()),
    waitForEnvironment: (environmentId, signal) => (turns.running?.environments ?? environments.selection).waitFor(environmentId, signal),
    collaboration: options.collaboration?.({
      emit,
      now: () => options.clock.now().getTime(),
      settings: () => ({ model: session.config().model, reasoningEffort: session.config().modelReasoningEffort ?? findModelInfo(session.config().model).defaultReasoningEffort }),
    }),
    mcpEnv: options.mcpEnv,
    now: () => options.clock.now().getTime(),
    config: () => session.config(),
    activeTurnId: () => turns.running?.turnId,
    goalTools: goalWork.tools,
    subAgent: options.agent?.parent !== undefined,
    inject: (injectedItems) => injected.inject(injectedItems),
  });
  // The servers start now, in the background: the first turn does not wait for them.
  tools.mcp.use(options.config);
  const tokens = new TokenAccounting(emit, () => effectiveContextWindow(session.model()));
  const history = new ThreadHistory({ toolOutputTokenLimit: options.config.toolOutputTokenLimit ?? DEFAULT_TOOL_OUTPUT_TOKEN_LIMIT, uuid, onRecorded: (recorded) => options.recorder.recordItems(recorded) });
  history.setInstructions(baseInstructionsFor(options.config, options.baseInstructions));
  const checkpoints = sessionCheckpoints({
    threadId: options.threadId,
    store: options.checkpointStore,
    nowMs: () => options.clock.now().getTime(),
    monotonicMs: options.clock.monotonicMs,
    config: () => session.config(),
    environments,
    running: () => turns.running?.environments,
    warn: (message) => emit({ type: 'warning', message }),
  });
  const userShell = new ThreadUserShell({ environments, config: () => session.config(), history, recorder: options.recorder, monotonicMs: options.clock.monotonicMs, slot });
  const compaction: ThreadCompaction = new ThreadCompaction({
    threadId: options.threadId,
    client: options.client,
    uuid,
    history,
    tokens,
    context,
    recorder: options.recorder,
    extensions: options.extensions,
    emit,
    requestFields: (config, clientMetadata) => sharedRequestFields(config, options.threadId, clientMetadata),
    chargeUsage: (usage) => budgets.chargeCompaction(usage),
  });
  const injected = new InjectedItems({ history, context, running: () => turns.running !== undefined, opening: () => context.openingContext(session.config(), session.model(), newTurnId(uuid)) });
  const budgets: ThreadBudgets = new ThreadBudgets({
    threadId: options.threadId,
    config: () => session.config(),
    model: () => session.model(),
    now: options.clock.now,
    window: () => compaction.window,
    windowTokens: () => tokens.windowTokens,
    history: () => history.forPrompt(),
    recorded: () => history.items,
    rolloutLedger: options.rolloutLedger,
  });
  return { uuid, announcements, emit, turns, slot, goalWork, offeredTools, hooks, environments, approvals, elicit, context, tools, tokens, history, checkpoints, userShell, compaction, injected, budgets };
}
