// get_goal, create_goal and update_goal with Codex 0.171.0's names, parameters and outputs (probed;
// the descriptions are ours). A refusal is an output the model reads. After a goal is created the
// model is shown its objective as Codex shows it: an output item no call asked for, named
// `goal_objective` in the `agent` namespace.
import { defineFunctionTool, ToolError, type FunctionToolHandler } from '@skein/extension-api';
import type { FunctionToolSpec, ResponseItem } from '@skein/protocol';
import * as z from 'zod';
import { GoalError, goalToolOutput, MODEL_GOAL_STATUSES } from './thread-goal.js';
import type { ThreadGoals } from './thread-goals.js';

/** What the tools act on. */
export interface GoalToolsBinding {
  readonly goals: ThreadGoals;
  /** Adds items to what the model reads next (the running turn's next request). */
  readonly inject: (items: readonly ResponseItem[]) => void;
}

/** The item that tells the model its goal. */
export function goalObjectiveItem(objective: string): ResponseItem {
  return { type: 'function_call_output', name: 'goal_objective', namespace: 'agent', output: objective };
}

function spec(name: string, description: string, properties: Record<string, unknown>, required: readonly string[]): FunctionToolSpec {
  return { type: 'function', name, description, strict: false, parameters: { type: 'object', properties, required: [...required], additionalProperties: false } };
}

/** A goal refusal as the output the model reads. */
function refused<T>(act: () => T): T {
  try {
    return act();
  } catch (error) {
    if (error instanceof GoalError) throw new ToolError(error.message);
    throw error;
  }
}

// Specs and argument schemas are built once per process: every loaded thread has these tools, and
// rebuilding them per thread was a measurable share of a thread's memory (issue #43).
const GET_GOAL = {
  spec: spec('get_goal', "Read this thread's goal: its objective, status, token budget and the tokens and time used so far.", {}, []),
  args: z.looseObject({}),
};
const CREATE_GOAL = {
  spec: spec(
    'create_goal',
    'Set a goal for this thread: an objective you keep working towards across turns until it is done. Only one unfinished goal at a time.',
    {
      objective: { type: 'string', description: 'What the goal is, stated so that it is clear when it is met.' },
      token_budget: { type: 'integer', description: 'Tokens the work may use at most (optional).' },
    },
    ['objective'],
  ),
  args: z.object({ objective: z.string(), token_budget: z.number().optional() }),
};
const UPDATE_GOAL = {
  spec: spec(
    'update_goal',
    'Mark the goal complete when it is met, or blocked or paused when the user asks or you cannot go on. Resuming a goal is up to the user.',
    { status: { type: 'string', description: "The goal's new status.", enum: [...MODEL_GOAL_STATUSES] } },
    ['status'],
  ),
  args: z.object({ status: z.string() }),
};

/** The three goal tools of one thread. */
export function goalTools(binding: GoalToolsBinding): FunctionToolHandler[] {
  const { goals } = binding;
  return [
    defineFunctionTool({
      spec: GET_GOAL.spec,
      arguments: GET_GOAL.args,
      handle: () => Promise.resolve({ output: goalToolOutput(goals.goal), success: true }),
    }),
    defineFunctionTool({
      spec: CREATE_GOAL.spec,
      arguments: CREATE_GOAL.args,
      handle: (args, context) => {
        const goal = refused(() => goals.create(args.objective, args.token_budget, context.turnId));
        binding.inject([goalObjectiveItem(goal.objective)]);
        return Promise.resolve({ output: goalToolOutput(goal), success: true });
      },
    }),
    defineFunctionTool({
      spec: UPDATE_GOAL.spec,
      arguments: UPDATE_GOAL.args,
      handle: (args, context) => {
        const status = (MODEL_GOAL_STATUSES as readonly string[]).includes(args.status) ? (args.status as (typeof MODEL_GOAL_STATUSES)[number]) : undefined;
        if (status === undefined) throw new ToolError(`update_goal can set the status to ${MODEL_GOAL_STATUSES.join(', ')} only; making a goal active again, or budget and usage limits, are for the user and the system`);
        const goal = refused(() => goals.updateStatus(status, context.turnId));
        return Promise.resolve({ output: goalToolOutput(goal, status === 'complete'), success: true });
      },
    }),
  ];
}
