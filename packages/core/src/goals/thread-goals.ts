// One thread's goal as it changes: created by the model (create_goal) or a client (thread/goal/set),
// its status moved by update_goal or the client, charged with the tokens of each response while it
// is active, and limited by its budget. Every change is a `goalUpdated` event (the rollout records
// it as Codex's `thread_goal_updated` line, so a resumed thread has its goal back).
import type { CoreEvent } from '../turn/core-event.js';
import { GoalError, ThreadGoal, type GoalStatus } from './thread-goal.js';

/** What the goal reads and reports to. */
export interface ThreadGoalsOptions {
  readonly threadId: string;
  /** Milliseconds since the epoch. */
  readonly nowMs: () => number;
  readonly emit: (event: CoreEvent) => void;
  /** `[goals] max_goal_token_budget`, if set. */
  readonly maxTokenBudget: () => number | undefined;
}

/** What a client may change with thread/goal/set. */
export interface GoalChange {
  readonly objective?: string | undefined;
  readonly status?: GoalStatus | undefined;
  readonly tokenBudget?: number | null | undefined;
}

/** The thread's goal, if it has one. */
export class ThreadGoals {
  readonly #options: ThreadGoalsOptions;
  #goal: ThreadGoal | undefined;
  /** When the goal last became active (its time is counted while it is). */
  #activeSinceMs: number | undefined;

  constructor(options: ThreadGoalsOptions) {
    this.#options = options;
  }

  /** The goal now, its time brought up to date; undefined when the thread has none. */
  get goal(): ThreadGoal | undefined {
    return this.#goal === undefined ? undefined : this.#withTime(this.#goal);
  }

  /** Whether a goal is active (the model is working towards it). */
  get isActive(): boolean {
    return this.#goal?.status === 'active';
  }

  /** create_goal: a new active goal; refused while an unfinished one exists. */
  create(objective: string, tokenBudget: number | undefined, turnId: string | null): ThreadGoal {
    if (this.#goal !== undefined && this.#goal.status !== 'complete') throw new GoalError('this thread already has a goal that is not complete; finish it (update_goal with status "complete") before creating another');
    const text = checkedObjective(objective);
    const budget = tokenBudget === undefined ? null : this.#checkedBudget(tokenBudget);
    const now = this.#nowSeconds();
    return this.#replace({ threadId: this.#options.threadId, objective: text, status: 'active', tokenBudget: budget, tokensUsed: 0, timeUsedSeconds: 0, createdAt: now, updatedAt: now }, turnId);
  }

  /** update_goal: the model marks the goal complete, blocked or paused. */
  updateStatus(status: GoalStatus, turnId: string | null): ThreadGoal {
    const goal = this.#goal;
    if (goal === undefined) throw new GoalError('this thread has no goal to update; create one with create_goal first');
    return this.#replace({ ...goal, status, updatedAt: this.#nowSeconds() }, turnId);
  }

  /** thread/goal/set: a client creates the goal (an objective is needed then) or changes it. */
  set(change: GoalChange, turnId: string | null = null): ThreadGoal {
    const now = this.#nowSeconds();
    const current = this.#goal;
    if (current === undefined || (current.status === 'complete' && change.objective !== undefined)) {
      if (change.objective === undefined) throw new GoalError('the thread has no goal: give an objective to set one');
      const budget = change.tokenBudget === undefined || change.tokenBudget === null ? null : this.#checkedBudget(change.tokenBudget);
      return this.#replace({ threadId: this.#options.threadId, objective: checkedObjective(change.objective), status: change.status ?? 'active', tokenBudget: budget, tokensUsed: 0, timeUsedSeconds: 0, createdAt: now, updatedAt: now }, turnId);
    }
    return this.#replace(
      {
        ...current,
        ...(change.objective === undefined ? {} : { objective: checkedObjective(change.objective) }),
        ...(change.status === undefined ? {} : { status: change.status }),
        ...(change.tokenBudget === undefined ? {} : { tokenBudget: change.tokenBudget === null ? null : this.#checkedBudget(change.tokenBudget) }),
        updatedAt: now,
      },
      turnId,
    );
  }

  /** thread/goal/clear: removes the goal; false when there was none. */
  clear(): boolean {
    if (this.#goal === undefined) return false;
    this.#goal = undefined;
    this.#activeSinceMs = undefined;
    this.#options.emit({ type: 'goalCleared' });
    return true;
  }

  /** Charges a response's tokens to the active goal; a budget used up makes it `budgetLimited`. */
  charge(tokens: number, turnId: string): void {
    const goal = this.#goal;
    if (goal?.status !== 'active' || tokens <= 0) return;
    const tokensUsed = goal.tokensUsed + tokens;
    const spent = goal.tokenBudget !== null && tokensUsed >= goal.tokenBudget;
    this.#replace({ ...goal, tokensUsed, status: spent ? 'budgetLimited' : 'active', updatedAt: this.#nowSeconds() }, turnId);
  }

  /** The goal a resumed (or forked) thread had, now this thread's; invalid records are ignored. */
  restore(recorded: unknown): void {
    const parsed = ThreadGoal.safeParse(recorded);
    if (!parsed.success) return;
    this.#goal = { ...parsed.data, threadId: this.#options.threadId };
    this.#activeSinceMs = this.#goal.status === 'active' ? this.#options.nowMs() : undefined;
  }

  /**
   * Makes `next` the goal. The stored time counts up to when the goal last became active; leaving
   * `active` adds the time since, becoming active starts the count.
   */
  #replace(next: ThreadGoal, turnId: string | null): ThreadGoal {
    const wasActive = this.#goal?.status === 'active' && this.#goal.createdAt === next.createdAt;
    let stored = next;
    if (wasActive && next.status !== 'active') stored = this.#withTime(next);
    if (next.status !== 'active') this.#activeSinceMs = undefined;
    else if (!wasActive) this.#activeSinceMs = this.#options.nowMs();
    this.#goal = stored;
    const shown = this.#withTime(stored);
    this.#options.emit({ type: 'goalUpdated', turnId, goal: shown });
    return shown;
  }

  /** The goal with the time it has been active since the count started added. */
  #withTime(goal: ThreadGoal): ThreadGoal {
    if (this.#activeSinceMs === undefined) return goal;
    const seconds = Math.floor((this.#options.nowMs() - this.#activeSinceMs) / 1000);
    return seconds <= 0 ? goal : { ...goal, timeUsedSeconds: goal.timeUsedSeconds + seconds };
  }

  #checkedBudget(budget: number): number {
    if (!Number.isInteger(budget) || budget <= 0) throw new GoalError('a goal token budget must be a positive whole number of tokens');
    const max = this.#options.maxTokenBudget();
    if (max !== undefined && budget > max) throw new GoalError(`a goal token budget may be at most ${max} tokens ([goals] max_goal_token_budget)`);
    return budget;
  }

  #nowSeconds(): number {
    return Math.floor(this.#options.nowMs() / 1000);
  }
}

function checkedObjective(objective: string): string {
  const text = objective.trim();
  if (text === '') throw new GoalError('a goal objective cannot be empty');
  return text;
}
