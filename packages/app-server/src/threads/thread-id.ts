// Thread ids as Codex reads them from a request: a UUID in any form its `uuid` crate accepts (simple,
// hyphenated, braced, `urn:uuid:`), any case, answered in the canonical lowercase hyphenated form.
// A malformed one is refused before any lookup with the crate's own diagnosis, which clients show.

const HEX = /^[0-9a-fA-F]$/;
const URN_PREFIX = 'urn:uuid:';
/** Where each of the five hyphenated groups starts. */
const GROUP_STARTS = [0, 9, 14, 19, 24] as const;
const GROUP_LENGTHS = [8, 4, 4, 4, 12] as const;

/** The canonical form of `raw`, or the reason it is not a UUID (in the `uuid` crate's words). */
export function parseUuid(raw: string): { readonly uuid: string } | { readonly problem: string } {
  const hex = uuidHex(raw);
  if (hex !== undefined) {
    const lower = hex.toLowerCase();
    return { uuid: `${lower.slice(0, 8)}-${lower.slice(8, 12)}-${lower.slice(12, 16)}-${lower.slice(16, 20)}-${lower.slice(20)}` };
  }
  return { problem: diagnose(raw) };
}

/** The 32 hex digits of an accepted form, or undefined. */
function uuidHex(raw: string): string | undefined {
  if (raw.length === 32) return [...raw].every((char) => HEX.test(char)) ? raw : undefined;
  let hyphenated: string | undefined;
  if (raw.length === 36) hyphenated = raw;
  else if (raw.length === 38 && raw.startsWith('{') && raw.endsWith('}')) hyphenated = raw.slice(1, -1);
  else if (raw.length === 45 && raw.startsWith(URN_PREFIX)) hyphenated = raw.slice(URN_PREFIX.length);
  if (hyphenated === undefined) return undefined;
  const groups = hyphenated.split('-');
  if (groups.length !== 5 || groups.some((group, index) => group.length !== GROUP_LENGTHS[index])) return undefined;
  const hex = groups.join('');
  return [...hex].every((char) => HEX.test(char)) ? hex : undefined;
}

/** Why `raw` is not a UUID: the first bad character, else a wrong length or group layout. */
function diagnose(raw: string): string {
  let body = raw;
  let offset = 0;
  let simple = true;
  if (raw.length >= 2 && raw.startsWith('{') && raw.endsWith('}')) {
    body = raw.slice(1, -1);
    offset = 1;
    simple = false;
  } else if (raw.startsWith(URN_PREFIX)) {
    body = raw.slice(URN_PREFIX.length);
    offset = URN_PREFIX.length;
    simple = false;
  }
  // Positions are 1-based byte offsets into the body; the crate adds the brace or prefix length only
  // for a non-ASCII character (probed: `{0000000g-…}` is "at 8", `urn:uuid:é` "at 10").
  const hyphens: number[] = [];
  let byte = 0;
  for (const char of body) {
    if (char === '-') hyphens.push(byte);
    else if (!HEX.test(char)) return `invalid character: expected an optional prefix of \`urn:uuid:\` followed by [0-9a-fA-F-], found \`${char}\` at ${byte + (char.charCodeAt(0) > 0x7f ? offset : 0) + 1}`;
    byte += Buffer.byteLength(char);
  }
  const length = Buffer.byteLength(raw);
  if (hyphens.length === 0 && simple) return `invalid length: expected length 32 for simple format, found ${length}`;
  if (hyphens.length !== 4) return `invalid group count: expected 5, found ${hyphens.length + 1}`;
  for (let group = 0; group < 4; group++) {
    const start = GROUP_STARTS[group] ?? 0;
    const end = hyphens[group] ?? 0;
    if (end !== (GROUP_STARTS[group + 1] ?? 0) - 1) return `invalid group length in group ${group}: expected ${GROUP_LENGTHS[group]}, found ${end - start}`;
  }
  // The crate measures the last group against the whole input, braces and prefix included.
  return `invalid group length in group 4: expected 12, found ${length - GROUP_STARTS[4]}`;
}
