// A thread's goal: an objective the agent keeps working towards, with an optional token budget, as
// Codex 0.171.0 keeps one per thread (its fields, statuses and tool output shapes are Codex's,
// probed; the words are ours).
import * as z from 'zod';

/** Where a goal stands. The model may set `complete`, `blocked` and `paused`; the rest are the user's or the system's. */
export const GoalStatus = z.enum(['active', 'paused', 'blocked', 'usageLimited', 'budgetLimited', 'complete']);
export type GoalStatus = z.infer<typeof GoalStatus>;

/** The statuses update_goal accepts. */
export const MODEL_GOAL_STATUSES = ['complete', 'blocked', 'paused'] as const;

/** One thread's goal; times are Unix seconds, as Codex sends them. */
export const ThreadGoal = z.object({
  threadId: z.string(),
  objective: z.string(),
  status: GoalStatus,
  tokenBudget: z.int().positive().nullable(),
  tokensUsed: z.int().nonnegative(),
  timeUsedSeconds: z.int().nonnegative(),
  createdAt: z.int(),
  updatedAt: z.int(),
});
export type ThreadGoal = z.infer<typeof ThreadGoal>;

/** A refusal the model (or client) reads: no goal, a second goal, a bad objective or budget. */
export class GoalError extends Error {
  override readonly name = 'GoalError';
}

/** Tokens left under the budget, or null without one. */
export function remainingTokens(goal: ThreadGoal): number | null {
  return goal.tokenBudget === null ? null : Math.max(0, goal.tokenBudget - goal.tokensUsed);
}

/**
 * The goal as get_goal, create_goal and update_goal answer it (a JSON string): the goal (its
 * budget left out when it has none), the tokens left, and — on completing a goal with a budget — a
 * short account of what the budget went to.
 */
export function goalToolOutput(goal: ThreadGoal | undefined, completed = false): string {
  if (goal === undefined) return JSON.stringify({ goal: null, remainingTokens: null, completionBudgetReport: null });
  const { tokenBudget, ...rest } = goal;
  const wire = { threadId: rest.threadId, objective: rest.objective, status: rest.status, ...(tokenBudget === null ? {} : { tokenBudget }), tokensUsed: rest.tokensUsed, timeUsedSeconds: rest.timeUsedSeconds, createdAt: rest.createdAt, updatedAt: rest.updatedAt };
  const report =
    completed && tokenBudget !== null
      ? `The goal is complete. It used ${goal.tokensUsed} of its ${tokenBudget}-token budget (${Math.round((100 * goal.tokensUsed) / tokenBudget)}%) over ${goal.timeUsedSeconds} s. Tell the user what was done and anything left open; do not start new work for this goal.`
      : null;
  return JSON.stringify({ goal: wire, remainingTokens: remainingTokens(goal), completionBudgetReport: report });
}
