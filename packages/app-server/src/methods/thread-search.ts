// `thread/search`, `thread/search/stream` (+ their cancels) and `thread/searchOccurrences`: full-text
// search over the stored threads' user and agent messages, served by the thread store's FTS5 index
// (see @skein/rollout's ThreadIndex.search). Codex's shapes and refusals, probed against 0.171.0:
// a blank term is -32600 `<method> requires a non-empty searchTerm`, a cancel of a request that is
// not running answers `{}`. A search reads what was written since the last one first; a cancelled
// search stops reading and answers from what it has read. The stream tells the threads found among
// each batch of files read (`thread/search/partial`) before its answer.
import { AppServerErrorCode, ThreadSearchCancelParams, ThreadSearchOccurrencesParams, ThreadSearchParams, type RequestId } from '@skein/protocol';
import { MAX_PAGE_SIZE, RolloutError, type ThreadSearchHit, type ThreadSearchQuery } from '@skein/rollout';
import { AppServerRequestError } from '../app-server-error.js';
import { defineMethod, type AppServerMethod, type ClientConnection, type MethodContext } from '../method.js';
import { firstSnippet, matchRanges, snippetAround } from '../thread-search/search-snippet.js';
import type { WireObject } from '@skein/core';
import { withStoredMetadata } from '../threads/thread-metadata.js';
import { historyCursor } from './history-page.js';
import { paginate } from '../pagination.js';

/** The searches running on each connection, by the id of the request that started them. */
const runningSearches = new WeakMap<ClientConnection, Map<RequestId, AbortController>>();

function searchesOf(connection: ClientConnection): Map<RequestId, AbortController> {
  let running = runningSearches.get(connection);
  if (running === undefined) {
    running = new Map();
    runningSearches.set(connection, running);
  }
  return running;
}

/** The term, or Codex's refusal of a blank one. */
function searchTerm(term: string, method: string): string {
  if (term.trim() === '') throw new AppServerRequestError(AppServerErrorCode.InvalidRequest, `${method} requires a non-empty searchTerm`);
  return term;
}

function storeQuery(params: ThreadSearchParams): ThreadSearchQuery {
  return {
    term: searchTerm(params.searchTerm, 'thread/search'),
    ...(params.cursor === undefined || params.cursor === null ? {} : { cursor: params.cursor }),
    // A zero limit still returns one thread so a client paging with it makes progress.
    ...(params.limit === undefined || params.limit === null ? {} : { limit: Math.min(Math.max(params.limit, 1), MAX_PAGE_SIZE) }),
    archived: params.archived === true,
    // A thread's recencyAt is its updatedAt in Skein, so both keys order by the last update.
    ...(params.sortKey === 'updated_at' || params.sortKey === 'recency_at' ? { sortKey: 'updated' as const } : {}),
    ascending: params.sortDirection === 'asc',
    ...(params.sourceKinds === undefined || params.sourceKinds === null ? {} : { source: params.sourceKinds }),
  };
}

async function search(params: ThreadSearchParams, context: MethodContext, stream: boolean): Promise<WireObject> {
  const query = storeQuery(params);
  const hub = context.server.threads;
  const store = await hub.store();
  const result = (hits: readonly ThreadSearchHit[]) =>
    Promise.all(hits.map(async (hit) => ({ thread: await withStoredMetadata(store, hub.summaryObject(hit.summary)), snippet: firstSnippet(hit.message, query.term) })));
  // The store tells partial hits synchronously; their metadata is read in turn, so they go out in order and before the answer.
  let partialsSent: Promise<void> = Promise.resolve();
  const partial = (hits: readonly ThreadSearchHit[]) => {
    if (hits.length === 0) return;
    partialsSent = partialsSent.then(async () => context.connection.notify('thread/search/partial', { requestId: context.requestId, data: await result(hits) }));
  };
  const running = searchesOf(context.connection);
  const stop = new AbortController();
  running.set(context.requestId, stop);
  try {
    let sentPartial = false;
    const page = await store.search(query, {
      signal: stop.signal,
      ...(stream
        ? {
            onPartial: (found: readonly ThreadSearchHit[]) => {
              sentPartial ||= found.length > 0;
              partial(found);
            },
          }
        : {}),
    });
    if (stream && !sentPartial) partial(page.data);
    await partialsSent;
    return { data: await result(page.data), nextCursor: page.nextCursor, backwardsCursor: null };
  } catch (error) {
    if (error instanceof RolloutError && error.code === 'InvalidCursor') throw new AppServerRequestError(AppServerErrorCode.InvalidRequest, `invalid cursor: ${params.cursor ?? ''}`);
    if (error instanceof RolloutError && error.code === 'InvalidArgument') throw new AppServerRequestError(AppServerErrorCode.InvalidRequest, error.message);
    throw error;
  } finally {
    if (running.get(context.requestId) === stop) running.delete(context.requestId);
  }
}

const cancel = defineMethod({
  params: ThreadSearchCancelParams,
  handle(params, { connection }) {
    searchesOf(connection).get(params.requestId)?.abort();
    return {};
  },
});

/** The search methods. */
export const THREAD_SEARCH_METHODS: ReadonlyMap<string, AppServerMethod> = new Map<string, AppServerMethod>([
  ['thread/search', defineMethod({ params: ThreadSearchParams, handle: (params, context) => search(params, context, false) })],
  ['thread/search/stream', defineMethod({ params: ThreadSearchParams, handle: (params, context) => search(params, context, true) })],
  ['thread/search/cancel', cancel],
  ['thread/search/stream/cancel', cancel],
  [
    'thread/searchOccurrences',
    defineMethod({
      params: ThreadSearchOccurrencesParams,
      async handle(params, { server }) {
        const term = searchTerm(params.searchTerm, 'thread/searchOccurrences');
        const turns = await server.threads.recordedTurns(params.threadId, 'thread/searchOccurrences');
        const occurrences = turns.flatMap((turn) => {
          const turnId = String(turn['id']);
          const items = Array.isArray(turn['items']) ? (turn['items'] as WireObject[]) : [];
          return items.flatMap((item) => {
            const text = searchableText(item);
            if (text === undefined) return [];
            return matchRanges(text, term).map((range) => ({ turnId, itemId: String(item['id']), ...snippetAround(text, range), turnCursor: historyCursor(params.threadId, turnId, true) }));
          });
        });
        const page = paginate(occurrences, { cursor: params.cursor ?? null, limit: params.limit ?? null });
        return { data: page.data, nextCursor: page.nextCursor };
      },
    }),
  ],
]);

/** The words of a user or agent message (what thread search covers); undefined for other items. */
function searchableText(item: WireObject): string | undefined {
  if (item['type'] === 'agentMessage') return typeof item['text'] === 'string' ? item['text'] : undefined;
  if (item['type'] !== 'userMessage' || !Array.isArray(item['content'])) return undefined;
  return (item['content'] as WireObject[]).flatMap((part) => (typeof part['text'] === 'string' ? [part['text']] : [])).join('\n');
}
