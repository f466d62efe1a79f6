// A one-shot `fuzzyFileSearch`: walk the roots, rank the entries, answer. A later request with the
// same cancellation token (on the same connection) cuts an earlier one short; that one answers with
// the best matches among what it had walked.
import type { FuzzyFileSearchResult } from '@skein/protocol';
import type { ClientConnection } from '../method.js';
import { walkRoots } from './file-walk.js';
import { FuzzyIndex } from './fuzzy-index.js';
import type { FuzzySearchLimits } from './fuzzy-search-sessions.js';

/** The searches of one connection that carry a cancellation token, by token. */
export class TokenedSearches {
  readonly #running = new Map<string, AbortController>();

  constructor(connection: ClientConnection) {
    connection.onClose(() => {
      for (const controller of this.#running.values()) controller.abort();
      this.#running.clear();
    });
  }

  /** Aborts the search holding `token` and hands the token to a new one; `release` frees it. */
  claim(token: string): { readonly signal: AbortSignal; release(): void } {
    this.#running.get(token)?.abort();
    const controller = new AbortController();
    this.#running.set(token, controller);
    return {
      signal: controller.signal,
      release: () => {
        if (this.#running.get(token) === controller) this.#running.delete(token);
      },
    };
  }
}

/** Searches `roots` for `query` once; an empty query matches nothing and walks nothing. */
export async function fuzzyFileSearch(
  query: string,
  roots: readonly string[],
  options: { readonly limits: FuzzySearchLimits; readonly resolveRoot: (root: string) => string; readonly signal?: AbortSignal },
): Promise<FuzzyFileSearchResult[]> {
  if (query === '') return [];
  const walk = await walkRoots(roots, { maxEntries: options.limits.maxEntries, resolveRoot: options.resolveRoot, ...(options.signal === undefined ? {} : { signal: options.signal }) });
  const index = new FuzzyIndex();
  index.add(walk.entries);
  // Ranking what was walked is bounded by the walk, so a cancelled search still finishes it.
  return index.search(query, options.limits.maxResults);
}
