// What a turn tells the model before the user's input: the full initial context on a thread's first
// turn (or after a resume without a baseline), else only what changed since the last turn; then
// extension fragments and world-state changes. Records the turn's settings once the model saw them.
import { findModelInfo } from '../model/model-catalog.js';
import type { Config } from '@skein/config';
import { CoreSandboxPolicy, type ResponseItem, type UserInput } from '@skein/protocol';
import { defaultWorkspaceRoots, sandboxPolicyFromConfig } from '@skein/sandboxing';
import type { ContextWindow } from '../compaction/context-window.js';
import { agentsMdInstructions, type AgentsMdInstructions } from '../context/agents-md.js';
import { discoverAgentsMd, type AgentsMdPlace } from '../context/agents-md-discovery.js';
import { localDate, renderEnvironmentsUpdate, type AttachedEnvironmentContext, type EnvironmentContext } from '../context/environment-context.js';
import { agentModeMessage, sameMultiAgentMode, type MultiAgentMode } from '../agents/agent-instructions.js';
import { buildInitialContext, contextUpdates } from '../context/initial-context.js';
import type { PermissionsFacts } from '../context/permissions-instructions.js';
import type { ExtensionHost } from '../extensions/extension-host.js';
import type { ModelInfo } from '../model/model-catalog.js';
import { renderToolsFragment, type DeferredToolEntry } from '../tools/tool-search/tools-fragment.js';
import { renderCollaborationMode } from '../context/collaboration-mode.js';
import { permissionsForPolicy, threadPermissions } from './permissions.js';
import type { ThreadRecorder } from './thread-recorder.js';
import { userInputToItems } from './user-input-items.js';
import type { WorkspaceReader } from './workspace-reader.js';

/** Facts about the machine the thread runs on, read once at the edge. */
export interface HostFacts {
  readonly shell: string;
  readonly timezone: string;
}

/** What a thread's last turn recorded about its settings (from the rollout's `turn_context`). */
export interface RecordedTurnSettings {
  readonly cwd: string;
  readonly approvalPolicy?: string | undefined;
  readonly sandboxPolicy?: unknown;
  readonly currentDate?: string | undefined;
  readonly timezone?: string | undefined;
  /** Its workspace roots, when they were not the defaults for its cwd. */
  readonly workspaceRoots?: readonly string[] | undefined;
  /** Its delegation mode, for a thread of an agent tree. */
  readonly multiAgentMode?: MultiAgentMode | undefined;
}

interface TurnSettings {
  readonly environment: EnvironmentContext;
  readonly permissions: PermissionsFacts;
  /** The delegation mode the model is told (a thread of an agent tree only). */
  readonly multiAgentMode: MultiAgentMode | undefined;
}

/** A turn's opening: context items, the user's input as items, and the hook that records settings. */
export interface AssembledTurn {
  readonly context: ResponseItem[];
  readonly input: ResponseItem[];
  /** Call once the context is recorded: the settings become the baseline and the rollout gets `turn_context`. */
  readonly onContextRecorded: () => void;
}

/** What assembly reads from. */
export interface TurnContextAssemblyOptions {
  readonly threadId: string;
  readonly extensions: ExtensionHost;
  readonly reader: WorkspaceReader;
  readonly recorder: ThreadRecorder;
  readonly host: HostFacts;
  readonly now: () => Date;
  /** The token budget's lineage message of a window (the current one when undefined), if the budget is on. */
  readonly lineage?: ((config: Config, window: ContextWindow | undefined) => ResponseItem | undefined) | undefined;
  /**
   * The selected environments in selection order, as the model is told them: the first works in the
   * thread's `cwd`; a ready one's shell defaults to `hostShell`.
   */
  readonly attachedEnvironments?: ((cwd: string, hostShell: string) => readonly AttachedEnvironmentContext[]) | undefined;
  /** The `<environments_instructions>` developer part, when the thread may have environments still connecting. */
  readonly environmentsInstructions?: ((config: Config) => string | undefined) | undefined;
  /** Where each attached environment's AGENTS.md files are looked for, the primary first. */
  readonly agentsMdPlaces: (config: Config) => readonly AgentsMdPlace[];
  /** The workspace roots the client named for the thread's cwd; the defaults (cwd, `writable_roots`) when undefined. */
  readonly workspaceRoots?: (() => readonly string[] | undefined) | undefined;
  /** For a thread of an agent tree: the message that tells it its role, and its delegation mode now. */
  readonly agent?: { readonly role: (config: Config) => ResponseItem; readonly mode: () => MultiAgentMode } | undefined;
  /** What tool_search can find, listed in the `<tools>` part of the first developer message. */
  readonly deferredTools?: (() => readonly DeferredToolEntry[]) | undefined;
}

/** Assembles each turn's context for one thread, remembering what the model was last told. */
export class TurnContextAssembly {
  readonly #options: TurnContextAssemblyOptions;
  #lastSettings: TurnSettings | undefined;

  constructor(options: TurnContextAssemblyOptions) {
    this.#options = options;
  }

