// Where a search term sits in a message, and the stretch of the message shown around it: up to
// SNIPPET_CHARS_BEFORE characters before the match and SNIPPET_CHARS_AFTER after, on one line, with
// `... ` / ` ...` where the message goes on (Codex's shape, probed).

/** Characters of a message shown before a match. */
export const SNIPPET_CHARS_BEFORE = 48;
/** Characters of a message shown after a match. */
export const SNIPPET_CHARS_AFTER = 96;

/** A match's place in a snippet, in UTF-16 code units from its start. */
export interface TextRange {
  readonly start: number;
  readonly end: number;
}

/** A snippet of a message around one match. */
export interface SearchSnippet {
  readonly snippet: string;
  readonly snippetMatchRange: TextRange;
}

/** Every place `term` occurs in `text`, in any case, without overlaps, first to last. */
export function matchRanges(text: string, term: string): TextRange[] {
  if (term === '') return [];
  const pattern = new RegExp(term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'giu');
  return Array.from(text.matchAll(pattern), (match) => ({ start: match.index, end: match.index + match[0].length }));
}

/** The snippet of `text` around the match at `range`. */
export function snippetAround(text: string, range: TextRange): SearchSnippet {
  const from = Math.max(0, range.start - SNIPPET_CHARS_BEFORE);
  const to = Math.min(text.length, range.end + SNIPPET_CHARS_AFTER);
  const lead = from > 0 ? '... ' : '';
  // One line: line breaks become spaces, which keeps every offset.
  const snippet = `${lead}${text.slice(from, to).replace(/[\r\n\t]/g, ' ')}${to < text.length ? ' ...' : ''}`;
  const start = lead.length + range.start - from;
  return { snippet, snippetMatchRange: { start, end: start + range.end - range.start } };
}

/** The snippet around the first match of `term` in `text` (the start of the text when none is found). */
export function firstSnippet(text: string, term: string): string {
  const [first] = matchRanges(text, term);
  return snippetAround(text, first ?? { start: 0, end: 0 }).snippet;
}
