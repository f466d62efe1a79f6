// Every `skills` tool result is compact JSON of at most 8 KB: lists are cut into pages, file contents
// into chunks, and the cursor says where the next call starts.

/** The most bytes of one serialized result. */
export const MAX_RESULT_BYTES = 8 * 1024;

const size = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** The longest prefix of `items` (at least one when it fits at all) whose `build(prefix)` fits. */
export function fitItems<T, R>(items: readonly T[], build: (page: readonly T[], more: boolean) => R): { readonly result: R; readonly taken: number } {
  let taken = items.length;
  // Shrink geometrically, then step back up: a page boundary costs few serializations.
  while (taken > 0 && size(build(items.slice(0, taken), taken < items.length)) > MAX_RESULT_BYTES) taken = Math.floor(taken / 2);
  while (taken < items.length && size(build(items.slice(0, taken + 1), taken + 1 < items.length)) <= MAX_RESULT_BYTES) taken += 1;
  return { result: build(items.slice(0, taken), taken < items.length), taken };
}

/** The longest prefix of `text` (in characters, on a code-point boundary) whose `build(prefix)` fits. */
export function fitText<R>(text: string, build: (chunk: string, more: boolean) => R): { readonly result: R; readonly taken: number } {
  if (size(build(text, false)) <= MAX_RESULT_BYTES) return { result: build(text, false), taken: text.length };
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (size(build(cut(text, middle), true)) <= MAX_RESULT_BYTES) low = middle;
    else high = middle - 1;
  }
  const chunk = cut(text, low);
  return { result: build(chunk, true), taken: chunk.length };
}

/** `text` cut at `length`, moved back off a surrogate pair's first half. */
function cut(text: string, length: number): string {
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}

/** Opaque cursors: base64url JSON. */
export function encodeCursor(value: Readonly<Record<string, string | number>>): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

export function decodeCursor(cursor: string): unknown {
  try {
    return JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
