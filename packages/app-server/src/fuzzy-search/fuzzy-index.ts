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
 * Codex 0.171.0 ranks a file whose name alone matches a one-term query by that name match (its
 * score and characters) plus this bonus, above any path-only match, and adds twice as much again
 * to any entry whose name is the query.
 */
const FILE_NAME_BONUS = 1 << 16;
const EXACT_NAME_BONUS = 1 << 17;

type Finder = FzfFinder<WalkEntry>;
type Field = 'path' | 'fileName';

interface Chunk {
  readonly entries: WalkEntry[];
  /** Prepared lazily, one per field and normalization mode (accent-folding or not). */
  readonly finders: Map<string, Finder>;
}

/** A searchable set of entries; `add` may be called as a walk goes on. */
export class FuzzyIndex {
  readonly #chunks: Chunk[] = [];

  add(entries: readonly WalkEntry[]): void {
    for (const entry of entries) {
      let last = this.#chunks.at(-1);
      if (last === undefined || last.entries.length >= CHUNK_SIZE || last.finders.size > 0) {
        last = { entries: [], finders: new Map() };
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
    const exactName = foldText(query, fold);
    let best: FuzzyFileSearchResult[] = [];
    for (const chunk of this.#chunks) {
      if (signal?.aborted === true) break;
      let found: FuzzyFileSearchResult[];
      if (terms === '') {
        // Only spaces: no term to fail, so everything matches with nothing highlighted.
        found = chunk.entries.map((entry) => toResult(entry, 0, []));
      } else {
        const byName = new Map<WalkEntry, FzfMatch<WalkEntry>>();
        // The name is matched against the query taken literally (no search syntax), so `main rs` or
        // `^ab` match paths but get no name ranking, as with Codex.
        for (const match of finderFor(chunk, fold, 'fileName').find(query)) if (!match.item.directory) byName.set(match.item, match);
        // Once `limit` matches are in hand, a match scoring below the worst of them cannot enter.
        const floor = best.length >= limit ? (best.at(-1)?.score ?? 0) : 0;
        found = [];
        for (const match of finderFor(chunk, fold, 'path').find(query)) {
          const name = byName.get(match.item);
          const base = Math.max(0, name === undefined ? match.score : name.score) + (name === undefined ? 0 : FILE_NAME_BONUS);
          const score = base + (foldText(match.item.fileName, fold) === exactName ? EXACT_NAME_BONUS : 0);
          if (score < floor) continue;
          const offset = name === undefined ? 0 : [...match.item.path].length - [...match.item.fileName].length;
          found.push(toResult(match.item, score, sortedPositions(name ?? match, offset)));
        }
      }
      if (found.length > 0) best = [...best, ...found].sort(byRank).slice(0, limit);
      await yieldToLoop();
    }
    return best;
  }
}

function finderFor(chunk: Chunk, fold: boolean, field: Field): Finder {
  const key = `${field}:${fold}`;
  let finder = chunk.finders.get(key);
  if (finder === undefined) {
    const syntax = field === 'path' ? 'extended' : 'basic';
    finder = fzfFinder(chunk.entries, { selector: (entry: WalkEntry) => entry[field], casing: 'case-insensitive', normalize: fold, syntax });
    chunk.finders.set(key, finder);
  }
  return finder;
}

/** Lower-cased, NFC, and with accents removed when `fold`. */
function foldText(text: string, fold: boolean): string {
  const lower = text.toLowerCase();
  // Most names are ASCII, where there is nothing to normalize (and this runs once per match).
  if (!/[^\p{ASCII}]/u.test(lower)) return lower;
  return fold ? lower.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC') : lower.normalize('NFC');
}

function sortedPositions(match: FzfMatch<WalkEntry>, offset: number): number[] {
  return [...match.positions].map((position) => position + offset).sort((a, b) => a - b);
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
