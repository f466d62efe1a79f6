// `thread/timeline/list`: a thread's recorded history as one sequence — each turn's start, its items
// and its end — ordered by where each was recorded (`position`: the line's place in the rollout,
// session_meta being 0, as Codex numbers them), with the realtime conversation's items between them,
// paged oldest first.
import { ThreadTimelineListParams } from '@skein/protocol';
import { defineMethod, type AppServerMethod } from '../method.js';
import { paginate } from '../pagination.js';
import { RealtimeItemCollector, realtimeTimeline } from '../realtime/realtime-list.js';
import type { RecordedTurn } from '../threads/recorded-turns.js';
import type { WireObject } from '@skein/core';

/**
 * A turn's start and end entries. Codex 0.171.0 sends their fields in camelCase (`turnId`,
 * `startedAt`) while its schema names them in snake_case (`turn_id`, `started_at`, required):
 * both are sent, so clients reading either, and schema validation, are satisfied.
 */
function turnEntry(type: 'turnStarted' | 'turnCompleted', position: number, turn: WireObject): WireObject {
  const fields: WireObject =
    type === 'turnStarted'
      ? { turnId: turn['id'], startedAt: turn['startedAt'] }
      : { turnId: turn['id'], status: turn['status'], error: turn['error'], startedAt: turn['startedAt'], completedAt: turn['completedAt'], durationMs: turn['durationMs'] };
  const snake = Object.fromEntries(Object.entries(fields).map(([key, value]) => [key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`), value]));
  return { type, position, ...fields, ...snake };
}

/** One turn's entries, each at its place in the file. */
function timelineOf(recorded: RecordedTurn): { readonly position: number; readonly entry: WireObject }[] {
  const { turn } = recorded;
  const items = Array.isArray(turn['items']) ? (turn['items'] as WireObject[]) : [];
  const entries = items.map((item, index): { readonly position: number; readonly entry: WireObject } => {
    const position = (recorded.itemPositions[index] ?? 1) - 1;
    return { position, entry: { type: 'item', position, turnId: turn['id'], item } };
  });
  if (recorded.startedPosition !== null) entries.unshift({ position: recorded.startedPosition - 1, entry: turnEntry('turnStarted', recorded.startedPosition - 1, turn) });
  if (recorded.completedPosition !== null) entries.push({ position: recorded.completedPosition - 1, entry: turnEntry('turnCompleted', recorded.completedPosition - 1, turn) });
  return entries;
}

/** The `thread/timeline/list` method. */
export const THREAD_TIMELINE_LIST_METHODS: ReadonlyMap<string, AppServerMethod> = new Map([
  [
    'thread/timeline/list',
    defineMethod({
      params: ThreadTimelineListParams,
      async handle(params, { server }) {
        // Realtime items sit between the turns, each at its own line: collected in the same read.
        await server.realtime.written(params.threadId);
        const collector = new RealtimeItemCollector();
        const turns = await server.threads.recordedTurnsWithPositions(params.threadId, 'thread/timeline/list', collector.visit);
        const realtime = realtimeTimeline(collector);
        const timeline = [...turns.flatMap(timelineOf), ...realtime.entries].sort((a, b) => a.position - b.position);
        const page = paginate(timeline.map(({ entry }) => entry), params);
        const start = page.data[0]?.['position'];
        return { ...page, activeRealtimeSessionAtPageStart: typeof start === 'number' ? realtime.liveAt(start) : null };
      },
    }),
  ],
]);
