// The lifecycle hooks of one thread: the user's command hooks from its config layers and the
// extensions' hooks, read again for each turn, and the JSON each event gives
// them (Codex 0.171.0's fields, probed). What a hook says reaches the model as a developer message,
// a blocked call's output or a hook prompt; every run reaches the client as `hookRun` events.
import type { Config, ConfigLayer } from '@skein/config';
import type { Contribution, HookContributor, HookEventName, HookInput } from '@skein/extension-api';
import { discoverHooks, HookEngine, hookConfigName, type HookCatalog, type HookEventOutcome, type HookLayer, type McpToolHookAnswer, type McpToolHookCall } from '@skein/hooks';
import type { ResponseItem } from '@skein/protocol';
import type { PermissionHookAnswer, PermissionHookRequest } from '../tools/approvals/command-approvals.js';
import type { McpConnections } from '../mcp/mcp-connections.js';
import type { EnvironmentHookHost } from './environment-hooks.js';
import type { CoreEvent } from '../turn/core-event.js';

/** What the thread's hooks need from the session. */
export interface ThreadHooksOptions {
  readonly sessionId: string;
  /** The thread's rollout file (null when it is not written). */
  readonly transcriptPath: string | null;
  readonly contributed: readonly Contribution<HookContributor>[];
  /** The environment command hooks run with: the host's. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** `--dangerously-bypass-hook-trust`. */
  readonly bypassTrust: boolean;
  readonly emit: (event: CoreEvent) => void;
  /** Why the thread's first turn runs SessionStart: a new (or forked) thread, or a resumed one. */
  readonly sessionStart: 'startup' | 'resume';
  /** A sub-agent's thread: SubagentStart and SubagentStop in place of SessionStart and Stop, and its id and type on every event. */
  readonly subagent?: SubagentHookFacts | undefined;
  /** The thread's MCP servers, which MCP tool hooks call. */
  readonly mcpConnections?: (() => McpConnections) | undefined;
  /** The executors' project hooks, and how to run them there. */
  readonly environmentHooks?: EnvironmentHookHost | undefined;
}

/** Who a sub-agent is, as its hooks are told (Codex's fields, probed). */
export interface SubagentHookFacts {
  /** The sub-agent's thread id. */
  readonly agentId: string;
  /** Its role; `default` for every agent Skein spawns, as for Codex's spawns without a role. */
  readonly agentType: string;
  /** SubagentStop is the parent's event: its `transcript_path` is the parent's rollout. */
  readonly parentTranscriptPath: string | null;
}

/** What opens a thread's first turn: SessionStart (with its source), or SubagentStart in a sub-agent's thread. */
export type ThreadOpeningEvent = { readonly event: 'sessionStart'; readonly source: 'startup' | 'resume' } | { readonly event: 'subagentStart'; readonly agentType: string };

/** The lifecycle hook settings a host gives a thread (the rest the session knows). */
export type LifecycleHookSettings = Pick<ThreadHooksOptions, 'transcriptPath' | 'contributed' | 'env' | 'bypassTrust' | 'subagent'>;

/** One event of one turn. */
export interface HookEventCall {
  readonly event: HookEventName;
  readonly turnId: string;
  readonly fields: Readonly<Record<string, unknown>>;
  readonly matchValue?: string | undefined;
  readonly runSuffix?: string | undefined;
  readonly signal: AbortSignal;
}

/** The hooks a turn runs with: its config's engine, its model and cwd. */
export interface TurnHookRunner {
  /** The thread is a sub-agent's: its turns end with SubagentStop and read no UserPromptSubmit. */
  readonly subagent: boolean;
  /** Whether the event has any hook, whatever it would be about. */
  hasHooks(event: HookEventName): boolean;
  handles(event: HookEventName, matchValue?: string): boolean;
  run(call: HookEventCall): Promise<HookEventOutcome>;
}

/** The thread's hooks, rebuilt for each new config. */
export class ThreadHooks {
  readonly #options: ThreadHooksOptions;
  /** The running (or last) turn's hooks: approvals ask them outside any one call's plumbing. */
  #current: TurnHookRunner | undefined;
  /** What the thread was already told of its hook files: they are read every turn, a problem is said once. */
  readonly #reported = new Set<string>();
  #opening: ThreadOpeningEvent | undefined;

