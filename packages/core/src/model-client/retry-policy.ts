// Exponential backoff with full jitter, capped, and the server's `retry-after` honoured when given.

/** Backoff settings; the defaults follow Codex's (200 ms base, doubling). */
export interface RetryPolicy {
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** A number in [0, 1); injected so tests are deterministic. */
  readonly random: () => number;
}

// eslint-disable-next-line no-restricted-properties -- the default jitter source; tests inject their own
export const DEFAULT_RETRY_POLICY: RetryPolicy = { baseDelayMs: 200, maxDelayMs: 20_000, random: Math.random };

/** The wait before retry number `attempt` (1-based); a server's `retry-after` wins when present. */
export function retryDelayMs(policy: RetryPolicy, attempt: number, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, policy.maxDelayMs * 5);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  // Jitter between half and all of the ceiling: spreads retries without collapsing to zero.
  return Math.round(ceiling / 2 + (policy.random() * ceiling) / 2);
}

/** Reads a `retry-after` header (seconds or an HTTP date) or OpenAI's `retry-after-ms`. */
export function parseRetryAfter(headers: { get(name: string): string | null }, now: number): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.ceil(Number(ms));
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.ceil(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
