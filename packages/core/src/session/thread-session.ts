// One loaded thread: its history, settings and extensions, running one turn at a time. The first
// turn records the initial context; later turns add only what changed. Interrupt and steer reach
// the running turn.
import type { Config } from '@skein/config';
import { newTurnId, randomUuidV7, type ResponseItem, type UserInput, type UuidV7Source } from '@skein/protocol';
import { sandboxPolicyFromConfig } from '@skein/sandboxing';
import { DEFAULT_BASE_INSTRUCTIONS } from '../context/base-instructions.js';
import { discoverAgentsMd } from '../context/agents-md-discovery.js';
import { localDate, type EnvironmentContext } from '../context/environment-context.js';
import { buildInitialContext, contextUpdates } from '../context/initial-context.js';
import type { PermissionsFacts } from '../context/permissions-instructions.js';
import type { ExtensionHost } from '../extensions/extension-host.js';
import { ThreadHistory } from '../history/thread-history.js';
import type { ResponsesClient } from '../model-client/responses-client.js';
import { findModelInfo, type ModelInfo } from '../model/model-catalog.js';
import { ToolRouter } from '../tools/tool-router.js';
import type { CoreEvent } from '../turn/core-event.js';
import { runTurn, type TurnOutcome } from '../turn/run-turn.js';
import { threadPermissions } from './permissions.js';
import type { ThreadRecorder } from './thread-recorder.js';
import { userInputToItems } from './user-input-items.js';
import type { WorkspaceReader } from './workspace-reader.js';

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
}

/** Why a request to the session was refused. */
export class ThreadSessionError extends Error {
  override readonly name = 'ThreadSessionError';
  constructor(
    readonly code: 'TurnInProgress' | 'NoActiveTurn',
    message: string,
  ) {
    super(message);
  }
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
  readonly #model: ModelInfo;
  readonly #uuid: UuidV7Source;
  #lastSettings: TurnSettings | undefined;
  #active: { readonly turnId: string; readonly controller: AbortController; readonly steered: ResponseItem[] } | undefined;

  constructor(options: ThreadSessionOptions) {
    this.threadId = options.threadId;
    this.#options = options;
    this.#uuid = options.uuid ?? randomUuidV7;
    this.#model = findModelInfo(options.config.model, { contextWindow: options.config.modelContextWindow });
    this.history = new ThreadHistory({ toolOutputTokenLimit: 10_000, uuid: this.#uuid, onRecorded: (items) => options.recorder.recordItems(items) });
  }

  /** The id of the running turn, if any. */
  get activeTurnId(): string | undefined {
    return this.#active?.turnId;
  }

  /** Runs one user turn to its end. Refuses while another turn runs. */
  async runTurn(input: readonly UserInput[], options: { readonly outputSchema?: unknown } = {}): Promise<TurnOutcome> {
    if (this.#active !== undefined) throw new ThreadSessionError('TurnInProgress', `turn ${this.#active.turnId} is still running; interrupt or steer it`);
    const turnId = newTurnId(this.#uuid);
    const active = { turnId, controller: new AbortController(), steered: [] as ResponseItem[] };
    this.#active = active;
    const { config, recorder, extensions } = this.#options;
    const emit = (event: CoreEvent) => {
      recorder.recordEvent(event);
      this.#options.onEvent(event);
    };
    try {
      extensions.beginTurn(turnId);
      const settings = this.#settings();
      const context: ResponseItem[] =
        this.#lastSettings === undefined ? await this.#initialContext(settings) : contextUpdates(this.#lastSettings, settings);
      this.#lastSettings = settings;
      const fragments = await extensions.turnFragments(this.threadId, config.cwd, turnId);
      context.push(...fragments.map((fragment): ResponseItem => ({ type: 'message', role: fragment.role, content: [{ type: 'input_text', text: fragment.text }] })));
      const world = await extensions.worldState(this.threadId, turnId);
      context.push(...world.changes.map((change): ResponseItem => ({ type: 'message', role: 'developer', content: [{ type: 'input_text', text: change.text }] })));
      const turnInput = [
        ...(await userInputToItems(input, this.#options.reader, config.cwd)),
        ...(await extensions.turnInput(this.threadId, turnId, input, [{ id: 'local', cwd: config.cwd }])),
      ];
      const router = new ToolRouter(await extensions.tools(this.threadId, config.cwd));
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
            clientMetadata: { thread_id: this.threadId, turn_id: turnId },
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
          headers: { 'session-id': this.threadId, 'thread-id': this.threadId, 'x-client-request-id': this.threadId },
          takeSteeredInput: () => active.steered.splice(0),
        },
      );
      await recorder.flush();
      return outcome;
    } finally {
      this.#active = undefined;
    }
  }

  /**
   * Continues a thread from its recorded history (resume, fork). `lastCwd` is where its last turn ran:
   * the next turn sends a new environment context only if the thread now runs elsewhere.
   */
  restore(items: readonly ResponseItem[], lastCwd: string | undefined): void {
    this.history.replace(items);
    if (items.length === 0) return;
    const settings = this.#settings();
    this.#lastSettings = lastCwd === undefined || lastCwd === settings.environment.cwd ? settings : { ...settings, environment: { ...settings.environment, cwd: lastCwd } };
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
    active.steered.push(...(await userInputToItems(input, this.#options.reader, this.#options.config.cwd)));
  }

  #settings(): TurnSettings {
    const { config, host, clock } = this.#options;
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
    const { config, extensions, reader, host } = this.#options;
    const fragments = await extensions.threadFragments(this.threadId, config.cwd);
    const items = buildInitialContext({
      baseInstructions: this.#options.baseInstructions ?? config.baseInstructions ?? DEFAULT_BASE_INSTRUCTIONS,
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
