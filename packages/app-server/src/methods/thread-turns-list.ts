// `thread/turns/list`: one page of a thread's recorded turns, newest first unless asked otherwise,
// with as much item detail as the client wants (`summary` by default: the user's messages and the
// final answer; `full`; or `notLoaded`). `thread/resume` can carry the first page (`initialTurnsPage`).
import { ThreadTurnsListParams, type InitialTurnsPageParams } from '@skein/protocol';
import { defineMethod, type AppServerMethod } from '../method.js';
import type { WireObject } from '@skein/core';
import { historyPage } from './history-page.js';

/** The `thread/turns/list` method. */
export const THREAD_TURNS_LIST_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'thread/turns/list',
    defineMethod({
      params: ThreadTurnsListParams,
      async handle(params, { server }) {
        return turnsPage(await server.threads.recordedTurns(params.threadId, 'thread/turns/list'), params.threadId, params);
      },
    }),
  ],
]);

/** One page of `recorded` (a thread's turns, oldest first) as `thread/turns/list` answers it. */
export function turnsPage(recorded: readonly WireObject[], threadId: string, params: InitialTurnsPageParams & { readonly cursor?: string | null | undefined }): WireObject {
  const ordered = params.sortDirection === 'asc' ? recorded : [...recorded].reverse();
  const start = params.cursor === undefined || params.cursor === null ? undefined : { cursor: params.cursor };
  const { page, nextCursor, backwardsCursor } = historyPage(ordered, (turn) => String(turn['id']), threadId, { start, limit: params.limit });
  const view = params.itemsView ?? 'summary';
  return { data: page.map((turn) => withItems(turn, view)), nextCursor, backwardsCursor };
}

/** The turn with the items `view` asks for. */
function withItems(turn: WireObject, view: 'notLoaded' | 'summary' | 'full'): WireObject {
  const items = Array.isArray(turn['items']) ? (turn['items'] as WireObject[]) : [];
  if (view === 'full') return { ...turn, items, itemsView: 'full' };
  if (view === 'notLoaded') return { ...turn, items: [], itemsView: 'notLoaded' };
  const finalAnswer = items.findLast((item) => item['type'] === 'agentMessage');
  return { ...turn, items: items.filter((item) => item['type'] === 'userMessage' || item === finalAnswer), itemsView: 'summary' };
}
