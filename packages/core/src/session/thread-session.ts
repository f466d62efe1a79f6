// One loaded thread: its history, settings and extensions, running one turn at a time. The first
// turn records the initial context; later turns add only what changed. Interrupt and steer reach
// the running turn.
import path from 'node:path';
import type { Config } from '@skein/config';
import type { ExecutorFileSystem, ExecutorProcesses } from '@skein/exec-server';
import type { ToolHandler } from '@skein/extension-api';
import { CoreSandboxPolicy, PathUri, newTurnId, randomUuidV7, type ResponseItem, type UserInput, type UuidV7Source } from '@skein/protocol';
import { sandboxPolicyFromConfig } from '@skein/sandboxing';
import { DEFAULT_BASE_INSTRUCTIONS } from '../context/base-instructions.js';
import { discoverAgentsMd } from '../context/agents-md-discovery.js';
import { localDate, type EnvironmentContext } from '../context/environment-context.js';
import { buildInitialContext, contextUpdates } from '../context/initial-context.js';
import type { PermissionsFacts } from '../context/permissions-instructions.js';
import type { ExtensionHost } from '../extensions/extension-host.js';
import { DEFAULT_TOOL_OUTPUT_TOKEN_LIMIT, ThreadHistory } from '../history/thread-history.js';
import type { ResponsesClient } from '../model-client/responses-client.js';
import { effectiveContextWindow, findModelInfo, type ModelInfo } from '../model/model-catalog.js';
import { addUsage, breakdownOf, NO_TOKENS, type TokenUsageBreakdown } from './thread-token-usage.js';
import { turnRequestMetadata } from '../model/turn-metadata.js';
import { applyPatchTool } from '../tools/apply-patch/apply-patch-tool.js';
import { requestUserInputTool } from '../tools/request-user-input/request-user-input-tool.js';
import { viewImageTool } from '../tools/view-image/view-image-tool.js';
import { ToolRouter } from '../tools/tool-router.js';
import { execCommandTool } from '../tools/unified-exec/exec-command-tool.js';
import { UnifiedExecSessions, type UnifiedExecEvent } from '../tools/unified-exec/unified-exec-sessions.js';
import { writeStdinTool } from '../tools/unified-exec/write-stdin-tool.js';
import { CommandApprovals } from '../tools/approvals/command-approvals.js';
import { appendAllowPrefixRule, DEFAULT_RULES_FILE, ExecPolicy, loadExecPolicy } from '../tools/approvals/exec-policy/exec-policy.js';
import type { ClientRequests } from './client-requests.js';
import { isWritable, sandboxContextFor } from './sandbox-context.js';
import { runUserShellCommand, USER_SHELL_UNAVAILABLE, userShellCommandMessage, type UserShellResult } from './user-shell-command.js';
import { shellEnvironment } from './shell-environment.js';
import type { CoreEvent } from '../turn/core-event.js';
import { runTurn, type TurnOutcome } from '../turn/run-turn.js';
import { permissionsForPolicy, threadPermissions } from './permissions.js';
import type { ThreadRecorder } from './thread-recorder.js';
import { userInputToItems } from './user-input-items.js';
import type { WorkspaceReader } from './workspace-reader.js';

/** The base instructions a thread runs with: the thread's own (its parameters, or its rollout on resume), else config's, else Skein's. */
export function baseInstructionsFor(config: Pick<Config, 'baseInstructions'>, threadInstructions: string | undefined): string {
  return threadInstructions ?? config.baseInstructions ?? DEFAULT_BASE_INSTRUCTIONS;
}

/** Facts about the machine the thread runs on, read once at the edge. */
export interface HostFacts {
  readonly shell: string;
  readonly timezone: string;
  readonly projectRoot: string;
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
  readonly environment?: ThreadEnvironment;
  /** Asks the client for approvals and answers; without it every question is declined. */
  readonly clientRequests?: ClientRequests | undefined;
}

