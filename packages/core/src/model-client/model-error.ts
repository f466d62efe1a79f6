// Why a model request failed, classified so the turn loop and clients can react without parsing text.

/** Stable codes for model failures. */
export type ModelErrorCode =
  | 'ContextWindowExceeded'
  | 'UsageLimitReached'
  | 'QuotaExceeded'
  | 'RateLimited'
  | 'Unauthorized'
  | 'MissingApiKey'
  | 'BadRequest'
  | 'ServerError'
  | 'Transport'
  | 'StreamDisconnected'
  | 'IdleTimeout'
  | 'ResponseFailed'
  | 'Aborted';

const RETRYABLE: ReadonlySet<ModelErrorCode> = new Set(['RateLimited', 'ServerError', 'Transport', 'StreamDisconnected', 'IdleTimeout']);

/** A failed model request; `retryable` tells whether sending it again may succeed. */
export class ModelError extends Error {
  override readonly name = 'ModelError';

  constructor(
    readonly code: ModelErrorCode,
    message: string,
    readonly details: {
      /** HTTP status, when the server answered. */
      readonly status?: number;
      /** The server's own error code (`context_length_exceeded`, `usage_limit_reached`, …). */
      readonly serverCode?: string;
      /** How long the server asked us to wait before retrying, in ms. */
      readonly retryAfterMs?: number;
      readonly cause?: unknown;
    } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
  }

  /** Whether a retry may succeed (rate limits, 5xx, transport errors, cut streams). */
  get retryable(): boolean {
    return RETRYABLE.has(this.code);
  }
}

/** Classifies an error the API reported (HTTP body or `response.failed`) by its code and status. */
export function classifyApiError(status: number | undefined, serverCode: string | undefined, message: string, retryAfterMs?: number): ModelError {
  const details = {
    ...(status === undefined ? {} : { status }),
    ...(serverCode === undefined ? {} : { serverCode }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
  switch (serverCode) {
    case 'context_length_exceeded':
      return new ModelError('ContextWindowExceeded', `the conversation no longer fits the model's context window: ${message}`, details);
    case 'usage_limit_reached':
    case 'usage_not_included':
      return new ModelError('UsageLimitReached', `usage limit reached: ${message}`, details);
    case 'insufficient_quota':
      return new ModelError('QuotaExceeded', `quota exceeded; check the provider account's plan and billing: ${message}`, details);
    default:
      break;
  }
  if (status === 401 || status === 403) return new ModelError('Unauthorized', `the provider rejected the credentials (HTTP ${status}): ${message}`, details);
  if (status === 429) return new ModelError('RateLimited', `rate limited (HTTP 429): ${message}`, details);
  if (status !== undefined && status >= 500) return new ModelError('ServerError', `the provider failed (HTTP ${status}): ${message}`, details);
  if (status !== undefined && status >= 400) return new ModelError('BadRequest', `the provider refused the request (HTTP ${status}): ${message}`, details);
  return new ModelError('ResponseFailed', `the model response failed: ${message}`, details);
}
