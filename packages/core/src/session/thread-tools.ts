// A thread's tools: the built-in tools, bound to the thread's services, and extension tools, planned
// once and again only when an input of the plan changes (features, model, environment, cwd).
import type { Config } from '@skein/config';
import type { NamespaceToolHandler, ToolEnvironment, ToolHandler } from '@skein/extension-api';
import type { ExtensionHost } from '../extensions/extension-host.js';
import type { McpHostEnv } from '@skein/mcp-client';
import { ThreadMcp } from '../mcp/thread-mcp.js';
import { ToolSearchIndex } from '../tools/tool-search/tool-search-index.js';
import type { DeferredToolEntry } from '../tools/tool-search/tools-fragment.js';
import type { ModelInfo } from '../model/model-catalog.js';
import { getContextRemainingTool } from '../tools/context-remaining/get-context-remaining-tool.js';
import { applyPatchTool } from '../tools/apply-patch/apply-patch-tool.js';
import { requestUserInputTool } from '../tools/request-user-input/request-user-input-tool.js';
import { planTools, type BuiltInToolFactory, type ToolContribution } from '../tools/tool-plan.js';
import { ToolRouter, toolName, type DeferredToolSource } from '../tools/tool-router.js';
import { CodeModeCells } from '../tools/code-mode/code-mode-cells.js';
import { codeModePlan } from '../tools/code-mode/code-mode-plan.js';
import { truncateMiddle } from '../history/truncate-output.js';
import { ITEM_ID_PREFIXES, randomUuidV7, type AdditionalToolsItem, type ResponseItem } from '@skein/protocol';
import { execCommandTool } from '../tools/unified-exec/exec-command-tool.js';
import type { UnifiedExecSessions } from '../tools/unified-exec/unified-exec-sessions.js';
import { writeStdinTool } from '../tools/unified-exec/write-stdin-tool.js';
import { viewImageTool } from '../tools/view-image/view-image-tool.js';
import { waitForEnvironmentTool } from '../tools/wait-for-environment/wait-for-environment-tool.js';
import type { CoreEvent } from '../turn/core-event.js';
import { TurnDiffTracker } from '../turn/turn-diff.js';
import type { ClientRequests } from './client-requests.js';
import type { EnvironmentWait } from './thread-environment.js';

/** The thread services tools are bound to. */
export interface ThreadToolsOptions {
  readonly threadId: string;
  readonly extensions: ExtensionHost;
  readonly clientRequests: ClientRequests | undefined;
  readonly monotonicMs: () => number;
  readonly emit: (event: CoreEvent) => void;
  /** The tokens the thread's context window has left (get_context_remaining's answer). */
  readonly contextRemaining: () => number;
  /** The command sessions of a call's environment. */
  sessionsFor(environment: ToolEnvironment): UnifiedExecSessions;
  /** wait_for_environment's wait on a selected environment. */
  waitForEnvironment(environmentId: string, signal: AbortSignal): Promise<EnvironmentWait>;
  /** The `collaboration` namespace, when the thread is part of an agent tree that offers it. */
  readonly collaboration?: NamespaceToolHandler | undefined;
  /** Where MCP servers read `env_vars` and tokens from (none when not given). */
  readonly mcpEnv?: McpHostEnv | undefined;
  /** Milliseconds since the epoch, for item times. */
  readonly now: () => number;
  /** The thread's settings now (MCP approvals read its policy and sandbox). */
  readonly config: () => Config;
  /** The running turn, if any. */
  readonly activeTurnId: () => string | undefined;
  /** get_goal, create_goal and update_goal, offered when the `goals` feature is on. */
  readonly goalTools?: readonly ToolHandler[] | undefined;
  /** Whether the thread is a sub-agent (code mode's `_async` tools reach a user, which it has not). */
  readonly subAgent?: boolean | undefined;
  /** Adds items to the model's input (with the running turn's next request): a cell's notify(). */
  readonly inject?: ((items: readonly ResponseItem[]) => Promise<void>) | undefined;
}

/** One notify() as the model reads it, at most (a cell may call it often). */
const NOTIFY_MAX_TOKENS = 2_000;

interface PlanKey {
  readonly features: Config['features'];
  /** Undefined where the provider cannot run hosted tools. */
  readonly webSearch: Config['webSearch'] | undefined;
  readonly model: ModelInfo;
  readonly hasEnvironment: boolean;
  readonly environmentChoice: boolean;
  readonly cwd: string;
  readonly mcp: boolean;
  readonly codeMode: Config['codeMode'];
}