/** The machine a thread's commands and file edits run on (this one, or a remote exec-server). */
export interface ThreadEnvironment {
  readonly fileSystem: ExecutorFileSystem;
  readonly processes: ExecutorProcesses;
  /** The host environment; commands get it filtered by `[shell_environment_policy]`. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The user's shell, e.g. `/bin/bash`. */
  readonly shell: string;
  /** Names the environment to clients and in approval keys (`local` when absent). */
  readonly id?: string | undefined;
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

/** What a thread's last turn recorded about its settings (from the rollout's `turn_context`). */
export interface RecordedTurnSettings {
  readonly cwd: string;
  readonly approvalPolicy?: string | undefined;
  readonly sandboxPolicy?: unknown;
  readonly currentDate?: string | undefined;
  readonly timezone?: string | undefined;
}

interface TurnSettings {
  readonly environment: EnvironmentContext;
  readonly permissions: PermissionsFacts;
}

/** A loaded thread. */
export class ThreadSession {
  readonly threadId: string;
  readonly history: ThreadHistory;
  readonly #options: ThreadSessionOptions;
  #config: Config;
  #model: ModelInfo;
  readonly #approvals: CommandApprovals;
  #execPolicy: Promise<ExecPolicy> | undefined;
  #tokenUsage: TokenUsageBreakdown = NO_TOKENS;
  /** User shell commands in flight: their call id → the turn they belong to. */
  readonly #userShellCalls = new Map<string, string>();
  readonly #uuid: UuidV7Source;
  #lastSettings: TurnSettings | undefined;
  #active: { readonly turnId: string; readonly controller: AbortController; readonly steered: ResponseItem[] } | undefined;
  #environment: ThreadEnvironment | undefined;
  /** Each environment's command sessions, created on first use and kept until the thread ends. */
  readonly #sessionsByEnvironment = new Map<string, UnifiedExecSessions>();

