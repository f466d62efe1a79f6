// `thread/items/read`: some of one turn's recorded items, by id, as Codex 0.171.0 answers it (probed):
// the items found, in the order asked; an id (or a turn) the thread does not have is left out.
import { ThreadItemsReadParams } from '@skein/protocol';
import { defineMethod, type AppServerMethod } from '../method.js';
import type { WireObject } from '@skein/core';

/** The `thread/items/read` method. */
export const THREAD_ITEMS_READ_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'thread/items/read',
    defineMethod({
      params: ThreadItemsReadParams,
      async handle(params, { server }) {
        const turns = await server.threads.recordedTurns(params.threadId, 'thread/items/read');
        const turn = turns.find((candidate) => candidate['id'] === params.turnId);
        const items = new Map((Array.isArray(turn?.['items']) ? (turn['items'] as WireObject[]) : []).map((item) => [String(item['id']), item]));
        const data = params.itemIds.flatMap((id) => {
          const item = items.get(id);
          if (item === undefined) return [];
          const at = (key: string) => (typeof item[key] === 'number' ? item[key] : null);
          return [{ turnId: params.turnId, item, startedAtMs: at('startedAtMs'), completedAtMs: at('completedAtMs') }];
        });
        return { data };
      },
    }),
  ],
]);
