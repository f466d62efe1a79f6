// Runs the hooks one event selects: the thread's trusted command hooks and the extensions' hooks,
// all at once, each reported to the client as it starts and ends. What they decide is gathered in
// listing order: the first block wins, every context is kept. Async hooks run behind the turn and
// decide nothing. With no hook for an event the call costs one lookup.
import type { Contribution, HookContributor, HookEventName, HookInput } from '@skein/extension-api';
import { matcherSelects, type ConfiguredHook, type HookSource } from './discover-hooks.js';
import { kebabName, usesMatcher } from './hook-events.js';
import type { HookHandler } from './hook-trust.js';
import { commandHookResult, outputResult, type HookEntry, type HookResult } from './hook-result.js';
import { runCommandHook, type CommandHookExit, type CommandHookRun } from './run-command-hook.js';

/** One run, as `hook/started` and `hook/completed` report it (`HookRunSummary`). */
export interface HookRunSummary {
  readonly id: string;
  readonly eventName: HookEventName;
  readonly handlerType: 'command' | 'mcpTool';
  readonly executionMode: 'sync' | 'async';
  readonly scope: 'thread' | 'turn';
  readonly sourcePath: string;
  readonly source: HookSource;
  readonly displayOrder: number;
  readonly status: 'running' | 'completed' | 'failed' | 'blocked' | 'stopped';
  readonly statusMessage: string | null;
  /** Unix seconds. */
  readonly startedAt: number;
  readonly completedAt: number | null;
  readonly durationMs: number | null;
  readonly entries: readonly HookEntry[];
}

/** One event to run hooks for. */
export interface HookEventRequest {
  readonly event: HookEventName;
  readonly input: HookInput;
  /** What matchers are tested against (a tool's name). */
  readonly matchValue?: string | undefined;
  /** Appended to run ids (a tool call's id), so two calls' runs are told apart. */
  readonly runSuffix?: string | undefined;
  /** Where command hooks run. */
  readonly cwd: string;
  readonly signal: AbortSignal;
  /** Told of each run as it starts and as it ends. */
  readonly onRun?: ((phase: 'started' | 'completed', run: HookRunSummary) => void) | undefined;
}

/** What an event's hooks decided. */
export interface HookEventOutcome {
  /** The first blocking run's reason, in listing order. */
  readonly blocked: { readonly reason: string; readonly runId: string } | undefined;
  /** Context for the model, in listing order. */
  readonly contexts: readonly { readonly text: string; readonly runId: string }[];
  /** permissionRequest: some hook approved and none blocked. */
  readonly allowed: boolean;
  /** preToolUse: the input the first hook (in listing order) that rewrote it gave, when none blocked. */
  readonly updatedInput?: Readonly<Record<string, unknown>> | undefined;
  readonly runs: readonly HookRunSummary[];
}

/** What the engine runs with. */
export interface HookEngineOptions {
  readonly hooks: readonly ConfiguredHook[];
  readonly contributed?: readonly Contribution<HookContributor>[];
  /** `--dangerously-bypass-hook-trust`: run configured hooks whatever their trust status. */
  readonly bypassTrust?: boolean;
  /** The environment command hooks run with (the host's). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly now?: () => number;
  /** How command hooks are started (tests and benchmarks pass their own). */
  readonly runCommand?: (run: CommandHookRun) => Promise<CommandHookExit>;
  /** Runs a command hook an executor's project declared on that executor; without it such hooks fail. */
  readonly runCommandOn?: ((environmentId: string, run: CommandHookRun) => Promise<CommandHookExit>) | undefined;
  /** Calls a tool of one of the thread's MCP servers, for MCP tool hooks; without it they fail. */
  readonly callMcpTool?: ((call: McpToolHookCall) => Promise<McpToolHookAnswer>) | undefined;
}

/** One MCP tool hook's call: the tool, its configured arguments, and its deadline. */
export interface McpToolHookCall {
  readonly server: string;
  readonly tool: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
}

/** What the tool answered: its text content (read as a command hook's stdout) and whether it reported an error. */
export interface McpToolHookAnswer {
  readonly text: string;
  readonly isError: boolean;
}

