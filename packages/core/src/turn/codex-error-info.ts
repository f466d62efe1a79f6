// How a failed turn's error is classified for clients: Codex's `CodexErrorInfo` (camelCase in the
// app-server protocol, snake_case in the rollout's `task_complete`). Only the kinds Skein can tell
// apart for certain are classified; anything else has no info, as Codex leaves unknown failures.
import type { TurnError } from './run-turn.js';

/** The `CodexErrorInfo` kinds Skein reports. */
export type CodexErrorInfo = 'sessionBudgetExceeded' | 'contextWindowExceeded' | 'usageLimitExceeded';

/** The app-server's `codexErrorInfo` for `error`, or undefined when it is none of the known kinds. */
export function codexErrorInfoOf(error: TurnError): CodexErrorInfo | undefined {
  switch ('code' in error ? error.code : undefined) {
    case 'SessionBudgetExceeded':
      return 'sessionBudgetExceeded';
    case 'ContextWindowExceeded':
      return 'contextWindowExceeded';
    case 'UsageLimitReached':
      return 'usageLimitExceeded';
    default:
      return undefined;
  }
}

/** The same kind as the rollout writes it: `session_budget_exceeded`. */
export function rolloutErrorInfo(info: CodexErrorInfo): string {
  return info.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}
