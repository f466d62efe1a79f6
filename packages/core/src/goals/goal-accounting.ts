// Charges each response's tokens (input + output, as Codex counts them) to the thread's goal while it
// is active, as the response completes — before its tool calls run, so a call that ends the goal
// still pays for the response that made it.
import type { ResponseGate } from '../turn/turn-hooks.js';
import type { ThreadGoals } from './thread-goals.js';

/** The gate that charges; it never stops a turn. */
export function goalAccounting(goals: ThreadGoals): ResponseGate {
  return {
    name: 'goal-accounting',
    gateResponse(step, response) {
      if (response.usage !== undefined) goals.charge(response.usage.input_tokens + response.usage.output_tokens, step.turnId);
      return undefined;
    },
  };
}
