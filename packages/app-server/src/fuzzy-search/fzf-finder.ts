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
  /** `extended`: fzf's search syntax; `basic`: the query is one literal fuzzy pattern (spaces and all). */
  readonly syntax: 'extended' | 'basic';
}

interface FzfModule {
  readonly Fzf: new <U>(list: readonly U[], options: object) => FzfFinder<U>;
  readonly extendedMatch: unknown;
  readonly basicMatch: unknown;
}

const { Fzf, extendedMatch, basicMatch } = fzf as unknown as FzfModule;

/** An unsorted finder over `list`; extended syntax is space-separated terms, `^`, `$`, `'`, `!`. */
export function fzfFinder<U>(list: readonly U[], { syntax, ...options }: FzfFinderOptions<U>): FzfFinder<U> {
  return new Fzf<U>(list, { ...options, match: syntax === 'extended' ? extendedMatch : basicMatch, sort: false, fuzzy: 'v2' });
}
