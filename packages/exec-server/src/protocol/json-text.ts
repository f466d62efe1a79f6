// Serializing answers that carry megabytes of base64 without JSON.stringify scanning every character
// for escapes: such strings are spliced in as they are (base64 never needs escaping).
import { randomBytes } from 'node:crypto';

// Below this a string is left to JSON.stringify: scanning a few kilobytes costs less than splicing.
const SPLICE_MIN_CHARS = 16 * 1024;
// Unique per process, so no string a client sent can be mistaken for a placeholder. Made on the
// first long string: node:crypto is not loaded at start for it (issue #18).
let placeholders: { readonly nonce: string; readonly pattern: RegExp } | undefined;
const placeholder = () => (placeholders ??= placeholdersFor(randomBytes(8).toString('hex')));
const placeholdersFor = (nonce: string) => ({ nonce, pattern: new RegExp(`"${nonce}:(\\d+)"`, 'g') });
// The strings being spliced into the message toJsonText is serializing now (it runs synchronously,
// so one collector serves every call).
let collecting: string[] | undefined;

/** A string known to need no JSON escaping (base64), spliced into the serialized message verbatim. */
export class VerbatimString {
  constructor(readonly text: string) {}

  /**
   * What JSON.stringify writes for it: the text itself when short, else a placeholder toJsonText
   * replaces. A toJSON, not a replacer function, so the rest of the message is serialized natively.
   */
  toJSON(): string {
    if (collecting === undefined || this.text.length < SPLICE_MIN_CHARS) return this.text;
    collecting.push(this.text);
    return `${placeholder().nonce}:${collecting.length - 1}`;
  }
}

/** JSON text for `value`, with every {@link VerbatimString} written as a plain JSON string. */
export function toJsonText(value: unknown): string {
  const verbatim: string[] = [];
  collecting = verbatim;
  let text: string;
  try {
    text = JSON.stringify(value);
  } finally {
    collecting = undefined;
  }
  if (verbatim.length === 0) return text;
  return text.replace(placeholder().pattern, (_match, index: string) => `"${verbatim[Number(index)]}"`);
}
