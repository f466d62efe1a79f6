// How a failed turn's error is classified for clients: Codex's `CodexErrorInfo` (camelCase in the
// app-server protocol, snake_case in the rollout's `task_complete`). The mapping is Codex 0.171.0's,
// probed against the mock model: HTTP 500 is `internalServerError`, other HTTP failures name their
// status (`httpConnectionFailed`), a 429 that outlived its retries `responseTooManyFailedAttempts`, a
// 400 and any failure Codex does not single out `other`.
import { ModelError } from '../model-client/model-error.js';
import type { TurnError } from './run-turn.js';

/** A status-carrying kind, as `{httpConnectionFailed: {httpStatusCode}}`. */
type WithStatus<K extends string> = { readonly [key in K]: { readonly httpStatusCode: number | null } };

/** The `CodexErrorInfo` kinds Skein reports. */
export type CodexErrorInfo =
  | 'sessionBudgetExceeded'
  | 'contextWindowExceeded'
  | 'usageLimitExceeded'
  | 'rateLimitExceeded'
  | 'internalServerError'
  | 'other'
  | WithStatus<'httpConnectionFailed'>
  | WithStatus<'responseStreamDisconnected'>
  | WithStatus<'responseTooManyFailedAttempts'>;

/**
 * The app-server's `codexErrorInfo` for `error`; undefined for a failure that is not the model's
 * (a session that cannot run the turn: Codex sends none there either).
 */
export function codexErrorInfoOf(error: TurnError): CodexErrorInfo | undefined {
  if (!(error instanceof ModelError)) return 'code' in error && error.code === 'SessionBudgetExceeded' ? 'sessionBudgetExceeded' : undefined;
  const status = error.details.status ?? null;
  switch (error.code) {
    case 'ContextWindowExceeded':
      return 'contextWindowExceeded';
    case 'UsageLimitReached':
      return 'usageLimitExceeded';
    case 'RateLimited':
      // A 429 answer is retried until the budget runs out; a stream that failed with
      // `rate_limit_exceeded` is not an HTTP failure.
      return status === null ? 'rateLimitExceeded' : { responseTooManyFailedAttempts: { httpStatusCode: status } };
    case 'ServerError':
      return status === 500 ? 'internalServerError' : { httpConnectionFailed: { httpStatusCode: status } };
    case 'Unauthorized':
      return { httpConnectionFailed: { httpStatusCode: status } };
    case 'BadRequest':
      // Codex reports a 400 as `other`, other refusals (404, …) by their status.
      return status === null || status === 400 ? 'other' : { httpConnectionFailed: { httpStatusCode: status } };
    case 'Transport':
      return { httpConnectionFailed: { httpStatusCode: null } };
    case 'StreamDisconnected':
    case 'IdleTimeout':
      return { responseStreamDisconnected: { httpStatusCode: status } };
    case 'ResponseFailed':
      return error.details.serverCode === 'rate_limit_exceeded' ? 'rateLimitExceeded' : 'other';
    case 'QuotaExceeded':
    case 'MissingApiKey':
    case 'Aborted':
      return 'other';
  }
}

/** The same kind as the rollout writes it: `session_budget_exceeded`, `{http_connection_failed: {http_status_code: 401}}`. */
export function rolloutErrorInfo(info: CodexErrorInfo): unknown {
  const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
  if (typeof info === 'string') return snake(info);
  return Object.fromEntries(Object.entries(info).map(([kind, fields]) => [snake(kind), Object.fromEntries(Object.entries(fields as object).map(([key, value]) => [snake(key), value]))]));
}
