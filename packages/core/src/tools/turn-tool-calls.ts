// The tool calls of one turn: each call gets its context (environment, approvals, nested dispatch,
// progress), and the calls of one response are scheduled as Codex does — parallel-safe calls run
// together, any other call runs alone once the calls before it are done.
import { type ToolApprovals, type ToolContext, type ToolEnvironment, type ToolInput, type ToolResult } from '@skein/extension-api';
import { toolOutputFor, type ResponseItem } from '@skein/protocol';
import type { CoreEvent } from '../turn/core-event.js';
import { requestedEnvironmentId } from './environment-choice.js';
import { NO_USABLE_ENVIRONMENT } from './require-environment.js';
import type { ToolCallHooks } from './tool-call-hooks.js';
import type { McpElicitationAnswer, McpElicitationRequest } from '../session/client-requests.js';
import { isToolSearchCall, type ToolCall, type ToolRouter, type ToolSearchCall } from './tool-router.js';

/** How deep tools may call tools through `dispatch` before the call is refused. */
export const MAX_NESTED_DISPATCH_DEPTH = 8;

/** Binds the thread's approvals to one call. */
export type BindApprovals = (call: { readonly turnId: string; readonly callId: string; readonly environmentId: string; readonly signal: AbortSignal }) => ToolApprovals;

/** What a turn's calls run with; a snapshot taken when the turn starts. */
export interface TurnToolCallsOptions {
  readonly router: ToolRouter;
  /** The primary environment: where calls run unless they name another. */
  readonly environment: ToolEnvironment | undefined;
  /** Every attached environment, the primary first (default: the primary alone). */
  readonly environments?: readonly ToolEnvironment[] | undefined;
  /**
   * The ready environments now, the primary first, when they can change while the turn runs (one
   * still connecting becomes ready): read for each call in place of `environment` and `environments`.
   */
  readonly currentEnvironments?: (() => readonly ToolEnvironment[]) | undefined;
  /** With `currentEnvironments`: where calls that name no environment run now (default: the first ready one). */
  readonly currentPrimary?: (() => ToolEnvironment | undefined) | undefined;
  /** Whether the selected environment `id` exists but cannot be used (still connecting, or failed to). */
  readonly isUnusable?: ((id: string) => boolean) | undefined;
  readonly approvals: BindApprovals;
  readonly emit: (event: CoreEvent) => void;
  /** Ids for the calls tools make through `dispatch`. */
  readonly newCallId: () => string;
  /** The lifecycle hooks around the model's calls and the calls they make (a code-mode cell's), when the thread has any. */
  readonly hooks?: ToolCallHooks | undefined;
  /** Awaited before a call that may write runs on environment `environmentId` (the turn's checkpoint there is taken first). */
  readonly beforeWrite?: ((environmentId: string) => Promise<void>) | undefined;
  /** Asks the thread's client on a server's behalf; undefined when there is no one to ask. */
  readonly elicit?: ((request: McpElicitationRequest, signal: AbortSignal) => Promise<McpElicitationAnswer>) | undefined;
}

/**
 * Tools that never change an environment's files themselves: a code-mode cell writes only through
 * the calls it makes (each checked on its own), the others only talk. Any other call that is not
 * parallel-safe may write.
 */
const NEVER_WRITES = new Set(['exec', 'wait', 'update_plan', 'request_user_input', 'tool_search', 'create_goal', 'update_goal', 'get_goal']);

/**
 * Calls that set sub-agents to work (multi-agent v1 and v2): parallel-safe, but the agents may write
 * to the same workspace while the turn runs, so the turn's checkpoint is taken first.
 */
const DELEGATES_WORK = new Set(['spawn_agent', 'followup_task', 'send_input', 'resume_agent']);

/** The turn calls belong to. */
export interface TurnScope {
  readonly turnId: string;
  readonly signal: AbortSignal;
}

/** Waits for every call of a batch, then rethrows the first failure (a fatal tool error): no call is left running behind a failed turn. */
async function settle(calls: readonly Promise<void>[]): Promise<void> {
  const results = await Promise.allSettled(calls);
  const failure = results.find((result) => result.status === 'rejected');
  if (failure !== undefined) throw failure.reason;
}

