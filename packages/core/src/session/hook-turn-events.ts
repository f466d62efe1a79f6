// The hook events of a turn's opening and end: SessionStart on the first turn since the thread
// opened (its context ends the turn's context), UserPromptSubmit on the user's prompt (its context
// follows the prompt; a block keeps the prompt from the model), and Stop when the turn would end (a
// block sends it on with a hook prompt). At most MAX_STOP_CONTINUATIONS Stop blocks per turn: a
// hook that always blocks would otherwise sample forever.
import { hookPromptText, type ResponseItem } from '@skein/protocol';
import type { ToolCallHooks } from '../tools/tool-call-hooks.js';
import type { ModelRequestObserver, StopGate, TurnHooks } from '../turn/turn-hooks.js';
import { hookToolCalls } from './hook-tool-calls.js';
import { hookContextMessage, type TurnHookRunner } from './thread-hooks.js';
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

/** Runs SessionStart (when `sessionStart` names its source) and UserPromptSubmit (when there is a prompt). */
export async function hookOpening(
  runner: TurnHookRunner,
  turn: { readonly turnId: string; readonly signal: AbortSignal; readonly sessionStart: 'startup' | 'resume' | undefined; readonly prompt: string | undefined },
): Promise<HookOpening> {
  const { turnId, signal, sessionStart, prompt } = turn;
  if (!runner.hasHooks('sessionStart') && !runner.hasHooks('userPromptSubmit')) return NOTHING;
  const started = sessionStart === undefined ? undefined : await runner.run({ event: 'sessionStart', turnId, matchValue: sessionStart, signal, fields: { source: sessionStart } });
  const submitted = prompt === undefined ? undefined : await runner.run({ event: 'userPromptSubmit', turnId, signal, fields: { prompt } });
  return {
    context: (started?.contexts ?? []).map((entry) => hookContextMessage(entry.text)),
    afterPrompt: (submitted?.contexts ?? []).map((entry) => hookContextMessage(entry.text)),
    blocked: submitted?.blocked?.reason,
  };
}

/** Where a turn's hooks plug in beside its opening: its tool calls, its stop gates, its model-request observers. */
export function turnLifecycleHooks(runner: TurnHookRunner, threadId: string, warn: (message: string) => void): { readonly toolCalls: ToolCallHooks | undefined; readonly turnHooks: Partial<TurnHooks> } {
  const stopGate = hookStopGate(runner, warn);
  const modelRequests = hookModelRequests(runner, threadId);
  return {
    toolCalls: hookToolCalls(runner),
    turnHooks: { stopGates: stopGate === undefined ? [] : [stopGate], modelRequests: modelRequests === undefined ? [] : [modelRequests] },
  };
}

/** The turn's opening with what its hooks added: SessionStart's context last, UserPromptSubmit's right after the prompt. */
export function withHookOpening<T extends { readonly context: readonly ResponseItem[]; readonly input: readonly ResponseItem[] }>(opening: T, hooks: HookOpening): T {
  if (hooks === NOTHING) return opening;
  const [prompt, ...rest] = opening.input;
  const input = hooks.blocked !== undefined ? [] : prompt === undefined ? [...hooks.afterPrompt] : [prompt, ...hooks.afterPrompt, ...rest];
  return { ...opening, context: [...opening.context, ...hooks.context], input };
}

/** The Stop hooks as a stop gate, or undefined when the thread has none. */
export function hookStopGate(runner: TurnHookRunner, warn: (message: string) => void): StopGate | undefined {
  if (!runner.hasHooks('stop')) return undefined;
  return {
    name: 'stop hooks',
    async beforeStop(step, stopping) {
      if (stopping.continuations >= MAX_STOP_CONTINUATIONS) {
        warn(`Stop hooks sent this turn on ${MAX_STOP_CONTINUATIONS} times; it ends here`);
        return [];
      }
      const outcome = await runner.run({
        event: 'stop',
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
 * PreModelRequest and PostModelRequest around each of a turn's sampling requests, with Codex's fields
 * (probed): the request's kind, id and attempt, the thread id, and after it its status, error, token
 * usage and response id. They watch; nothing they answer changes the request.
 */
export function hookModelRequests(runner: TurnHookRunner, threadId: string): ModelRequestObserver | undefined {
  if (!runner.hasHooks('preModelRequest') && !runner.hasHooks('postModelRequest')) return undefined;
  const fields = (requestId: string) => ({ kind: 'sampling', request_id: requestId, attempt_number: 1, thread_id: threadId });
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
