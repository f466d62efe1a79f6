// `thread/goal/get`, `thread/goal/set` and `thread/goal/clear`: a client reads, sets or changes, and
// removes a loaded thread's goal. `thread/goal/updated` / `thread/goal/cleared` follow the answer; an
// active goal on an idle thread then starts a turn of its own (turn_trigger `goal`), as Codex does.
import { GoalError, GoalStatus } from '@skein/core';
import { ThreadIdParams } from '@skein/protocol';
import * as z from 'zod';
import { AppServerRequestError } from '../app-server-error.js';
import { defineMethod, type AppServerMethod } from '../method.js';

const Origin = z.enum(['user', 'automatic']).nullish();
const SetParams = z.looseObject({ threadId: z.string(), objective: z.string().nullish(), status: GoalStatus.nullish(), tokenBudget: z.int().nullish(), origin: Origin });
const ClearParams = z.looseObject({ threadId: z.string(), origin: Origin });

/** A goal refusal as the request's error. */
function refused<T>(act: () => T): T {
  try {
    return act();
  } catch (error) {
    if (error instanceof GoalError) throw AppServerRequestError.invalidRequest(error.message);
    throw error;
  }
}

export const THREAD_GOAL_METHODS: ReadonlyMap<string, AppServerMethod> = new Map<string, AppServerMethod>([
  [
    'thread/goal/get',
    defineMethod({
      params: ThreadIdParams,
      handle: (params, { server }) => ({ goal: server.threads.loaded(params.threadId).handle.goals.goal ?? null }),
    }),
  ],
  [
    'thread/goal/set',
    defineMethod({
      params: SetParams,
      handle(params, { server }) {
        const { handle } = server.threads.loaded(params.threadId);
        const goal = refused(() => handle.goals.set({ objective: params.objective ?? undefined, status: params.status ?? undefined, ...(params.tokenBudget === undefined ? {} : { tokenBudget: params.tokenBudget }) }));
        // An active goal on an idle thread starts a turn of its own once the answer is out.
        handle.continueGoal();
        return { goal };
      },
    }),
  ],
  [
    'thread/goal/clear',
    defineMethod({
      params: ClearParams,
      handle: (params, { server }) => ({ cleared: server.threads.loaded(params.threadId).handle.goals.clear() }),
    }),
  ],
]);
