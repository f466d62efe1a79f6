// A thread's service tier as Codex 0.171.0 keeps it: whatever string a client chose (`fast` is the
// old name of `priority`; clearing it with null chooses `default`), of which only `priority` and
// `flex` reach the Responses request; any other tier runs at the provider's default speed.
import type { ResponsesServiceTier } from '@skein/core';

/** The tier a client's `serviceTier` sets: unchanged when absent. */
export function chosenServiceTier(requested: string | null | undefined, current: string | null): string | null {
  if (requested === undefined) return current;
  if (requested === null) return 'default';
  return requested === 'fast' ? 'priority' : requested;
}

/** The `service_tier` a turn's requests carry for the thread's (or the turn's own) tier. */
export function requestServiceTier(tier: string | null): ResponsesServiceTier | undefined {
  return tier === 'priority' || tier === 'flex' ? tier : undefined;
}
