// A goal that is still active when a turn completes keeps the thread working: a turn of its own
// starts (turn_trigger `goal`), its input the goal's objective and an internal note of where the
// work stands, as Codex 0.171.0 continues a goal. A user's turn comes first: a continuation waits for
// an idle thread and gives way to a turn the user starts meanwhile. A failed or interrupted turn, a
// goal that is no longer active (complete, paused, out of budget) or a closed thread stops it.
import type { ResponseItem } from '@skein/protocol';
import type { TurnOutcome } from '../turn/run-turn.js';
import { goalObjectiveItem } from './goal-tools.js';
import { remainingTokens, type ThreadGoal } from './thread-goal.js';
import type { ThreadGoals } from './thread-goals.js';

/** The internal note's tag; Codex's clients hide a message that carries it. */
export const GOAL_CONTEXT_OPEN = '<codex_internal_context source="goal">';
export const GOAL_CONTEXT_CLOSE = '</codex_internal_context>';

/** What continuing reads and does. */
export interface GoalContinuationOptions {
  readonly goals: ThreadGoals;
  /** Whether the host lets goals start turns (an app-server thread does; a one-shot `skein exec` does not). */
  readonly enabled: boolean;
  /** Whether the thread can take a turn now (no turn running, not closed). */
  readonly idle: () => boolean;
  /** Runs a continuation turn with these input items. */
  readonly run: (items: readonly ResponseItem[]) => Promise<TurnOutcome>;
  /** Told when a continuation could not start (the thread refused it). */
  readonly warn: (message: string) => void;
}

/** Starts continuation turns while the thread's goal stays active. */
export class GoalContinuation {
  readonly #options: GoalContinuationOptions;
  #scheduled = false;

  constructor(options: GoalContinuationOptions) {
    this.#options = options;
  }

  /** After a turn: a completed one continues an active goal. */
  afterTurn(outcome: TurnOutcome): void {
    if (outcome.status === 'completed') this.schedule();
  }

  /** Continues the goal once the thread is idle (after the current task), if it is active then. */
  schedule(): void {
    if (!this.#options.enabled || this.#scheduled || !this.#options.goals.isActive) return;
    this.#scheduled = true;
    // On the next tick: whoever ended the turn (or set the goal) finishes first, and a user's turn
    // that starts meanwhile takes the thread instead.
    setImmediate(() => {
      this.#scheduled = false;
      const goal = this.#options.goals.goal;
      if (goal?.status !== 'active' || !this.#options.idle()) return;
      // A turn reports its own failures; a refusal to start one (another turn got there first) is only worth a word.
      this.#options.run(continuationItems(goal)).catch((error: unknown) => this.#options.warn(`the goal was not continued: ${error instanceof Error ? error.message : String(error)}`));
    });
  }
}

/** The input of a continuation turn: the objective, then where the work stands. */
export function continuationItems(goal: ThreadGoal): ResponseItem[] {
  const remaining = remainingTokens(goal);
  const budget =
    goal.tokenBudget === null
      ? ['Budget: none set.']
      : ['Budget:', `- tokens used: ${goal.tokensUsed}`, `- token budget: ${goal.tokenBudget}`, `- tokens remaining: ${remaining}`];
  const note = [
    GOAL_CONTEXT_OPEN,
    'You are continuing work on this thread\'s goal on your own; the user has not written since. Pick up where the work stands and take the next step towards the objective.',
    'When the objective is met, call update_goal with status "complete" and report to the user. If you cannot go on without the user, call update_goal with status "blocked" and say what you need.',
    ...budget,
    GOAL_CONTEXT_CLOSE,
  ].join('\n');
  return [goalObjectiveItem(goal.objective), { type: 'message', role: 'user', content: [{ type: 'input_text', text: note }] }];
}
