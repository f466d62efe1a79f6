// `thread/items/list`: one page of a thread's recorded items across its turns (or one turn's), oldest
// first unless asked otherwise, each with the turn it belongs to. Skein never defers an output, so
// `outputDeferred` is always false and `deferOutput` changes nothing.
import { AppServerErrorCode, ThreadItemsListParams } from '@skein/protocol';
import { AppServerRequestError } from '../app-server-error.js';
import { defineMethod, type AppServerMethod } from '../method.js';
import type { WireObject } from '@skein/core';
import { historyPage } from './history-page.js';

interface ItemEntry {
  readonly item: WireObject;
  readonly turnId: string;
}

/** The `thread/items/list` method. */
export const THREAD_ITEMS_LIST_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'thread/items/list',
    defineMethod({
      params: ThreadItemsListParams,
      async handle(params, { server }) {
        const turns = await server.threads.recordedTurns(params.threadId, 'thread/items/list');
        const turnId = params.turnId ?? null;
        if (turnId !== null && !turns.some((turn) => turn['id'] === turnId)) {
          throw new AppServerRequestError(AppServerErrorCode.InvalidRequest, `turn not found: ${turnId}`);
        }
        const entries: ItemEntry[] = turns
          .filter((turn) => turnId === null || turn['id'] === turnId)
          .flatMap((turn) => (Array.isArray(turn['items']) ? (turn['items'] as WireObject[]) : []).map((item) => ({ item, turnId: String(turn['id']) })));
        const ordered = params.sortDirection === 'desc' ? entries.reverse() : entries;
        const cursor = params.cursor ?? null;
        if (typeof cursor === 'object' && cursor !== null && turnId === null) {
          throw new AppServerRequestError(AppServerErrorCode.InvalidRequest, 'an item anchor needs the turnId it belongs to');
        }
        const start = cursor === null ? undefined : typeof cursor === 'string' ? { cursor } : { after: cursor.itemId };
        const { page, nextCursor, backwardsCursor } = historyPage(ordered, (entry) => String(entry.item['id']), params.threadId, { start, limit: params.limit });
        return {
          data: page.map(({ item, turnId: owner }) => ({
            item,
            turnId: owner,
            outputDeferred: false,
            startedAtMs: typeof item['startedAtMs'] === 'number' ? item['startedAtMs'] : null,
            completedAtMs: typeof item['completedAtMs'] === 'number' ? item['completedAtMs'] : null,
          })),
          nextCursor,
          backwardsCursor,
        };
      },
    }),
  ],
]);