  /** The context and input of turn `turnId` under `config` with `model`. */
  async assemble(config: Config, model: ModelInfo, turnId: string, input: readonly UserInput[]): Promise<AssembledTurn> {
    const { extensions, threadId, recorder } = this.#options;
    const settings = this.#settings(config);
    const last = this.#lastSettings;
    const context: ResponseItem[] = last === undefined ? await this.#initialContext(config, settings) : contextUpdates(last, settings);
    // A changed delegation mode is told again, as Codex tells it: a new `<multi_agent_mode>` message.
    if (last !== undefined && settings.multiAgentMode !== undefined && !sameMultiAgentMode(last.multiAgentMode, settings.multiAgentMode)) context.push(agentModeMessage(settings.multiAgentMode));
    const fragments = await extensions.turnFragments(threadId, config.cwd, turnId);
    context.push(...fragments.map((fragment): ResponseItem => ({ type: 'message', role: fragment.role, content: [{ type: 'input_text', text: fragment.text }] })));
    const world = await extensions.worldState(threadId, config.cwd, turnId);
    context.push(...world.changes.map((change): ResponseItem => ({ type: 'message', role: 'developer', content: [{ type: 'input_text', text: change.text }] })));
    const turnInput = [
      ...(await userInputToItems(input, this.#options.reader, config.cwd, { localImageDetail: findModelInfo(config.model).supportsImageDetailOriginal ? 'original' : undefined })),
      ...(await extensions.turnInput(threadId, config.cwd, turnId, input)),
    ];
    return {
      context,
      input: turnInput,
      // Codex's order: context items, world state, turn_context, then the user's input.
      onContextRecorded: () => {
        // Only now has the model's view changed; a turn that failed earlier leaves it as it was.
        this.#lastSettings = settings;
        if (world.records.length > 0) recorder.recordWorldState(world.records);
        this.#recordTurnContext(config, model, turnId, settings);
      },
    };
  }

  /**
   * The context that opens a compacted window: the full initial context under `config` (extensions'
   * thread fragments included) and every world-state section in full, since the history that told
   * the model about them is gone. Call `onReplaced` once the history is replaced: later turns then
   * tell the model only what changes from here. `window` is the window the compaction opens.
   */
  async compactionContext(config: Config, turnId: string, window?: ContextWindow): Promise<{ readonly items: ResponseItem[]; readonly onReplaced: () => void }> {
    const { extensions, threadId, recorder } = this.#options;
    const settings = this.#settings(config);
    const items = await this.#initialContext(config, settings, window);
    extensions.resetWorldState();
    const world = await extensions.worldState(threadId, config.cwd, turnId);
    items.push(...world.changes.map((change): ResponseItem => ({ type: 'message', role: 'developer', content: [{ type: 'input_text', text: change.text }] })));
    return {
      items,
      onReplaced: () => {
        this.#lastSettings = settings;
        if (world.records.length > 0) recorder.recordWorldState(world.records);
      },
    };
  }

  /**
   * The update to append before a sampling request when the environments changed since the model
   * was last told (one finished connecting mid-turn, or failed to): the changed environments only.
   * Undefined when nothing changed, or when the model has been told nothing yet. Once returned, the
   * model counts as told: later requests and turns do not repeat it.
   */
  environmentUpdate(config: Config): ResponseItem | undefined {
    const last = this.#lastSettings;
    if (last === undefined) return undefined;
    const current = this.#settings(config).environment;
    const text = renderEnvironmentsUpdate(last.environment, current);
    if (text === undefined) return undefined;
    this.#lastSettings = { ...last, environment: { ...last.environment, shell: current.shell, environments: current.environments } };
    return { type: 'message', role: 'user', content: [{ type: 'input_text', text }] };
  }

  /** Whether the next turn opens with the full initial context (the model has been told nothing yet). */
  get needsInitialContext(): boolean {
    return this.#lastSettings === undefined;
  }

  /**
   * The full initial context under `config`, for history that starts before any turn (a client's
   * injected items on a fresh thread follow it). Call `onRecorded` once it is recorded: the rollout
   * gets the `turn_context` a resume takes as its baseline (under `contextId`, which names no turn),
   * and the next turn tells the model only what changed.
   */
  async openingContext(config: Config, model: ModelInfo, contextId: string): Promise<{ readonly items: ResponseItem[]; readonly onRecorded: () => void }> {
    const settings = this.#settings(config);
    const items = await this.#initialContext(config, settings);
    return {
      items,
      onRecorded: () => {
        this.#lastSettings = settings;
        this.#recordTurnContext(config, model, contextId, settings);
      },
    };
  }

  #recordTurnContext(config: Config, model: ModelInfo, turnId: string, settings: TurnSettings): void {
    const roots = settings.environment.workspaceRoots;
    const named = !sameList(roots, defaultWorkspaceRoots(config, config.cwd));
    this.#options.recorder.recordTurnContext({
      turnId,
      cwd: config.cwd,
      model: model.slug,
      approvalPolicy: settings.permissions.approvalPolicy,
      sandboxPolicy: sandboxPolicyFromConfig(config),
      reasoningEffort: config.modelReasoningEffort ?? model.defaultReasoningEffort,
      reasoningSummary: config.modelReasoningSummary,
      currentDate: settings.environment.currentDate,
      timezone: settings.environment.timezone,
      ...(named ? { workspaceRoots: roots } : {}),
      ...(settings.multiAgentMode === undefined ? {} : { multiAgentMode: settings.multiAgentMode }),
    });
  }

  /**
   * Continues from recorded history. `baseline` is what its last turn ran with: the next turn tells
   * the model only what differs from it; without one (or without history) it sends the full context.
   */
  restore(config: Config, hasHistory: boolean, baseline: RecordedTurnSettings | undefined): void {
    this.#lastSettings = !hasHistory || baseline === undefined ? undefined : this.#settingsFrom(config, baseline);
  }

  /** The settings an earlier turn recorded, as the model was told them. */
  #settingsFrom(config: Config, baseline: RecordedTurnSettings): TurnSettings {
    const current = this.#settings(config);
    const policy = CoreSandboxPolicy.safeParse(baseline.sandboxPolicy);
    const roots = baseline.workspaceRoots ?? defaultWorkspaceRoots(config, baseline.cwd);
    // A policy this version cannot read is taken as unchanged rather than re-announced on every resume.
    const permissions = policy.success ? permissionsForPolicy(policy.data, baseline.approvalPolicy ?? current.permissions.approvalPolicy, roots) : undefined;
    return {
      permissions: permissions?.facts ?? current.permissions,
      // A file that recorded no mode (older, or a thread outside any tree) is taken as told the current one.
      multiAgentMode: baseline.multiAgentMode ?? current.multiAgentMode,
      environment: {
        ...current.environment,
        cwd: baseline.cwd,
        workspaceRoots: roots,
        ...(baseline.currentDate === undefined ? {} : { currentDate: baseline.currentDate }),
        ...(baseline.timezone === undefined ? {} : { timezone: baseline.timezone }),
        ...(permissions === undefined ? {} : { permissionProfile: permissions.profile }),
      },
    };
  }

  #settings(config: Config): TurnSettings {
    const { host, now } = this.#options;
    const roots = this.#options.workspaceRoots?.() ?? defaultWorkspaceRoots(config, config.cwd);
    const permissions = threadPermissions(config, roots);
    const environments = this.#options.attachedEnvironments?.(config.cwd, host.shell) ?? [];
    const primary = environments.find((environment) => environment.status === 'ready');
    return {
      permissions: permissions.facts,
      multiAgentMode: this.#options.agent?.mode(),
      environment: {
        cwd: config.cwd,
        shell: primary?.status === 'ready' ? primary.shell : host.shell,
        ...(environments.length > 0 ? { environments } : {}),
        currentDate: localDate(now(), host.timezone),
        timezone: host.timezone,
        workspaceRoots: roots,
        permissionProfile: permissions.profile,
      },
    };
  }

  /** The thread's AGENTS.md instructions under `config`, read now from each attached environment. */
  async instructions(config: Config): Promise<AgentsMdInstructions> {
    const sources = await discoverAgentsMd({ reader: this.#options.reader, homeDir: config.homeDir, rootMarkers: config.projectRootMarkers, places: this.#options.agentsMdPlaces(config) });
    return agentsMdInstructions(config.cwd, sources, config.projectDocMaxBytes);
  }

  async #initialContext(config: Config, settings: TurnSettings, window?: ContextWindow): Promise<ResponseItem[]> {
    const { extensions, threadId } = this.#options;
    const fragments = await extensions.threadFragments(threadId, config.cwd);
    const codeMode = findModelInfo(config.model).toolMode === 'code_mode_only';
    const items = buildInitialContext({
      permissions: settings.permissions,
      developerParts: fragments.filter((fragment) => fragment.role === 'developer').map((fragment) => fragment.text),
      agentsMd: (await this.instructions(config)).text,
      environmentsInstructions: this.#options.environmentsInstructions?.(config),
      // A code-mode model calls every tool from its cells: nothing is deferred, and it gets the collaboration mode instead.
      ...(codeMode ? { collaborationMode: renderCollaborationMode() } : { toolsNote: renderToolsFragment(this.#options.deferredTools?.() ?? []) }),
      environment: settings.environment,
    });
    // Codex's order: the policy message, an agent's role and mode, then the lineage, then the user's context.
    const role = this.#options.agent?.role(config);
    const agent = role === undefined || settings.multiAgentMode === undefined ? [] : [role, agentModeMessage(settings.multiAgentMode)];
    const lineage = this.#options.lineage?.(config, window);
    items.splice(1, 0, ...agent, ...(lineage === undefined ? [] : [lineage]));
    const userFragments = fragments.filter((fragment) => fragment.role === 'user');
    if (userFragments.length > 0) {
      items.push({ type: 'message', role: 'user', content: userFragments.map((fragment) => ({ type: 'input_text', text: fragment.text })) });
    }
    return items;
  }
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}
