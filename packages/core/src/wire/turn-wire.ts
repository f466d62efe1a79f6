// What a turn's notifications carry beyond its items, in Codex's wire shapes: the error of a turn
// that failed or was stopped, and the rate limits reported after each response.
import { codexErrorInfoOf } from '../turn/codex-error-info.js';
import type { TurnError } from '../turn/run-turn.js';
import type { WireObject } from './thread-items.js';

/**
 * The rate limits Codex reports when the provider sends none (Skein reads no rate-limit headers yet):
 * every limit unknown.
 */
export const UNKNOWN_RATE_LIMITS = {
  limitId: 'codex',
  limitName: null,
  normalModelSlug: null,
  primary: null,
  secondary: null,
  credits: null,
  individualLimit: null,
  spendControlReached: null,
  planType: null,
  rateLimitReachedType: null,
} as const;

/** A turn's `error` as the protocol's TurnError object. */
export function turnErrorObject(error: TurnError): WireObject {
  return { message: error.message, codexErrorInfo: codexErrorInfoOf(error) ?? null, additionalDetails: null };
}
