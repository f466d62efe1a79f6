// `thread/turns/list`: one page of a thread's recorded turns, newest first unless asked otherwise,
// with as much item detail as the client wants (`summary` by default: the user's messages and the
// final answer; `full`; or `notLoaded`). Cursors name a turn, not an offset, so a page stays put
// while the thread grows; `backwardsCursor` turns round at the page's first turn, including it.
import { AppServerErrorCode, ThreadTurnsListParams } from '@skein/protocol';
import { z } from 'zod';
import { AppServerRequestError } from '../app-server-error.js';
import { MAX_PAGE_SIZE } from '../limits.js';
import { defineMethod, type AppServerMethod } from '../method.js';
import type { WireObject } from '../threads/thread-items.js';

const TurnsCursor = z.object({ threadId: z.string(), turnId: z.string(), includeAnchor: z.boolean() });
type TurnsCursor = z.infer<typeof TurnsCursor>;

/** The `thread/turns/list` method. */
export const THREAD_TURNS_LIST_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'thread/turns/list',
    defineMethod({
      params: ThreadTurnsListParams,
      async handle(params, { server }) {
        const recorded = await server.threads.recordedTurns(params.threadId);
        const ordered = params.sortDirection === 'asc' ? recorded : [...recorded].reverse();
        const start = params.cursor === undefined || params.cursor === null ? 0 : startOf(ordered, parseCursor(params.cursor, params.threadId));
        // A zero limit still returns one turn, so a client paging with it makes progress.
        const size = Math.min(Math.max(params.limit ?? MAX_PAGE_SIZE, 1), MAX_PAGE_SIZE);
        const page = ordered.slice(start, start + size);
        const view = params.itemsView ?? 'summary';
        const cursor = (turn: WireObject | undefined, includeAnchor: boolean) =>
          turn === undefined ? null : JSON.stringify({ threadId: params.threadId, turnId: String(turn['id']), includeAnchor } satisfies TurnsCursor);
        return {
          data: page.map((turn) => withItems(turn, view)),
          nextCursor: start + size < ordered.length ? cursor(page.at(-1), false) : null,
          backwardsCursor: cursor(page[0], true),
        };
      },
    }),
  ],
]);

function parseCursor(text: string, threadId: string): TurnsCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const cursor = TurnsCursor.safeParse(parsed);
  if (!cursor.success || cursor.data.threadId !== threadId) throw invalidCursor(text);
  return cursor.data;
}

/** Where a page after (or, with `includeAnchor`, at) the cursor's turn begins. */
function startOf(ordered: readonly WireObject[], cursor: TurnsCursor): number {
  const index = ordered.findIndex((turn) => turn['id'] === cursor.turnId);
  // A rollback removed the turn the cursor was anchored at.
  if (index < 0) throw invalidCursor(`turn ${cursor.turnId} is no longer in the thread`);
  return cursor.includeAnchor ? index : index + 1;
}

/** -32600 `invalid cursor: …`, as the list methods answer a cursor they cannot use. */
function invalidCursor(detail: string): AppServerRequestError {
  return new AppServerRequestError(AppServerErrorCode.InvalidRequest, `invalid cursor: ${detail}`);
}

/** The turn with the items `view` asks for. */
function withItems(turn: WireObject, view: 'notLoaded' | 'summary' | 'full'): WireObject {
  const items = Array.isArray(turn['items']) ? (turn['items'] as WireObject[]) : [];
  if (view === 'full') return { ...turn, items, itemsView: 'full' };
  if (view === 'notLoaded') return { ...turn, items: [], itemsView: 'notLoaded' };
  const finalAnswer = items.findLast((item) => item['type'] === 'agentMessage');
  return { ...turn, items: items.filter((item) => item['type'] === 'userMessage' || item === finalAnswer), itemsView: 'summary' };
}
