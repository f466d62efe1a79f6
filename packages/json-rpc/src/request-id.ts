// Reading a request id out of a message too large (or too broken) to parse whole, so the error that
// answers it can still name the request; and the id Codex uses when even that fails.
import type { RequestId } from '@skein/protocol/executor';
import { OVERSIZED_HEAD_BYTES } from './limits.js';

/** The id Codex puts on an error answering a message whose own id could not be read. */
export const UNKNOWN_REQUEST_ID = -1;

const LEADING_ID = /"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,256}")/;

/**
 * The `id` found near the start of `text` (a string or an integer), or {@link UNKNOWN_REQUEST_ID}.
 *
 * @example
 * recoverRequestId('{"id":7,"method":"fs/writeFile","params":{"dataBase64":"AAAA…'); // 7
 */
export function recoverRequestId(text: string): RequestId {
  const match = LEADING_ID.exec(text.slice(0, OVERSIZED_HEAD_BYTES));
  if (match?.[1] === undefined) return UNKNOWN_REQUEST_ID;
  try {
    const id: unknown = JSON.parse(match[1]);
    return typeof id === 'string' || typeof id === 'number' ? id : UNKNOWN_REQUEST_ID;
  } catch {
    return UNKNOWN_REQUEST_ID;
  }
}
