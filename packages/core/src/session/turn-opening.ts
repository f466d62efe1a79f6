// What a turn records before its first request, in order: its opening hooks (SessionStart or
// SubagentStart, UserPromptSubmit), which may keep the prompt from the model; a compaction due
// before the turn, so the new prompt follows the summary; then the turn's context and input, with
// the hooks' context where it belongs.
import type { ResponseItem, UserInput } from '@skein/protocol';
import { ModelError } from '../model-client/model-error.js';
import type { TurnParameters } from '../turn/run-turn.js';
import type { AssembledTurn } from './turn-context-assembly.js';
import { hookOpening, withHookOpening } from './hook-turn-events.js';
import type { ThreadOpeningEvent, TurnHookRunner } from './thread-hooks.js';

/** What a turn's opening gives the turn runner. */
export type TurnOpening = Awaited<ReturnType<NonNullable<TurnParameters['open']>>>;

/** The turn being opened. */
export interface OpeningTurn {
  readonly turnId: string;
  readonly signal: AbortSignal;
  readonly input: readonly UserInput[];
  /** Items the host adds after the input (a goal's continuation). */
  readonly inputItems?: readonly ResponseItem[] | undefined;
}

/** The thread's parts an opening uses. */
export interface TurnOpeningSteps {
  readonly hooks: TurnHookRunner;
  /** The thread's opening event, on its first turn. */
  readonly opening: ThreadOpeningEvent | undefined;
  /** The prompt passed its hooks: the host shows it now. */
  readonly onPromptAccepted?: (() => void) | undefined;
  /** Compacts first when the window is full for this turn's model. */
  compactIfDue(): Promise<void>;
  /** The turn's context and input items. */
  assemble(): Promise<AssembledTurn>;
  /** Records what a code-mode model is offered, ahead of the turn's context (as Codex does). */
  recordOffered(): void;
  /** Records the client's user message once the input is recorded. */
  readonly recordUserMessage?: (() => void) | undefined;
}

/** Opens `turn`: its hooks, a compaction due, its context and input. */
export async function openTurn(turn: OpeningTurn, steps: TurnOpeningSteps): Promise<TurnOpening> {
  const { turnId, signal, input } = turn;
  const prompt = input.some((part) => part.type === 'text') ? input.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n') : undefined;
  const hooked = await hookOpening(steps.hooks, { turnId, signal, opening: steps.opening, prompt });
  // Interrupted while a hook ran: the prompt was not cleared, so nothing of it is recorded.
  if (signal.aborted) throw new ModelError('Aborted', 'the turn was interrupted');
  if (hooked.blocked !== undefined) return { context: [], input: [], stopBeforeSampling: hooked.blocked };
  steps.onPromptAccepted?.();
  await steps.compactIfDue();
  const assembled = withHookOpening(await steps.assemble(), hooked);
  steps.recordOffered();
  const withItems = turn.inputItems === undefined ? assembled : { ...assembled, input: [...assembled.input, ...turn.inputItems] };
  return steps.recordUserMessage === undefined ? withItems : { ...withItems, onInputRecorded: steps.recordUserMessage };
}