/** A runnable hook of either kind. */
type Runnable =
  | { readonly kind: 'configured'; readonly hook: ConfiguredHook }
  | { readonly kind: 'extension'; readonly extensionId: string; readonly contributor: HookContributor; readonly displayOrder: number };

/** One finished run and what it decided beyond its entries. */
interface RunDecision {
  readonly run: HookRunSummary;
  readonly allowed: boolean;
  readonly updatedInput: Readonly<Record<string, unknown>> | undefined;
}

const NO_OUTCOME: HookEventOutcome = { blocked: undefined, contexts: [], runs: [], allowed: false };

/** The hooks of one thread. */
export class HookEngine {
  readonly #byEvent = new Map<HookEventName, Runnable[]>();
  readonly #options: HookEngineOptions;
  readonly #now: () => number;

  constructor(options: HookEngineOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    for (const hook of options.hooks) {
      // The bypass is for hook files the automation vets itself: an executor's project is not one of them.
      const bypassed = options.bypassTrust === true && hook.environmentId === null;
      const runnable = hook.enabled && (hook.trustStatus === 'trusted' || hook.trustStatus === 'managed' || bypassed);
      if (runnable) this.#add(hook.event, { kind: 'configured', hook });
    }
    for (const [index, { extensionId, contributor }] of (options.contributed ?? []).entries()) {
      this.#add(contributor.event, { kind: 'extension', extensionId, contributor, displayOrder: options.hooks.length + index });
    }
  }

