// `fuzzyFileSearch` and `fuzzyFileSearch/session{Start,Update,Stop}`: file and directory search under
// client-given roots (see fuzzy-search/). Sessions and cancellation tokens belong to the connection;
// the session methods are experimental in Codex 0.171.0, the one-shot search is not.
import {
  FuzzyFileSearchParams,
  FuzzyFileSearchSessionStartParams,
  FuzzyFileSearchSessionStopParams,
  FuzzyFileSearchSessionUpdateParams,
  type FuzzyFileSearchResponse,
} from '@skein/protocol';
import type * as SearchModule from '../fuzzy-search/fuzzy-file-search.js';
import type { TokenedSearches } from '../fuzzy-search/fuzzy-file-search.js';
import type * as SessionsModule from '../fuzzy-search/fuzzy-search-sessions.js';
import type { FuzzySearchLimits, FuzzySearchSessions } from '../fuzzy-search/fuzzy-search-sessions.js';
import { MAX_FUZZY_SEARCH_ENTRIES, MAX_FUZZY_SEARCH_RESULTS, MAX_FUZZY_SEARCH_SESSIONS } from '../limits.js';
import { defineMethod, type AppServerMethod, type ClientConnection } from '../method.js';

const LIMITS: FuzzySearchLimits = { maxResults: MAX_FUZZY_SEARCH_RESULTS, maxEntries: MAX_FUZZY_SEARCH_ENTRIES, maxSessions: MAX_FUZZY_SEARCH_SESSIONS };

const sessionsByConnection = new WeakMap<ClientConnection, FuzzySearchSessions>();
const tokensByConnection = new WeakMap<ClientConnection, TokenedSearches>();

// The walker, the ignore-file parser and fzf load with the first search, not with the server: most
// connections never search (issue #18).
let searchModules: Promise<SearchModules> | undefined;
type SearchModules = typeof SearchModule & typeof SessionsModule;
const loadSearch = (): Promise<SearchModules> =>
  (searchModules ??= Promise.all([import('../fuzzy-search/fuzzy-file-search.js'), import('../fuzzy-search/fuzzy-search-sessions.js')]).then(([search, sessions]) => ({ ...search, ...sessions })));

async function sessionsOf(connection: ClientConnection): Promise<FuzzySearchSessions> {
  const { FuzzySearchSessions } = await loadSearch();
  let sessions = sessionsByConnection.get(connection);
  if (sessions === undefined) {
    sessions = new FuzzySearchSessions(connection, LIMITS);
    sessionsByConnection.set(connection, sessions);
  }
  return sessions;
}

async function tokensOf(connection: ClientConnection): Promise<TokenedSearches> {
  const { TokenedSearches } = await loadSearch();
  let tokens = tokensByConnection.get(connection);
  if (tokens === undefined) {
    tokens = new TokenedSearches(connection);
    tokensByConnection.set(connection, tokens);
  }
  return tokens;
}

/** The `fuzzyFileSearch` methods. */
export const FUZZY_FILE_SEARCH_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'fuzzyFileSearch',
    defineMethod({
      params: FuzzyFileSearchParams,
      async handle(params, { connection, server }): Promise<FuzzyFileSearchResponse> {
        const { fuzzyFileSearch } = await loadSearch();
        const claim = params.cancellationToken == null ? undefined : (await tokensOf(connection)).claim(params.cancellationToken);
        try {
          const resolveRoot = (root: string) => server.resolveCwd(root);
          return { files: await fuzzyFileSearch(params.query, params.roots, { limits: LIMITS, resolveRoot, ...(claim === undefined ? {} : { signal: claim.signal }) }) };
        } finally {
          claim?.release();
        }
      },
    }),
  ],
  [
    'fuzzyFileSearch/sessionStart',
    defineMethod({
      params: FuzzyFileSearchSessionStartParams,
      experimental: true,
      async handle(params, { connection, server }) {
        (await sessionsOf(connection)).start(params.sessionId, params.roots, (root) => server.resolveCwd(root));
        return {};
      },
    }),
  ],
  [
    'fuzzyFileSearch/sessionUpdate',
    defineMethod({
      params: FuzzyFileSearchSessionUpdateParams,
      experimental: true,
      async handle(params, { connection }) {
        (await sessionsOf(connection)).update(params.sessionId, params.query);
        return {};
      },
    }),
  ],
  [
    'fuzzyFileSearch/sessionStop',
    defineMethod({
      params: FuzzyFileSearchSessionStopParams,
      experimental: true,
      handle(params, { connection }) {
        sessionsByConnection.get(connection)?.stop(params.sessionId);
        return {};
      },
    }),
  ],
]);
