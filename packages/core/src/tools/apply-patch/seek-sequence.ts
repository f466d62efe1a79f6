// Finds where a chunk's lines sit in a file, trying progressively looser comparisons the way Codex
// does: exact, then ignoring trailing white space, then both ends, then typographic punctuation.
import { trimEndWhiteSpace, trimWhiteSpace } from './parse-patch.js';

// Typographic characters models often flatten to ASCII (or files contain where the model wrote ASCII).
const PUNCTUATION: Readonly<Record<string, string>> = {
  '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2013': '-', '\u2014': '-', '\u2015': '-', '\u2212': '-',
  '\u2018': "'", '\u2019': "'", '\u201A': "'", '\u201B': "'",
  '\u201C': '"', '\u201D': '"', '\u201E': '"', '\u201F': '"',
  '\u00A0': ' ', '\u2002': ' ', '\u2003': ' ', '\u2004': ' ', '\u2005': ' ', '\u2006': ' ', '\u2007': ' ',
  '\u2008': ' ', '\u2009': ' ', '\u200A': ' ', '\u202F': ' ', '\u205F': ' ', '\u3000': ' ',
};
const PUNCTUATION_PATTERN = new RegExp(`[${Object.keys(PUNCTUATION).join('')}]`, 'gu');

function normalisePunctuation(line: string): string {
  return trimWhiteSpace(line).replace(PUNCTUATION_PATTERN, (char) => PUNCTUATION[char] ?? char);
}

const COMPARISONS: readonly ((line: string) => string)[] = [
  (line) => line,
  trimEndWhiteSpace,
  trimWhiteSpace,
  normalisePunctuation,
];

/**
 * The index at or after `start` where `pattern` occurs in `lines`, or undefined. With `endOfFile`
 * the search begins where the pattern would end the file. An empty pattern matches at `start`.
 * Each comparison pass scans the whole range before a looser one is tried, so an exact match later
 * in the file wins over a loose match earlier.
 */
export function seekSequence(lines: readonly string[], pattern: readonly string[], start: number, endOfFile: boolean): number | undefined {
  if (pattern.length === 0) return start;
  if (pattern.length > lines.length) return undefined;
  const last = lines.length - pattern.length;
  const from = endOfFile ? last : start;
  for (const compare of COMPARISONS) {
    const wanted = pattern.map(compare);
    for (let at = from; at <= last; at++) {
      if (wanted.every((line, offset) => compare(lines[at + offset] ?? '') === line)) return at;
    }
  }
  return undefined;
}
