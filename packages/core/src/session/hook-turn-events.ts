// The hook events of a turn's opening and end: SessionStart on the first turn since the thread
// opened (its context ends the turn's context), UserPromptSubmit on the user's prompt (its context
// follows the prompt; a block keeps the prompt from the model), and Stop when the turn would end (a
// block sends it on with a hook prompt). At most MAX_STOP_CONTINUATIONS Stop blocks per turn: a
// hook that always blocks would otherwise sample forever.
import { hookPromptText, type ResponseItem } from '@skein/protocol';
import type { StopGate } from '../turn/turn-hooks.js';
import { hookContextMessage, type TurnHookRunner } from './thread-hooks.js';

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
