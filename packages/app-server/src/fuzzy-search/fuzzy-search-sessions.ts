// The fuzzy-search sessions of one connection: each walks its roots once, keeps the walk, and
// answers every query with `fuzzyFileSearch/sessionUpdated` then `fuzzyFileSearch/sessionCompleted`.
// A query set while the walk runs is answered when it ends; a newer query drops an older one's
// unsent answer. Sessions end on `sessionStop`, on a restart under the same id, or on disconnect.
import { AppServerErrorCode } from '@skein/protocol';
import { AppServerRequestError, refuse } from '../app-server-error.js';
import type { ClientConnection } from '../method.js';
import { walkRoots, yieldToLoop } from './file-walk.js';
import { FuzzyIndex } from './fuzzy-index.js';

/** The bounds a session works within. */
export interface FuzzySearchLimits {
  readonly maxResults: number;
  readonly maxEntries: number;
  readonly maxSessions: number;
}

class FuzzySearchSession {
  readonly #index = new FuzzyIndex();
  readonly #stopped = new AbortController();
  #walked = false;
  #query = '';
  #search: AbortController | undefined;

  constructor(
    private readonly id: string,
    private readonly connection: ClientConnection,
    private readonly limits: FuzzySearchLimits,
  ) {}

  /** Starts the walk; its end answers the latest query (the empty one if none came). */
  start(roots: readonly string[], resolveRoot: (root: string) => string): void {
    walkRoots(roots, { maxEntries: this.limits.maxEntries, signal: this.#stopped.signal, resolveRoot })
      .then(({ entries }) => {
        this.#index.add(entries);
        this.#walked = true;
        this.answer();
      })
      .catch(() => {
        // The walk keeps going past unreadable directories; anything else leaves the session with no entries.
        this.#walked = true;
        this.answer();
      });
  }

  update(query: string): void {
    this.#query = query;
    if (this.#walked) this.answer();
  }

  stop(): void {
    this.#stopped.abort();
    this.#search?.abort();
  }

  private answer(): void {
    if (this.#stopped.signal.aborted) return;
    this.#search?.abort();
    const search = new AbortController();
    this.#search = search;
    const query = this.#query;
    // Never answer within the request's own turn: the client sees the `{}` response first.
    yieldToLoop()
      .then(() => this.#index.search(query, this.limits.maxResults, search.signal))
      .then((files) => {
        if (search.signal.aborted || this.#stopped.signal.aborted) return;
        this.connection.notify('fuzzyFileSearch/sessionUpdated', { sessionId: this.id, query, files });
        this.connection.notify('fuzzyFileSearch/sessionCompleted', { sessionId: this.id });
      })
      .catch(() => {
        // A search that broke (not one a newer query replaced) still ends, so the client stops waiting.
        if (!search.signal.aborted && !this.#stopped.signal.aborted) this.connection.notify('fuzzyFileSearch/sessionCompleted', { sessionId: this.id });
      });
  }
}

/** A connection's sessions by client-chosen id. */
export class FuzzySearchSessions {
  readonly #sessions = new Map<string, FuzzySearchSession>();

  constructor(
    private readonly connection: ClientConnection,
    private readonly limits: FuzzySearchLimits,
  ) {
    connection.onClose(() => {
      for (const session of this.#sessions.values()) session.stop();
      this.#sessions.clear();
    });
  }

  /** Starts `sessionId` over `roots`, replacing a session of the same id. */
  start(sessionId: string, roots: readonly string[], resolveRoot: (root: string) => string): void {
    if (sessionId === '') refuse('sessionId must not be empty');
    if (roots.length === 0) {
      throw new AppServerRequestError(AppServerErrorCode.InternalError, 'failed to start fuzzy file search session: at least one search directory is required');
    }
    const previous = this.#sessions.get(sessionId);
    if (previous === undefined && this.#sessions.size >= this.limits.maxSessions) {
      refuse(`too many fuzzy file search sessions on this connection (at most ${this.limits.maxSessions}); stop one first`);
    }
    previous?.stop();
    const session = new FuzzySearchSession(sessionId, this.connection, this.limits);
    this.#sessions.set(sessionId, session);
    session.start(roots, resolveRoot);
  }

  update(sessionId: string, query: string): void {
    const session = this.#sessions.get(sessionId);
    if (session === undefined) refuse(`fuzzy file search session not found: ${sessionId}`);
    session.update(query);
  }

  /** Ends `sessionId`; an unknown id is fine. */
  stop(sessionId: string): void {
    this.#sessions.get(sessionId)?.stop();
    this.#sessions.delete(sessionId);
  }
}
