// Keeping tool outputs within a token budget: the middle of an oversized output is cut and replaced
// by a marker that says how much was removed, so the model keeps the start and the end.

/** Tokens are estimated as Codex does for budgets: one token per four UTF-8 bytes, rounded up. */
export function approximateTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text, 'utf8') / 4);
}

const isContinuation = (byte: number | undefined) => byte !== undefined && (byte & 0xc0) === 0x80;

/** Moves `index` to a UTF-8 character boundary: backward (to keep a head whole) or forward (for a tail). */
function characterBoundary(bytes: Uint8Array, index: number, direction: 'backward' | 'forward'): number {
  let at = Math.min(Math.max(0, index), bytes.length);
  while (at > 0 && at < bytes.length && isContinuation(bytes[at])) at += direction === 'forward' ? 1 : -1;
  return at;
}

/** The marker left where text was removed. */
export function truncationMarker(removedTokens: number): string {
  return `…${removedTokens} tokens truncated…`;
}

/**
 * `text` itself when it fits `maxTokens`; otherwise its head and tail (half the budget each, cut on
 * character boundaries) around a truncation marker.
 */
export function truncateMiddle(text: string, maxTokens: number): string {
  const total = approximateTokens(text);
  if (total <= maxTokens) return text;
  const budgetBytes = Math.max(0, maxTokens * 4);
  const bytes = Buffer.from(text, 'utf8');
  const headBytes = Math.floor(budgetBytes / 2);
  const tailBytes = budgetBytes - headBytes;
  const head = bytes.subarray(0, characterBoundary(bytes, headBytes, 'backward')).toString('utf8');
  const tail = bytes.subarray(characterBoundary(bytes, bytes.length - tailBytes, 'forward')).toString('utf8');
  const removed = total - approximateTokens(head) - approximateTokens(tail);
  return `${head}${truncationMarker(Math.max(removed, 1))}${tail}`;
}
