// The failure of a turn stopped by the session's spent rollout budget. Codex 0.171.0 ends such a
// turn as failed with the message `budget reached` and the error info `sessionBudgetExceeded`.

/** The session's shared rollout budget is spent: the turn stops at this usage boundary. */
export class BudgetExhaustedError extends Error {
  override readonly name = 'BudgetExhaustedError';
  readonly code = 'SessionBudgetExceeded';

  constructor() {
    super('budget reached');
  }
}