  constructor(options: ThreadHooksOptions) {
    this.#options = options;
    const { subagent } = options;
    this.#opening = subagent === undefined ? { event: 'sessionStart', source: options.sessionStart } : { event: 'subagentStart', agentType: subagent.agentType };
  }

  /** A session's hooks from what its host gave (none without settings); a resumed thread starts as `resume`. */
  static forSession(settings: LifecycleHookSettings | undefined, session: Pick<ThreadHooksOptions, 'sessionId' | 'emit' | 'mcpConnections' | 'environmentHooks'> & { readonly resumed: boolean }): ThreadHooks {
    return new ThreadHooks({
      transcriptPath: settings?.transcriptPath ?? null,
      contributed: settings?.contributed ?? [],
      env: settings?.env ?? {},
      bypassTrust: settings?.bypassTrust ?? false,
      subagent: settings?.subagent,
      sessionId: session.sessionId,
      emit: session.emit,
      mcpConnections: session.mcpConnections,
      environmentHooks: session.environmentHooks,
      sessionStart: session.resumed ? 'resume' : 'startup',
    });
  }

  /** The event that opens the first turn since the thread opened; undefined after. */
  takeOpening(): ThreadOpeningEvent | undefined {
    const opening = this.#opening;
    this.#opening = undefined;
    return opening;
  }