  #add(event: HookEventName, runnable: Runnable): void {
    const list = this.#byEvent.get(event) ?? [];
    list.push(runnable);
    this.#byEvent.set(event, list);
  }

  /** Whether the event has any hook at all, whatever it would be about. */
  hasHooks(event: HookEventName): boolean {
    return (this.#byEvent.get(event)?.length ?? 0) > 0;
  }

  /** Whether any hook would run for `event` (on `matchValue`). */
  handles(event: HookEventName, matchValue?: string): boolean {
    return this.#selected(event, matchValue).length > 0;
  }

  #selected(event: HookEventName, matchValue: string | undefined): Runnable[] {
    const all = this.#byEvent.get(event);
    if (all === undefined) return [];
    // An event that reads no matcher (Stop, UserPromptSubmit, …) runs every hook it has.
    if (!usesMatcher(event)) return all;
    return all.filter((runnable) => matcherSelects(runnable.kind === 'configured' ? runnable.hook.matcher : runnable.contributor.matcher, matchValue));
  }

  /** Runs the event's hooks and gathers what they decided. */
  async run(request: HookEventRequest): Promise<HookEventOutcome> {
    const selected = this.#selected(request.event, request.matchValue);
    if (selected.length === 0) return NO_OUTCOME;
    const sync: Promise<RunDecision>[] = [];
    for (const runnable of selected) {
      const running = this.#runOne(runnable, request);
      if (runnable.kind === 'configured' && runnable.hook.handler.type === 'command' && runnable.hook.handler.async) void running;
      else sync.push(running);
    }
    const results = await Promise.all(sync);
    const runs = results.map((result) => result.run);
    const blocking = runs.find((run) => run.status === 'blocked');
    return {
      allowed: blocking === undefined && results.some((result) => result.allowed),
      updatedInput: blocking === undefined ? results.find((result) => result.updatedInput !== undefined)?.updatedInput : undefined,
      blocked: blocking === undefined ? undefined : { reason: blocking.entries.find((entry) => entry.kind === 'feedback')?.text ?? 'blocked by a hook', runId: blocking.id },
      contexts: runs.flatMap((run) => run.entries.filter((entry) => entry.kind === 'context').map((entry) => ({ text: entry.text, runId: run.id }))),
      runs,
    };
  }

  async #runOne(runnable: Runnable, request: HookEventRequest): Promise<RunDecision> {
    const started = this.#now();
    const base = this.#summary(runnable, request, started);
    request.onRun?.('started', base);
    const result = await this.#result(runnable, request);
    const ended = this.#now();
    const run: HookRunSummary = { ...base, status: result.status, completedAt: Math.floor(ended / 1000), durationMs: Math.max(0, Math.round(ended - started)), entries: result.entries };
    request.onRun?.('completed', run);
    return { run, allowed: result.allowed === true, updatedInput: result.updatedInput };
  }

  #summary(runnable: Runnable, request: HookEventRequest, startedMs: number): HookRunSummary {
    const suffix = request.runSuffix === undefined ? '' : `:${request.runSuffix}`;
    const common = {
      eventName: request.event,
      handlerType: 'command' as const,
      scope: request.event === 'sessionStart' || request.event === 'sessionEnd' ? ('thread' as const) : ('turn' as const),
      status: 'running' as const,
      startedAt: Math.floor(startedMs / 1000),
      completedAt: null,
      durationMs: null,
      entries: [],
    };
    if (runnable.kind === 'configured') {
      const { hook } = runnable;
      const { handler } = hook;
      return {
        ...common,
        id: `${kebabName(request.event)}:${hook.displayOrder}:${hook.sourcePath}${suffix}`,
        handlerType: handler.type,
        executionMode: handler.type === 'command' && handler.async ? 'async' : 'sync',
        sourcePath: hook.sourcePath,
        source: hook.source,
        displayOrder: hook.displayOrder,
        statusMessage: hook.statusMessage,
      };
    }
    const sourcePath = `extension:${runnable.extensionId}`;
    return { ...common, id: `${kebabName(request.event)}:${runnable.displayOrder}:${sourcePath}${suffix}`, executionMode: 'sync', sourcePath, source: 'unknown', displayOrder: runnable.displayOrder, statusMessage: null };
  }

  async #result(runnable: Runnable, request: HookEventRequest): Promise<HookResult> {
    if (runnable.kind === 'extension') {
      try {
        return outputResult(request.event, (await runnable.contributor.run(request.input, request.signal)) ?? undefined);
      } catch (error) {
        return { status: 'failed', entries: [{ kind: 'error', text: `extension '${runnable.extensionId}': ${error instanceof Error ? error.message : String(error)}` }] };
      }
    }
    const { hook } = runnable;
    const timeoutMs = hook.timeoutSec * 1000;
    if (hook.handler.type === 'mcpTool') return this.#mcpToolResult(request, hook.handler, timeoutMs);
    const run: CommandHookRun = { command: hook.handler.command, cwd: request.cwd, env: this.#options.env, input: JSON.stringify(request.input), timeoutMs, signal: request.signal };
    const { environmentId } = hook;
    if (environmentId === null) return commandHookResult(request.event, await (this.#options.runCommand ?? runCommandHook)(run));
    const runOn = this.#options.runCommandOn;
    const exit: CommandHookExit = runOn === undefined ? { kind: 'failed', message: `the hook belongs to the environment '${environmentId}', which cannot run it here` } : await runOn(environmentId, run);
    return commandHookResult(request.event, exit);
  }

  /** An MCP tool hook, as Codex runs one (probed): the tool's text is read as a command hook's stdout, an error answer fails the run. */
  async #mcpToolResult(request: HookEventRequest, handler: Extract<HookHandler, { type: 'mcpTool' }>, timeoutMs: number): Promise<HookResult> {
    const call = this.#options.callMcpTool;
    const failed = (message: string): HookResult => ({ status: 'failed', entries: [{ kind: 'error', text: message }] });
    if (call === undefined) return failed(`MCP tool hooks cannot run here: no MCP servers are available to call ${handler.server}/${handler.tool}`);
    try {
      const answer = await call({ server: handler.server, tool: handler.tool, input: handler.input, timeoutMs, signal: request.signal });
      if (answer.isError) return failed(`${handler.server}/${handler.tool} answered with an error${answer.text === '' ? '' : `: ${answer.text.slice(0, 2000)}`}`);
      return commandHookResult(request.event, { kind: 'exited', code: 0, stdout: answer.text, stderr: '' });
    } catch (error) {
      return failed(`${handler.server}/${handler.tool}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
