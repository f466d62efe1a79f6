// A thread's goal work in one place: the goal, the tools the model changes it with, the gate that
// charges each response to it, and the turns that continue it.
import type { ToolHandler } from '@skein/extension-api';
import type { ResponseItem } from '@skein/protocol';
import type { CoreEvent } from '../turn/core-event.js';
import type { TurnOutcome } from '../turn/run-turn.js';
import type { ResponseGate } from '../turn/turn-hooks.js';
import { goalAccounting } from './goal-accounting.js';
import { GoalContinuation } from './goal-continuation.js';
import { goalTools } from './goal-tools.js';
import { ThreadGoals } from './thread-goals.js';

/** What the goal work reads from and does to its thread. */
export interface GoalWorkOptions {
  readonly threadId: string;
  readonly nowMs: () => number;
  readonly emit: (event: CoreEvent) => void;
  readonly maxTokenBudget: () => number | undefined;
  /** Whether an active goal may start turns of its own. */
  readonly continueGoals: boolean;
  /** Whether the thread can take a turn now. */
  readonly idle: () => boolean;
  /** Runs a continuation turn with these input items. */
  readonly run: (items: readonly ResponseItem[]) => Promise<TurnOutcome>;
  /** Adds items to what the model reads next. */
  readonly inject: (items: readonly ResponseItem[]) => void;
}

/** The goal, its tools, its accounting and its continuation. */
export class GoalWork {
  readonly goals: ThreadGoals;
  readonly tools: readonly ToolHandler[];
  readonly accounting: ResponseGate;
  readonly #continuation: GoalContinuation;

  constructor(options: GoalWorkOptions) {
    this.goals = new ThreadGoals({ threadId: options.threadId, nowMs: options.nowMs, emit: options.emit, maxTokenBudget: options.maxTokenBudget });
    this.tools = goalTools({ goals: this.goals, inject: options.inject });
    this.accounting = goalAccounting(this.goals);
    this.#continuation = new GoalContinuation({ goals: this.goals, enabled: options.continueGoals, idle: options.idle, run: options.run, warn: (message) => options.emit({ type: 'warning', message }) });
  }

  /** After a turn: a completed one continues an active goal. */
  afterTurn(outcome: TurnOutcome): void {
    this.#continuation.afterTurn(outcome);
  }

  /** Continues an active goal once the thread is idle. */
  continue(): void {
    this.#continuation.schedule();
  }
}
