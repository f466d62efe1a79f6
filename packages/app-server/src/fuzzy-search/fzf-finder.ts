// The part of the `fzf` package (fzf-for-js) the index uses, typed here: its bundled declarations
// import their siblings without extensions, which NodeNext resolution cannot follow, so most of
// them arrive as `any`. This file is the one place that trusts the package's runtime shape.
import * as fzf from 'fzf';

/** One match: the item, fzf's score, and the matched character positions of the selected text. */
export interface FzfMatch<U> {
  readonly item: U;
  readonly score: number;
  readonly positions: ReadonlySet<number>;
}

/** A prepared list; `find` ranks it against one query. */
export interface FzfFinder<U> {
  find(query: string): FzfMatch<U>[];
}

/** The options the index sets (the rest keep fzf's defaults). */
export interface FzfFinderOptions<U> {
  readonly selector: (item: U) => string;
  readonly casing: 'case-insensitive';
  /** Whether accented letters in the list match their plain letters. */
  readonly normalize: boolean;
}

interface FzfModule {
  readonly Fzf: new <U>(list: readonly U[], options: object) => FzfFinder<U>;
  readonly extendedMatch: unknown;
}

const { Fzf, extendedMatch } = fzf as unknown as FzfModule;

/** A finder over `list` with fzf's extended search syntax (space-separated terms, `^`, `$`, `'`, `!`), unsorted. */
export function fzfFinder<U>(list: readonly U[], options: FzfFinderOptions<U>): FzfFinder<U> {
  return new Fzf<U>(list, { ...options, match: extendedMatch, sort: false, fuzzy: 'v2' });
}