/** The tool plan of one thread, and the router over it. */
export class ThreadTools {
  readonly #options: ThreadToolsOptions;
  readonly #builtIns: BuiltInToolFactory;
  #planned: { readonly key: PlanKey; readonly router: Promise<ToolRouter> } | undefined;
  /** The thread's MCP servers and the tools made of them. */
  readonly mcp: ThreadMcp;
  /** tool_search's index, kept across turns while the deferred tools stay the same. */
  readonly searchIndex = new ToolSearchIndex();
  /** The deferred tools of the last plan (outside MCP), for the `<tools>` part. */
  #deferred: readonly DeferredToolEntry[] = [];
  /** Code mode's cells, made when a code-mode model first plans its tools. */
  #cells: CodeModeCells | undefined;

  constructor(options: ThreadToolsOptions) {
    this.#options = options;
    this.#builtIns = builtInTools(options);
    this.mcp = new ThreadMcp({ env: options.mcpEnv ?? {}, emit: options.emit, now: options.now, approvals: { config: options.config, client: options.clientRequests, allowedForSession: new Set() }, activeTurnId: options.activeTurnId });
  }

  /** What tool_search can find, as the `<tools>` part lists it: MCP namespaces, then the plan's other deferred tools. */
  deferredEntries(): DeferredToolEntry[] {
    return [...this.mcp.namespaceNames().map((name) => ({ name })), ...this.#deferred];
  }

  /** The router for a turn under `config` with `model`; planned again only when an input changed. */
  /** The tools for this config and model; `environmentChoice` when two or more environments are attached. */
  router(config: Config, model: ModelInfo, hasEnvironment: boolean, environmentChoice = false): Promise<ToolRouter> {
    this.mcp.use(config);
    const webSearch = config.modelProvider.runsHostedTools ? config.webSearch : undefined;
    const key: PlanKey = { features: config.features, webSearch, model, hasEnvironment, environmentChoice, cwd: config.cwd, mcp: this.mcp.hasServers, codeMode: config.codeMode };
    const planned = this.#planned;
    if (planned !== undefined && sameKey(planned.key, key)) return planned.router;
    const router = this.#plan(key);
    // Set before the plan settles, so concurrent callers share it; #plan clears it again when incomplete.
    this.#planned = { key, router };
    // A plan that failed is tried again by the next turn.
    router.catch(() => {
      if (this.#planned?.router === router) this.#planned = undefined;
    });
    return router;
  }

  async #plan(key: PlanKey): Promise<ToolRouter> {
    const { extensions, threadId, emit } = this.#options;
    const { contributions, complete }: { contributions: ToolContribution[]; complete: boolean } = await extensions.toolContributions(threadId, key.cwd);
    const plan = planTools({
      features: key.features,
      webSearch: key.webSearch,
      model: key.model,
      hasEnvironment: key.hasEnvironment,
      environmentChoice: key.environmentChoice,
      builtIns: this.#builtIns,
      collaboration: this.#options.collaboration,
      // Code mode lists the resource tools among cells' tools even without servers, as Codex does.
      mcpResources: key.mcp || key.model.toolMode === 'code_mode_only' ? this.mcp.resourceTools() : [],
      goals: this.#options.goalTools,
      deferredSource: key.mcp,
      contributions,
    });
    for (const message of plan.warnings) emit({ type: 'warning', message });
    this.#deferred = plan.tools.flatMap((tool) => (tool.exposure !== 'deferred' ? [] : [{ name: tool.kind === 'namespace' ? tool.name : tool.spec.name, description: tool.kind === 'namespace' ? tool.description : tool.spec.description }]));
    const router = key.model.toolMode === 'code_mode_only' ? this.#codeModeRouter(plan.tools, key.codeMode) : new ToolRouter(plan.tools, { hosted: plan.hosted, deferredSource: this.mcp.source, searchIndex: this.searchIndex });
    // A contributor that failed is asked again next turn: one bad moment must not cost the thread its tools.
    if (!complete) this.#planned = undefined;
    return router;
  }

  /** A code-mode model's router: exec, wait and the rest offered as `additional_tools`, every other tool called from cells. */
  #codeModeRouter(planned: readonly ToolHandler[], settings: Config['codeMode']): ToolRouter {
    const cells = (this.#cells ??= new CodeModeCells());
    const { inject } = this.#options;
    // notify(text) reaches the model as another output of the exec call, with its next request (as Codex's).
    const notify = (callId: string, text: string) => void inject?.([{ type: 'custom_tool_call_output', call_id: callId, name: 'exec', output: truncateMiddle(text, NOTIFY_MAX_TOKENS) }]);
    const { emit, now, subAgent } = this.#options;
    const plan = codeModePlan(planned, { cells, now, dynamic: () => this.mcp.source.current(), notify, settings, activeTurnId: this.#options.activeTurnId, userMessages: subAgent === true ? undefined : { emit, now } });
    for (const message of plan.warnings) emit({ type: 'warning', message });
    // One item (one id) for as long as what it offers stays the same.
    let offered: { readonly item: AdditionalToolsItem; readonly json: string } | undefined;
    const additionalTools = (): AdditionalToolsItem => {
      const tools = plan.additionalTools();
      const json = JSON.stringify(tools);
      if (offered?.json !== json) offered = { item: { type: 'additional_tools', id: `${ITEM_ID_PREFIXES.additional_tools}${randomUuidV7()}`, role: 'developer', tools: [...tools] }, json };
      return offered.item;
    };
    // A namespace kept from code mode is kept from the router too: the model cannot call it by name.
    const excluded = new Set(settings.excludedToolNamespaces);
    const allowed = (tools: readonly ToolHandler[]) => tools.filter((tool) => !excluded.has(toolName(tool)));
    const source = this.mcp.source;
    const deferredSource: DeferredToolSource = { current: () => allowed(source.current()), settled: async (signal) => allowed(await source.settled(signal)) };
    return new ToolRouter(plan.handlers, { deferredSource, searchIndex: this.searchIndex, additionalTools });
  }

  /** Ends the thread's running cells (an interrupted turn). */
  async terminateCells(): Promise<void> {
    await this.#cells?.terminateAll();
  }

  /** Stops what the tools keep running: MCP servers and the code-mode host. */
  async close(): Promise<void> {
    await Promise.all([this.mcp.close(), this.#cells?.close()]);
  }
}

function sameKey(a: PlanKey, b: PlanKey): boolean {
  return a.features === b.features && a.webSearch === b.webSearch && a.model === b.model && a.hasEnvironment === b.hasEnvironment && a.environmentChoice === b.environmentChoice && a.cwd === b.cwd && a.mcp === b.mcp && a.codeMode === b.codeMode;
}

/** The built-in tools, each made once and reused by every plan that offers it. */
function builtInTools(options: ThreadToolsOptions): BuiltInToolFactory {
  const { emit } = options;
  const once = <T>(make: () => T) => {
    let made: T | undefined;
    return () => (made ??= make());
  };
  const viewImage = new Map<'original' | 'high', ReturnType<typeof viewImageTool>>();
  const applyPatch = new Map<boolean, ReturnType<typeof applyPatchTool>>();
  const turnDiff = new TurnDiffTracker();
  return {
    execCommand: once(() => execCommandTool({ sessionsFor: (environment) => options.sessionsFor(environment) })),
    writeStdin: once(() => writeStdinTool({ sessionsFor: (environment) => options.sessionsFor(environment) })),
    requestUserInput: once(() => requestUserInputTool({ client: options.clientRequests })),
    getContextRemaining: once(() => getContextRemainingTool({ remaining: options.contextRemaining })),
    waitForEnvironment: once(() => waitForEnvironmentTool({ waitFor: (environmentId, signal) => options.waitForEnvironment(environmentId, signal) })),
    applyPatch: (environmentChoice) => {
      let tool = applyPatch.get(environmentChoice);
      if (tool === undefined) {
        tool = applyPatchTool({
          now: options.monotonicMs,
          environmentChoice,
          onChanges: (changes, context, success, output) => emit({ type: 'patchApplied', turnId: context.turnId, callId: context.callId, changes, success, output }),
          onApplied: (files, context, cwd) => emit({ type: 'turnDiffUpdated', turnId: context.turnId, diff: turnDiff.record(context.turnId, cwd, files) }),
        });
        applyPatch.set(environmentChoice, tool);
      }
      return tool;
    },
    viewImage: (detail) => {
      let tool = viewImage.get(detail);
      if (tool === undefined) {
        tool = viewImageTool({ detail, onViewed: (path, context) => emit({ type: 'imageViewed', turnId: context.turnId, callId: context.callId, path }) });
        viewImage.set(detail, tool);
      }
      return tool;
    },
  };
}
