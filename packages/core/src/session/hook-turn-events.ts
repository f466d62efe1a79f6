// The hook events of a turn's opening and end: SessionStart (SubagentStart in a sub-agent's
// thread) on the first turn since the thread opened (its context ends the turn's context),
// UserPromptSubmit on the user's prompt (its context follows the prompt; a block keeps the prompt
// from the model), Stop (SubagentStop) when the turn would end (a block sends it on with a hook
// prompt), and Interrupt when it was interrupted. At most MAX_STOP_CONTINUATIONS Stop blocks per
// turn: a hook that always blocks would otherwise sample forever.
import { hookConfigName } from '@skein/hooks';
import { BUILT_IN_CONTEXT_FRAGMENTS, hookPromptText, isKnownResponseItem, messageText, recognizeContextFragment, type ResponseItem } from '@skein/protocol';
import type { ToolCallHooks } from '../tools/tool-call-hooks.js';
import type { InterruptObserver, ModelRequestObserver, StopGate, TurnHooks } from '../turn/turn-hooks.js';
import { hookToolCalls } from './hook-tool-calls.js';
import { hookContextMessage, type ThreadOpeningEvent, type TurnHookRunner } from './thread-hooks.js';
import { breakdownOf, rolloutUsage } from './thread-token-usage.js';

/** How many times Stop hooks may send one turn on. */
export const MAX_STOP_CONTINUATIONS = 8;

/** What a turn's opening hooks added. */
export interface HookOpening {
  /** After the turn's context (SessionStart). */
  readonly context: readonly ResponseItem[];
  /** Right after the user's prompt (UserPromptSubmit). */
  readonly afterPrompt: readonly ResponseItem[];
  /** Why a UserPromptSubmit hook kept the prompt from the model. */
  readonly blocked: string | undefined;
}

const NOTHING: HookOpening = { context: [], afterPrompt: [], blocked: undefined };

/** Runs the thread's opening event (SessionStart, or SubagentStart in a sub-agent's thread) when there is one, and UserPromptSubmit on a user's prompt. */
export async function hookOpening(
  runner: TurnHookRunner,
  turn: { readonly turnId: string; readonly signal: AbortSignal; readonly opening: ThreadOpeningEvent | undefined; readonly prompt: string | undefined },
): Promise<HookOpening> {
  const { turnId, signal, opening } = turn;
  // A sub-agent's task comes from its parent, not a user: Codex runs no UserPromptSubmit for it (probed).
  const prompt = runner.subagent ? undefined : turn.prompt;
  if (!runner.hasHooks(opening?.event ?? 'sessionStart') && !runner.hasHooks('userPromptSubmit')) return NOTHING;
  const started =
    opening === undefined
      ? undefined
      : opening.event === 'sessionStart'
        ? await runner.run({ event: 'sessionStart', turnId, matchValue: opening.source, signal, fields: { source: opening.source } })
        : await runner.run({ event: 'subagentStart', turnId, matchValue: opening.agentType, signal, fields: {} });
  const submitted = prompt === undefined ? undefined : await runner.run({ event: 'userPromptSubmit', turnId, signal, fields: { prompt } });
  return {
    context: (started?.contexts ?? []).map((entry) => hookContextMessage(entry.text)),
    afterPrompt: (submitted?.contexts ?? []).map((entry) => hookContextMessage(entry.text)),
    blocked: submitted?.blocked?.reason,
  };
}

/**
 * UserPromptSubmit for input steered into a running turn, as Codex runs it (probed): each user
 * message is a prompt of its own; a blocked one never reaches the model, context follows the one
 * it is about. Other steered items pass as they are, and so do records the thread made itself (a
 * user shell command's). Once `signal` is aborted the prompts not yet screened are dropped, as an
 * opening prompt whose hooks were interrupted is not recorded.
 */
export async function hookSteeredInput(runner: TurnHookRunner, turnId: string, signal: AbortSignal, items: readonly ResponseItem[]): Promise<readonly ResponseItem[]> {
  const screened: ResponseItem[] = [];
  for (const item of items) {
    const prompt = isKnownResponseItem(item) && item.type === 'message' && item.role === 'user' ? messageText(item) : undefined;
    if (prompt === undefined || recognizeContextFragment(prompt, 'user', BUILT_IN_CONTEXT_FRAGMENTS) !== undefined) {
      screened.push(item);
      continue;
    }
    if (signal.aborted) continue;
    const outcome = await runner.run({ event: 'userPromptSubmit', turnId, signal, fields: { prompt } });
    if (outcome.blocked !== undefined || signal.aborted) continue;
    screened.push(item, ...outcome.contexts.map((entry) => hookContextMessage(entry.text)));
  }
  return screened;
}

/** What steered input passes through before the model reads it; `signal` is the turn's unless given (input left when the turn ended). */
export type SteeredScreen = (items: readonly ResponseItem[], signal?: AbortSignal) => Promise<readonly ResponseItem[]>;

