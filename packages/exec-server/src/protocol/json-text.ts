// Serializing answers that carry megabytes of base64 without JSON.stringify scanning every character
// for escapes: such strings are spliced in as they are (base64 never needs escaping).
import { randomBytes } from 'node:crypto';

/** A string known to need no JSON escaping (base64), spliced into the serialized message verbatim. */
export class VerbatimString {
  constructor(readonly text: string) {}
}

// Unique per process, so no string a client sent can be mistaken for a placeholder.
const NONCE = randomBytes(8).toString('hex');

/** JSON text for `value`, with every {@link VerbatimString} written as a plain JSON string. */
export function toJsonText(value: unknown): string {
  const verbatim: string[] = [];
  const text = JSON.stringify(value, (_key, item: unknown) => {
    if (!(item instanceof VerbatimString)) return item;
    verbatim.push(item.text);
    return `${NONCE}:${verbatim.length - 1}`;
  });
  if (verbatim.length === 0) return text;
  return text.replace(new RegExp(`"${NONCE}:(\\d+)"`, 'g'), (_match, index: string) => `"${verbatim[Number(index)]}"`);
}
