// Ranks walked entries against a query with fzf's algorithm (extended syntax: space-separated terms,
// `^`, `$`, `'`, `!`), case-insensitively and accent-insensitively unless the query has accents.
// Entries are kept in chunks whose prepared matchers are reused across queries (a session's
// updates), and a search yields to the event loop between chunks.
import type { FuzzyFileSearchResult } from '@skein/protocol';
import { yieldToLoop, type WalkEntry } from './file-walk.js';
import { fzfFinder, type FzfFinder, type FzfMatch } from './fzf-finder.js';

/** Entries matched between two yields to the event loop. */
const CHUNK_SIZE = 1_000;
/**
 * Added when a file's name alone matches the whole query, and again (twice over) when a name
 * equals it: Codex 0.171.0 ranks such matches above any path-only match with these weights.
 */
const FILE_NAME_BONUS = 1 << 16;
const EXACT_NAME_BONUS = 1 << 17;

type Finder = FzfFinder<WalkEntry>;

interface Chunk {
  readonly entries: WalkEntry[];
  /** Prepared lazily, one per normalization mode (accent-folding or not). */
  folding?: Finder;
  exact?: Finder;
}

/** A searchable set of entries; `add` may be called as a walk goes on. */
export class FuzzyIndex {
  readonly #chunks: Chunk[] = [];

  get size(): number {
    return this.#chunks.reduce((total, chunk) => total + chunk.entries.length, 0);
  }

  add(entries: readonly WalkEntry[]): void {
    for (const entry of entries) {
      let last = this.#chunks.at(-1);
      if (last === undefined || last.entries.length >= CHUNK_SIZE || last.folding !== undefined || last.exact !== undefined) {
        last = { entries: [] };
        this.#chunks.push(last);
      }
      last.entries.push(entry);
    }
  }

  /**
   * The best `limit` matches of `query`, by score (highest first), then path, then root. An empty
   * query matches nothing. Stops early when `signal` aborts and returns the best found so far.
   */
  async search(query: string, limit: number, signal?: AbortSignal): Promise<FuzzyFileSearchResult[]> {
    if (query === '') return [];
    const terms = query.trim();
    // Accents in the query ask for those accents, so only a plain query folds them away in paths.
    const fold = !/\p{M}/u.test(query.normalize('NFD'));
    const nameQuery = foldText(query, fold);
    let best: FuzzyFileSearchResult[] = [];
    for (const chunk of this.#chunks) {
      if (signal?.aborted === true) break;
      const found: FuzzyFileSearchResult[] =
        terms === ''
          ? // Only spaces: no term to fail, so everything matches with nothing highlighted.
            chunk.entries.map((entry) => toResult(entry, 0, []))
          : finderFor(chunk, fold)
              .find(query)
              .map((item) => toResult(item.item, Math.max(0, item.score) + nameBonus(item, nameQuery, fold), sortedPositions(item)));
      if (found.length > 0) best = [...best, ...found].sort(byRank).slice(0, limit);
      await yieldToLoop();
    }
    return best;
  }
}

function finderFor(chunk: Chunk, fold: boolean): Finder {
  const options = { selector: (entry: WalkEntry) => entry.path, casing: 'case-insensitive', normalize: fold } as const;
  if (fold) return (chunk.folding ??= fzfFinder(chunk.entries, options));
  return (chunk.exact ??= fzfFinder(chunk.entries, options));
}

function nameBonus(item: FzfMatch<WalkEntry>, nameQuery: string, fold: boolean): number {
  const name = foldText(item.item.fileName, fold);
  let bonus = 0;
  if (!item.item.directory && isSubsequence(nameQuery, name)) bonus += FILE_NAME_BONUS;
  if (name === nameQuery) bonus += EXACT_NAME_BONUS;
  return bonus;
}

/** Lower-cased, NFC, and with accents removed when `fold`. */
function foldText(text: string, fold: boolean): string {
  const lower = text.toLowerCase();
  return fold ? lower.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC') : lower.normalize('NFC');
}

function isSubsequence(needle: string, haystack: string): boolean {
  const wanted = [...needle];
  let next = 0;
  for (const char of haystack) if (char === wanted[next]) next += 1;
  return next === wanted.length;
}

function sortedPositions(item: FzfMatch<WalkEntry>): number[] {
  return [...item.positions].sort((a, b) => a - b);
}

function toResult(entry: WalkEntry, score: number, indices: number[]): FuzzyFileSearchResult {
  return { root: entry.root, path: entry.path, match_type: entry.directory ? 'directory' : 'file', file_name: entry.fileName, score, indices };
}

function byRank(a: FuzzyFileSearchResult, b: FuzzyFileSearchResult): number {
  return b.score - a.score || compare(a.path, b.path) || compare(a.root, b.root);
}

/** By code unit, as Rust orders strings (not by locale). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