/** Where a turn's hooks plug in beside its opening: its tool calls, its stop gates, its model-request observers. */
export function turnLifecycleHooks(
  runner: TurnHookRunner,
  turn: { readonly threadId: string; readonly turnId: string; readonly signal: AbortSignal },
  warn: (message: string) => void,
): { readonly toolCalls: ToolCallHooks | undefined; readonly turnHooks: Partial<TurnHooks>; readonly screenSteered: SteeredScreen | undefined } {
  const stopGate = hookStopGate(runner, warn);
  const modelRequests = hookModelRequests(runner, turn.threadId);
  const interrupts = hookInterrupts(runner);
  const screensPrompts = !runner.subagent && runner.hasHooks('userPromptSubmit');
  return {
    toolCalls: hookToolCalls(runner),
    turnHooks: { stopGates: listOf(stopGate), modelRequests: listOf(modelRequests), interrupts: listOf(interrupts) },
    screenSteered: screensPrompts ? (items, signal = turn.signal) => hookSteeredInput(runner, turn.turnId, signal, items) : undefined,
  };
}

/** The turn's opening with what its hooks added: SessionStart's context last, UserPromptSubmit's right after the prompt. */
export function withHookOpening<T extends { readonly context: readonly ResponseItem[]; readonly input: readonly ResponseItem[] }>(opening: T, hooks: HookOpening): T {
  if (hooks === NOTHING) return opening;
  const [prompt, ...rest] = opening.input;
  const input = hooks.blocked !== undefined ? [] : prompt === undefined ? [...hooks.afterPrompt] : [prompt, ...hooks.afterPrompt, ...rest];
  return { ...opening, context: [...opening.context, ...hooks.context], input };
}

function listOf<T>(value: T | undefined): T[] {
  return value === undefined ? [] : [value];
}

/** The Stop hooks (SubagentStop in a sub-agent's thread) as a stop gate, or undefined when the thread has none. */
export function hookStopGate(runner: TurnHookRunner, warn: (message: string) => void): StopGate | undefined {
  const event = runner.subagent ? 'subagentStop' : 'stop';
  if (!runner.hasHooks(event)) return undefined;
  return {
    name: 'stop hooks',
    async beforeStop(step, stopping) {
      if (stopping.continuations >= MAX_STOP_CONTINUATIONS) {
        warn(`${hookConfigName(event)} hooks sent this turn on ${MAX_STOP_CONTINUATIONS} times; it ends here`);
        return [];
      }
      const outcome = await runner.run({
        event,
        turnId: step.turnId,
        signal: step.signal,
        fields: { stop_hook_active: stopping.continuations > 0, last_assistant_message: stopping.lastAgentMessage ?? null },
      });
      if (outcome.blocked === undefined) return [];
      return [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: hookPromptText(outcome.blocked.runId, outcome.blocked.reason) }] }];
    },
  };
}

/**
 * PreModelRequest and PostModelRequest around each of a turn's sampling requests (and a compaction's
 * summary request, `foreground_compaction`), with Codex's fields (probed): the request's kind, id and
 * attempt, the thread id, and after it its status, error, token usage and response id. They watch;
 * nothing they answer changes the request.
 */
export function hookModelRequests(runner: TurnHookRunner, threadId: string, kind: 'sampling' | 'foreground_compaction' = 'sampling'): ModelRequestObserver | undefined {
  if (!runner.hasHooks('preModelRequest') && !runner.hasHooks('postModelRequest')) return undefined;
  const fields = (requestId: string) => ({ kind, request_id: requestId, attempt_number: 1, thread_id: threadId });
  return {
    name: 'model request hooks',
    async beforeRequest(step, request) {
      if (runner.hasHooks('preModelRequest')) await runner.run({ event: 'preModelRequest', turnId: step.turnId, runSuffix: request.requestId, signal: step.signal, fields: fields(request.requestId) });
    },
    async afterRequest(step, request, result) {
      if (!runner.hasHooks('postModelRequest')) return;
      const outcome =
        result.status === 'completed'
          ? { status: 'completed', error: null, token_usage: result.usage === undefined ? null : rolloutUsage(breakdownOf(result.usage)), response_id: result.responseId ?? null }
          : { status: 'failed', error: result.error, token_usage: null, response_id: null };
      await runner.run({ event: 'postModelRequest', turnId: step.turnId, runSuffix: request.requestId, signal: step.signal, fields: { ...fields(request.requestId), ...outcome } });
    },
  };
}

/**
 * The Interrupt hooks, once a turn was interrupted and before the client hears it ended (Codex's
 * order, probed). They watch: the turn is already over, and a hook can only show a `systemMessage`.
 */
export function hookInterrupts(runner: TurnHookRunner): InterruptObserver | undefined {
  if (!runner.hasHooks('interrupt')) return undefined;
  return {
    name: 'interrupt hooks',
    async interrupted(turnId) {
      // The turn's own signal is aborted; the hooks' deadlines bound them instead.
      await runner.run({ event: 'interrupt', turnId, signal: new AbortController().signal, fields: {} });
    },
  };
}