  /**
   * The runner for a turn under `config` with `model`. The hooks are read again for every turn (a
   * few file reads): trust revoked, a hook disabled or a hooks.json edited holds from the next turn.
   */
  async forTurn(config: Config, model: string): Promise<TurnHookRunner> {
    const engine = await this.#engine(config);
    const { emit, sessionId, transcriptPath, subagent } = this.#options;
    return (this.#current = {
      subagent: subagent !== undefined,
      hasHooks: (event) => engine.hasHooks(event),
      handles: (event, matchValue) => engine.handles(event, matchValue),
      run: (call) => {
        const input: HookInput = {
          session_id: sessionId,
          // SessionStart is about the thread, not a turn (Codex sends it no turn id).
          ...(call.event === 'sessionStart' ? {} : { turn_id: call.turnId }),
          // SubagentStop is the parent's event, about the sub-agent's transcript.
          transcript_path: call.event === 'subagentStop' ? (subagent?.parentTranscriptPath ?? null) : transcriptPath,
          ...(call.event === 'subagentStop' ? { agent_transcript_path: transcriptPath } : {}),
          cwd: config.cwd,
          hook_event_name: hookConfigName(call.event),
          model,
          // Codex sends compaction and model-request hooks no permission mode (probed).
          ...(NO_PERMISSION_MODE.has(call.event) ? {} : { permission_mode: permissionMode(config) }),
          ...(subagent === undefined ? {} : { agent_id: subagent.agentId, agent_type: subagent.agentType }),
          ...call.fields,
        };
        return engine.run({
          event: call.event,
          input,
          matchValue: call.matchValue,
          runSuffix: call.runSuffix,
          cwd: config.cwd,
          signal: call.signal,
          onRun: (phase, run) => emit({ type: 'hookRun', phase, turnId: call.turnId, run }),
        });
      },
    });
  }

  /**
   * PermissionRequest, for a command or patch that needs the user's approval: a hook may allow or
   * deny it in the user's place (Codex's fields, probed: the tool's name and input; no tool_use_id).
   */
  async permissionRequest(request: PermissionHookRequest, signal: AbortSignal): Promise<PermissionHookAnswer | undefined> {
    const runner = this.#current;
    if (runner === undefined || !runner.handles('permissionRequest', request.toolName)) return undefined;
    const outcome = await runner.run({ event: 'permissionRequest', turnId: request.turnId, matchValue: request.toolName, runSuffix: request.callId, signal, fields: { tool_name: request.toolName, tool_input: request.toolInput } });
    if (outcome.blocked !== undefined) return { behavior: 'deny', message: outcome.blocked.reason };
    return outcome.allowed ? { behavior: 'allow' } : undefined;
  }

  /**
   * SessionEnd, as the thread closes (a root thread's; a sub-agent's session is its root's). It
   * watches: what it answers changes nothing, and no client is told of it, as in Codex (probed: its
   * only reason is `other`, and it gets no turn, model or permission mode).
   */
  async sessionEnd(config: Config): Promise<void> {
    if (this.#options.subagent !== undefined) return;
    const engine = await this.#engine(config);
    if (!engine.hasHooks('sessionEnd')) return;
    const { sessionId, transcriptPath } = this.#options;
    const input: HookInput = { session_id: sessionId, transcript_path: transcriptPath, cwd: config.cwd, hook_event_name: hookConfigName('sessionEnd'), reason: 'other' };
    await engine.run({ event: 'sessionEnd', input, cwd: config.cwd, signal: new AbortController().signal });
  }

  /** The hooks of the thread's config layers and of its executors' projects, as a turn under `config` reads them. */
  async catalog(config: Config): Promise<HookCatalog> {
    // An executor's file that cannot be read keeps its hooks out, as an error entry (said once per thread, as any).
    const remote = (await this.#options.environmentHooks?.layers(config)) ?? { layers: [], problems: [] };
    const catalog = await discoverHooks([...hookLayers(config.layers), ...remote.layers]);
    return remote.problems.length === 0 ? catalog : { ...catalog, errors: [...catalog.errors, ...remote.problems] };
  }

  async #engine(config: Config): Promise<HookEngine> {
    const { environmentHooks } = this.#options;
    const catalog = await this.catalog(config);
    for (const message of [...catalog.warnings, ...catalog.errors.map((error) => `${error.path}: ${error.message}`)]) {
      if (this.#reported.has(message)) continue;
      this.#reported.add(message);
      this.#options.emit({ type: 'warning', message });
    }
    const { contributed, env, bypassTrust, mcpConnections } = this.#options;
    return new HookEngine({
      hooks: catalog.hooks,
      contributed,
      env,
      bypassTrust,
      callMcpTool: mcpConnections === undefined ? undefined : mcpToolHookCaller(mcpConnections),
      runCommandOn: environmentHooks === undefined ? undefined : (environmentId, run) => environmentHooks.run(environmentId, run, config),
    });
  }
}

/** Calls an MCP tool hook's tool on the thread's server, within the hook's deadline; its text content is its answer. */
function mcpToolHookCaller(connections: () => McpConnections): (call: McpToolHookCall) => Promise<McpToolHookAnswer> {
  return async ({ server: name, tool, input, timeoutMs, signal }) => {
    const within = AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]);
    const server = await connections().server(name, within);
    const result = await server.client.callTool(tool, input, { signal: within });
    const text = result.content.flatMap((block) => (block.type === 'text' && typeof block.text === 'string' ? [block.text] : [])).join('');
    return { text, isError: result.isError === true };
  };
}

/** The config layers that may define hooks: system, user, trusted projects and `-c` flags (a profile's table is not a file of its own). */
export function hookLayers(layers: readonly ConfigLayer[]): HookLayer[] {
  return layers.flatMap((layer): HookLayer[] => {
    switch (layer.name.type) {
      case 'system':
      case 'user':
      case 'project':
        return [{ source: layer.name.type, file: layer.name.file, table: layer.table }];
      case 'sessionFlags':
        return [{ source: 'sessionFlags', file: undefined, table: layer.table }];
      case 'profile':
        return [];
    }
  });
}

const NO_PERMISSION_MODE: ReadonlySet<HookEventName> = new Set(['preCompact', 'postCompact', 'preModelRequest', 'postModelRequest']);

/** Claude-style permission mode from the approval policy: `never` asks nothing. */
function permissionMode(config: Config): string {
  return config.approvalPolicy === 'never' ? 'bypassPermissions' : 'default';
}

/** The developer message that carries a hook's context to the model. */
export function hookContextMessage(text: string): ResponseItem {
  return { type: 'message', role: 'developer', content: [{ type: 'input_text', text }] };
}