/** Runs the model's calls of one turn. */
export class TurnToolCalls {
  readonly #options: TurnToolCallsOptions;

  constructor(options: TurnToolCallsOptions) {
    this.#options = options;
  }

  /**
   * Runs a response's calls and returns their outputs in call order. After an interrupt no further
   * call starts; a call that did not finish has no output (the turn records the aborted one).
   */
  async runAll(calls: readonly (ToolCall | ToolSearchCall)[], turn: TurnScope): Promise<(ResponseItem | undefined)[]> {
    const { router, hooks } = this.#options;
    const { signal } = turn;
    // A call's output, after any context a hook added for it.
    const outputs: (readonly ResponseItem[] | undefined)[] = calls.map(() => undefined);
    const run = async (call: ToolCall | ToolSearchCall, index: number) => {
      if (signal.aborted) return;
      this.#options.emit({ type: 'itemStarted', turnId: turn.turnId, item: call });
      try {
        if (isToolSearchCall(call)) {
          outputs[index] = [await router.search(call, signal)];
          return;
        }
        const context = this.#context(turn, call.call_id, 0, requestedEnvironmentId(call));
        if (typeof context === 'string') {
          outputs[index] = [toolOutputFor(call, context)];
          return;
        }
        const verdict = await hooks?.beforeCall(call, turn);
        // Interrupted while its hooks ran (a hook that would have blocked it was stopped): it does not run.
        if (signal.aborted) return;
        if (verdict !== undefined && 'blocked' in verdict) {
          outputs[index] = [toolOutputFor(call, verdict.blocked)];
          return;
        }
        // A hook's rewritten input runs under the model's call id, so its output answers the model's call.
        const running = verdict?.call ?? call;
        await this.#beforeWrite(running, context);
        const dispatched = await router.dispatch(running, context);
        outputs[index] = hooks === undefined ? [dispatched.item] : await hooks.afterCall(running, dispatched, turn);
      } catch (error) {
        // The router turns ordinary failures into outputs; an interrupt ends the calls quietly.
        if (!signal.aborted) throw error;
      }
    };
    let together: Promise<void>[] = [];
    for (const [index, call] of calls.entries()) {
      // A search only reads the thread's tools, so it runs alongside anything.
      if (isToolSearchCall(call) || router.isParallel(call)) {
        together.push(run(call, index));
        continue;
      }
      await settle(together);
      together = [];
      await run(call, index);
    }
    await settle(together);
    return outputs.flatMap((items): (ResponseItem | undefined)[] => (items === undefined ? [undefined] : [...items]));
  }

