// The clock the writer and the index read time from, injected so tests control every timestamp.

/** A source of the current time. */
export interface Clock {
  now(): Date;
}

/** The machine's clock; the one place this package reads wall time. */
export const systemClock: Clock = { now: () => new Date() };

/** A rollout line timestamp: ISO 8601 in UTC with milliseconds, as Codex writes them (`2026-11-30T11:53:59.036Z`). */
export function rolloutTimestamp(date: Date): string {
  return date.toISOString();
}