  constructor(options: ThreadSessionOptions) {
    this.threadId = options.threadId;
    this.#options = options;
    this.#config = options.config;
    this.#environment = options.environment;
    this.#uuid = options.uuid ?? randomUuidV7;
    this.#model = findModelInfo(options.config.model, { contextWindow: options.config.modelContextWindow });
    this.#approvals = new CommandApprovals({
      client: options.clientRequests,
      environmentId: () => this.#environment?.id ?? 'local',
      policy: () => this.#config.approvalPolicy,
      sandboxRestricted: () => sandboxContextFor(this.#config, this.#config.cwd) !== null,
      isWritable: (path) => isWritable(this.#config, path, this.#environment?.env ?? {}),
      cancelTurn: () => this.#active?.controller.abort(),
      execPolicy: () => (this.#execPolicy ??= this.#loadExecPolicy()),
      persistAllowedPrefix: async (prefix) => {
        const file = path.join(this.#config.homeDir, 'rules', DEFAULT_RULES_FILE);
        // The approval holds for this session either way; only later sessions would miss it.
        await appendAllowPrefixRule(file, prefix).catch((error: unknown) => this.#emit({ type: 'warning', message: `could not save the approved command prefix to ${file}: ${(error as Error).message}` }));
      },
    });
    this.history = new ThreadHistory({ toolOutputTokenLimit: options.config.toolOutputTokenLimit ?? DEFAULT_TOOL_OUTPUT_TOKEN_LIMIT, uuid: this.#uuid, onRecorded: (items) => options.recorder.recordItems(items) });
    this.history.setInstructions(baseInstructionsFor(options.config, options.baseInstructions));
  }

  /**
   * The rules beside each config layer: `$CODEX_HOME/rules`, then each trusted project's
   * `.codex/rules`. Unreadable ones are reported and left out, as Codex's app-server does.
   */
  async #loadExecPolicy(): Promise<ExecPolicy> {
    const projectDirs = this.#config.layers.flatMap((layer) => (layer.name.type === 'project' ? [path.join(path.dirname(layer.name.file), 'rules')] : []));
    const rulesDirs = [path.join(this.#config.homeDir, 'rules'), ...projectDirs];
    try {
      return await loadExecPolicy(rulesDirs);
    } catch (error) {
      this.#emit({ type: 'warning', message: `exec-policy rules are ignored for this thread: ${(error as Error).message}` });
      return new ExecPolicy();
    }
  }

  /** The root thread of this thread's tree (its own id for a root thread). */
  get sessionId(): string {
    return this.#options.sessionId ?? this.threadId;
  }

  /** Whether the thread has an environment to run commands on. */
  get hasEnvironment(): boolean {
    return this.#environment !== undefined;
  }

  /** Interrupts the running turn, if there is one. */
  interruptIfRunning(): void {
    this.#active?.controller.abort();
  }

  /** The settings turns run with now. */
  get config(): Config {
    return this.#config;
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
   * Runs a command the user typed (not the model) on the thread's environment, unconfined, as its
   * own turn; the model sees the command and its output with its next request.
   */
  async runUserShellCommand(command: string, options: { readonly timeoutMs?: number | undefined } = {}): Promise<UserShellResult> {
    const commands = this.#commands;
    if (commands === undefined) throw new ThreadSessionError('ShellUnavailable', USER_SHELL_UNAVAILABLE);
    if (command.trim() === '') throw new ThreadSessionError('EmptyCommand', 'command must not be empty');
    const running = this.#active;
    // Alongside a model turn the command belongs to it, and its record joins the model's next input.
    if (running !== undefined) {
      return this.#userShell(commands, command, running, options.timeoutMs, (message) => running.steered.push(message));
    }
    // Otherwise it is a turn of its own: exclusive, and interruptible like any other.
    const active = { turnId: newTurnId(this.#uuid), controller: new AbortController(), steered: [] as ResponseItem[] };
    this.#active = active;
    this.#emit({ type: 'turnStarted', turnId: active.turnId });
    try {
      const result = await this.#userShell(commands, command, active, options.timeoutMs, (message) => this.history.record([message], active.turnId));
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
      if (this.#active === active) this.#active = undefined;
    }
  }

  async #userShell(
    commands: UnifiedExecSessions,
    command: string,
    turn: { readonly turnId: string; readonly controller: AbortController },
    timeoutMs: number | undefined,
    record: (message: ResponseItem) => void,
  ): Promise<UserShellResult> {
    const callId = randomUuidV7();
    this.#userShellCalls.set(callId, turn.turnId);
    try {
      const result = await runUserShellCommand(commands, {
        callId,
        command,
        cwd: PathUri.fromNativePath(this.#config.cwd, 'posix'),
        timeoutMs,
        signal: turn.controller.signal,
        monotonicMs: this.#options.clock.monotonicMs,
      });
      record(userShellCommandMessage(command, result));
      return result;
    } finally {
      this.#userShellCalls.delete(callId);
    }
  }


  /** Names the thread (recorded, so lists and resumes show it). */
  rename(name: string | null): void {
    this.#emit({ type: 'threadNameUpdated', threadId: this.threadId, name });
  }

  /** The id of the running turn, if any. */
  get activeTurnId(): string | undefined {
    return this.#active?.turnId;
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
    if (this.#active !== undefined) throw new ThreadSessionError('TurnInProgress', `turn ${this.#active.turnId} is still running; interrupt or steer it`);
    const turnId = options.turnId ?? newTurnId(this.#uuid);
    const active = { turnId, controller: new AbortController(), steered: [] as ResponseItem[] };
    this.#active = active;
    const { recorder, extensions } = this.#options;
    const config = this.#config;
    const emit = (event: CoreEvent) => this.#emit(event);
    try {
      extensions.beginTurn(turnId);
      const settings = this.#settings();
      const context: ResponseItem[] =
        this.#lastSettings === undefined ? await this.#initialContext(settings) : contextUpdates(this.#lastSettings, settings);
      const fragments = await extensions.turnFragments(this.threadId, config.cwd, turnId);
      context.push(...fragments.map((fragment): ResponseItem => ({ type: 'message', role: fragment.role, content: [{ type: 'input_text', text: fragment.text }] })));
      const world = await extensions.worldState(this.threadId, turnId);
      context.push(...world.changes.map((change): ResponseItem => ({ type: 'message', role: 'developer', content: [{ type: 'input_text', text: change.text }] })));
      const turnInput = [
        ...(await userInputToItems(input, this.#options.reader, config.cwd)),
        ...(await extensions.turnInput(this.threadId, turnId, input, [{ id: 'local', cwd: config.cwd }])),
      ];
      const router = new ToolRouter([...this.#builtInTools(), ...(await extensions.tools(this.threadId, config.cwd))]);
      const identity = turnRequestMetadata({
        sessionId: this.#options.sessionId ?? this.threadId,
        threadId: this.threadId,
        turnId,
        rootTurnId: turnId,
        windowNumber: 0,
        threadSource: this.#options.threadSource ?? 'user',
        sandboxMode: config.sandboxMode,
        model: this.#model.slug,
        reasoningEffort: config.modelReasoningEffort ?? this.#model.defaultReasoningEffort,
        turnStartedAtMs: this.#options.clock.now().getTime(),
        originator: this.#options.originator ?? 'skein',
        userAgent: this.#options.userAgent ?? 'skein',
        ...(options.clientMetadata === undefined ? {} : { extraClientMetadata: options.clientMetadata }),
      });
      const outcome = await runTurn(
        {
          client: this.#options.client,
          history: this.history,
          router,
          model: this.#model,
          request: {
            reasoningEffort: config.modelReasoningEffort,
            reasoningSummary: config.modelReasoningSummary,
            verbosity: config.modelVerbosity,
            promptCacheKey: this.threadId,
            clientMetadata: identity.clientMetadata,
            stripItemMetadata: config.modelProvider.id !== 'openai',
            ...(options.outputSchema === undefined ? {} : { outputSchema: options.outputSchema }),
          },
          emit,
          now: this.#options.clock.monotonicMs,
        },
        {
          turnId,
          context,
          // Codex's order: context items, world state, turn_context, then the user's input.
          onContextRecorded: () => {
            // Only now has the model's view changed; a turn that failed earlier leaves it as it was.
            this.#lastSettings = settings;
            if (world.records.length > 0) recorder.recordWorldState(world.records);
            recorder.recordTurnContext({
              turnId,
              cwd: config.cwd,
              model: this.#model.slug,
              approvalPolicy: settings.permissions.approvalPolicy,
              sandboxPolicy: sandboxPolicyFromConfig(config),
              reasoningEffort: config.modelReasoningEffort ?? this.#model.defaultReasoningEffort,
              reasoningSummary: config.modelReasoningSummary,
              currentDate: settings.environment.currentDate,
              timezone: settings.environment.timezone,
            });
          },
          input: turnInput,
          signal: active.controller.signal,
          headers: identity.headers,
          takeSteeredInput: () => active.steered.splice(0),
        },
      );
      this.#active = undefined;
      await recorder.flush();
      return outcome;
    } finally {
      this.#active = undefined;
    }
  }

  /**
   * Continues a thread from its recorded history (resume, fork). `baseline` is what its last turn
   * ran with (the rollout's reference turn context): the next turn tells the model only what differs
   * from it. Without a baseline (none recorded, or a compaction replaced the history it described),
   * the next turn sends the full initial context again.
   */
  restore(items: readonly ResponseItem[], baseline: RecordedTurnSettings | undefined, tokenUsage: TokenUsageBreakdown = NO_TOKENS): void {
    this.history.replace(items);
    this.#tokenUsage = tokenUsage;
    this.#lastSettings = items.length === 0 || baseline === undefined ? undefined : this.#settingsFrom(baseline);
  }

  /** Ends the thread's commands (every live exec session is killed). */
  async close(): Promise<void> {
    await Promise.all([...this.#sessionsByEnvironment.values()].map((sessions) => sessions.closeAll()));
  }

  /** Interrupts the running turn; it ends as `interrupted` once in-flight work stops. */
  interrupt(): void {
    if (this.#active === undefined) throw new ThreadSessionError('NoActiveTurn', 'no turn is running');
    this.#active.controller.abort();
  }

  /** Adds input to the running turn; the model sees it with its next request. */
  async steer(input: readonly UserInput[]): Promise<void> {
    const active = this.#active;
    if (active === undefined) throw new ThreadSessionError('NoActiveTurn', 'no turn is running to steer');
    const items = await userInputToItems(input, this.#options.reader, this.#config.cwd);
    // The turn may have ended while the input was read; accepting it then would lose it.
    if (this.#active !== active) throw new ThreadSessionError('NoActiveTurn', 'the turn ended before the input could be added');
    active.steered.push(...items);
  }

  #emit(event: CoreEvent): void {
    this.#options.recorder.recordEvent(event);
    this.#options.onEvent(event);
    if (event.type === 'tokenUsage') {
      const last = breakdownOf(event.usage);
      this.#tokenUsage = addUsage(this.#tokenUsage, last);
      this.#emit({ type: 'threadTokenUsage', turnId: event.turnId, last, total: this.#tokenUsage, modelContextWindow: effectiveContextWindow(this.#model) });
    }
  }

  /** Tokens used since the thread began (restored on resume). */
  get tokenUsage(): TokenUsageBreakdown {
    return this.#tokenUsage;
  }

  /**
   * Moves later turns to another environment (or to none: no built-in tools). Sessions started on
   * the old one keep running until the thread ends; approvals given there do not carry over.
   */
  useEnvironment(environment: ThreadEnvironment | undefined): void {
    this.#environment = environment;
  }

  /** The command sessions of the current environment. */
  get #commands(): UnifiedExecSessions | undefined {
    const environment = this.#environment;
    if (environment === undefined) return undefined;
    const id = environment.id ?? 'local';
    let sessions = this.#sessionsByEnvironment.get(id);
    if (sessions === undefined) {
      sessions = new UnifiedExecSessions({
        processes: environment.processes,
        env: shellEnvironment(this.#config.shellEnvironmentPolicy, environment.env),
        defaultShell: environment.shell,
        monotonicMs: this.#options.clock.monotonicMs,
        onEvent: (event) => this.#onCommandEvent(event),
      });
      this.#sessionsByEnvironment.set(id, sessions);
    }
    return sessions;
  }

  /** exec_command, write_stdin and apply_patch, acting in the thread's environment under its sandbox. */
  #builtInTools(): ToolHandler[] {
    const environment = this.#environment;
    const commands = this.#commands;
    if (environment === undefined || commands === undefined) return [];
    const { clock } = this.#options;
    const config = this.#config;
    const cwd = PathUri.fromNativePath(config.cwd, 'posix');
    const sandbox = sandboxContextFor(config, config.cwd);
    const approvals = this.#approvals;
    const model = this.#model;
    const { features } = config;
    // Commands need the shell tool and unified exec (Codex's `shell_tool` / `unified_exec` features).
    const commandTools = features.isEnabled('shell_tool') && features.isEnabled('unified_exec');
    // Codex's order: exec_command, write_stdin, request_user_input, apply_patch, view_image.
    return [
      ...(commandTools ? [execCommandTool({ sessions: commands, turnContext: () => ({ cwd, sandbox }), approvals }), writeStdinTool({ sessions: commands })] : []),
      requestUserInputTool({ client: this.#options.clientRequests }),
      applyPatchTool({
        fs: environment.fileSystem,
        cwd,
        now: clock.monotonicMs,
        sandbox,
        authorize: (changes, invocation) => approvals.authorizePatch({ turnId: invocation.turnId, callId: invocation.callId, changes }, invocation.signal),
        onChanges: (changes, callId, success, output) => this.#emit({ type: 'patchApplied', turnId: this.#active?.turnId ?? '', callId, changes, success, output }),
      }),
      ...(model.supportsImageInput && features.isEnabled('view_image')
        ? [
            viewImageTool({
              fs: environment.fileSystem,
              cwd,
              sandbox,
              detail: model.supportsImageDetailOriginal ? 'original' : 'high',
              onViewed: (path, callId) => this.#emit({ type: 'imageViewed', turnId: this.#active?.turnId ?? '', callId, path }),
            }),
          ]
        : []),
    ];
  }

  #onCommandEvent(event: UnifiedExecEvent): void {
    const userShellTurn = this.#userShellCalls.get(event.callId);
    const turnId = userShellTurn ?? this.#active?.turnId ?? '';
    const source = userShellTurn === undefined ? 'agent' : 'userShell';
    switch (event.type) {
      case 'begin':
        this.#emit({ type: 'commandStarted', turnId, callId: event.callId, command: event.command, cmd: event.cmd, cwd: event.cwd.toNativePath('posix'), source });
        break;
      case 'outputDelta':
        this.#emit({ type: 'commandOutputDelta', turnId, callId: event.callId, chunk: Buffer.from(event.chunk).toString('utf8') });
        break;
      case 'end':
        this.#emit({
          type: 'commandCompleted',
          turnId,
          callId: event.callId,
          command: event.command,
          argv: event.argv,
          cwd: event.cwd.toNativePath('posix'),
          processId: String(event.sessionId),
          exitCode: event.exitCode,
          aggregatedOutput: event.aggregatedOutput,
          durationMs: event.durationMs,
          source,
        });
        break;
    }
  }

  /** The settings an earlier turn recorded, as the model was told them. */
  #settingsFrom(baseline: RecordedTurnSettings): TurnSettings {
    const current = this.#settings();
    const policy = CoreSandboxPolicy.safeParse(baseline.sandboxPolicy);
    // A policy this version cannot read is taken as unchanged rather than re-announced on every resume.
    const permissions = policy.success ? permissionsForPolicy(policy.data, baseline.approvalPolicy ?? current.permissions.approvalPolicy, baseline.cwd) : undefined;
    return {
      permissions: permissions?.facts ?? current.permissions,
      environment: {
        ...current.environment,
        cwd: baseline.cwd,
        workspaceRoots: [baseline.cwd],
        ...(baseline.currentDate === undefined ? {} : { currentDate: baseline.currentDate }),
        ...(baseline.timezone === undefined ? {} : { timezone: baseline.timezone }),
        ...(permissions === undefined ? {} : { permissionProfile: permissions.profile }),
      },
    };
  }

  #settings(): TurnSettings {
    const { host, clock } = this.#options;
    const config = this.#config;
    const permissions = threadPermissions(config, config.cwd);
    return {
      permissions: permissions.facts,
      environment: {
        cwd: config.cwd,
        shell: host.shell,
        currentDate: localDate(clock.now(), host.timezone),
        timezone: host.timezone,
        workspaceRoots: [config.cwd],
        permissionProfile: permissions.profile,
      },
    };
  }

  async #initialContext(settings: TurnSettings): Promise<ResponseItem[]> {
    const { extensions, reader, host } = this.#options;
    const config = this.#config;
    const fragments = await extensions.threadFragments(this.threadId, config.cwd);
    const items = buildInitialContext({
      permissions: settings.permissions,
      developerParts: fragments.filter((fragment) => fragment.role === 'developer').map((fragment) => fragment.text),
      agentsMd: await discoverAgentsMd(reader, { homeDir: config.homeDir, projectRoot: host.projectRoot, cwd: config.cwd }),
      projectDocMaxBytes: config.projectDocMaxBytes,
      environment: settings.environment,
    });
    const userFragments = fragments.filter((fragment) => fragment.role === 'user');
    if (userFragments.length > 0) {
      items.push({ type: 'message', role: 'user', content: userFragments.map((fragment) => ({ type: 'input_text', text: fragment.text })) });
    }
    return items;
  }
}