  /** Lets the turn checkpoint the call's environment first when the call may write there. */
  async #beforeWrite(call: ToolCall, context: ToolContext): Promise<void> {
    const { beforeWrite, router } = this.#options;
    if (beforeWrite === undefined || context.environment === undefined) return;
    const delegates = call.namespace !== undefined && DELEGATES_WORK.has(call.name);
    if (!delegates && ((call.namespace === undefined && NEVER_WRITES.has(call.name)) || router.isParallel(call))) return;
    await beforeWrite(context.environment.id);
  }

  /**
   * The call's context, in the environment `environmentId` names (the primary when it names none);
   * for an environment the thread lacks, the output the model reads instead of running the call.
   */
  #context(turn: TurnScope, callId: string, depth: number, environmentId?: string): ToolContext | string {
    const current = this.#options.currentEnvironments?.();
    const primary = current === undefined ? this.#options.environment : this.#options.currentPrimary === undefined ? current[0] : this.#options.currentPrimary();
    const environments = current ?? this.#options.environments ?? (primary === undefined ? [] : [primary]);
    const { turnId, signal } = turn;
    const chosen = environmentId === undefined ? primary : environments.find((candidate) => candidate.id === environmentId);
    if (environmentId !== undefined && chosen === undefined) {
      if (this.#options.isUnusable?.(environmentId) === true) return NO_USABLE_ENVIRONMENT;
      const attached = environments.map((candidate) => `\`${candidate.id}\``).join(', ') || 'none';
      return `unknown environment id \`${environmentId}\`; this thread's environments are ${attached}`;
    }
    return {
      callId,
      turnId,
      signal,
      environment: chosen,
      environments,
      approvals: this.#options.approvals({ turnId, callId, environmentId: chosen?.id ?? 'local', signal }),
      // A nested call runs where its caller runs unless it names another environment.
      dispatch: (name, input, options) => this.#nested(turn, name, input, options?.namespace, depth + 1, chosen?.id),
      progress: (message) => this.#options.emit({ type: 'toolProgress', turnId, callId, message }),
      ...(this.#options.elicit === undefined ? {} : { elicit: this.#elicitFor(turnId, signal, this.#options.elicit) }),
    };
  }

  /** A tool's question as a form on the thread's client, bound to the call's turn. */
  #elicitFor(turnId: string, signal: AbortSignal, elicit: NonNullable<TurnToolCallsOptions['elicit']>): NonNullable<ToolContext['elicit']> {
    return async (question) => {
      const answer = await elicit({ turnId, serverName: question.serverName, mode: 'form', message: question.message, requestedSchema: question.requestedSchema, meta: question.meta }, signal);
      return answer.content === undefined ? { action: answer.action } : { action: answer.action, content: answer.content };
    };
  }

  /** A call one tool makes to another: the client sees it as a direct call; the model sees only the outer call's output. */
  async #nested(turn: TurnScope, name: string, input: ToolInput, namespace: string | undefined, depth: number, callerEnvironmentId: string | undefined): Promise<ToolResult> {
    if (depth > MAX_NESTED_DISPATCH_DEPTH) return { output: `tools may call tools at most ${MAX_NESTED_DISPATCH_DEPTH} deep; '${name}' was not run`, success: false };
    const { router, emit } = this.#options;
    const { turnId } = turn;
    const callId = this.#options.newCallId();
    const scope = namespace === undefined ? {} : { namespace };
    // The call takes the form its tool reads: free-form text for a custom tool, JSON arguments for a
    // function tool (a string given to a function tool is its arguments' JSON text).
    const call: ToolCall =
      router.inputKind(name, namespace) === 'custom'
        ? { type: 'custom_tool_call', call_id: callId, name, input: typeof input === 'string' ? input : JSON.stringify(input), ...scope }
        : { type: 'function_call', call_id: callId, name, arguments: typeof input === 'string' ? input : JSON.stringify(input), ...scope };
    emit({ type: 'itemStarted', turnId, item: call });
    const context = this.#context(turn, callId, depth, requestedEnvironmentId(call) ?? callerEnvironmentId);
    const result: ToolResult = typeof context === 'string' ? { output: context, success: false } : await this.#hookedRun(turn, call, context);
    emit({ type: 'itemCompleted', turnId, item: toolOutputFor(call, result.output) });
    return result;
  }

  /**
   * A nested call under the thread's tool hooks, as Codex runs them for a code-mode cell's calls
   * (probed): a block is the call's failed result, a rewrite runs instead, a PostToolUse block
   * replaces the result. Context a hook adds has no place here: the model reads only the cell's output.
   */
  async #hookedRun(turn: TurnScope, call: ToolCall, context: ToolContext): Promise<ToolResult> {
    const { router, hooks } = this.#options;
    if (hooks === undefined) {
      await this.#beforeWrite(call, context);
      return router.run(call, context);
    }
    const verdict = await hooks.beforeCall(call, turn);
    if (turn.signal.aborted) return { output: 'aborted before dispatch', success: false };
    if (verdict !== undefined && 'blocked' in verdict) return { output: verdict.blocked, success: false };
    const running = verdict?.call ?? call;
    await this.#beforeWrite(running, context);
    const result = await router.run(running, context);
    const after = await hooks.afterCall(running, { item: toolOutputFor(running, result.output), success: result.success, ...(result.hookResponse === undefined ? {} : { hookResponse: result.hookResponse }) }, turn);
    const output = (after.at(-1) as { output?: ToolResult['output'] } | undefined)?.output;
    return output === undefined || output === result.output ? result : { output, success: false };
  }
}
