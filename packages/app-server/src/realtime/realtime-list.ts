// `thread/realtime/list`: the realtime items recorded in a thread's rollout, each at its line's
// position (session_meta being 0, as Codex numbers them), filtered and paged. The page is taken
// from a snapshot of the file (`snapshotEnd`, its line count when first read), so items recorded
// while a client pages do not shift its pages; the cursor carries the snapshot and the last entry.
import type { ThreadRealtimeListParams } from '@skein/protocol';
import { RealtimeItem, type RolloutLine } from '@skein/rollout';
import type { WireObject } from '@skein/core';
import { refuse } from '../app-server-error.js';
import { MAX_PAGE_SIZE } from '../limits.js';
import { wireOfRecord } from './realtime-items.js';

/** One recorded item and where it is. */
interface Entry {
  readonly position: number;
  readonly observedAtMs: number | null;
  readonly record: RealtimeItem & Readonly<Record<string, unknown>>;
}

/** Where a page stopped: enough to continue after it in the same snapshot and order. */
interface Cursor {
  readonly snapshotEnd: number;
  readonly position: number;
  readonly observedAtMs: number | null;
}

/** Reads a thread's lines, calling `visit` with each and its 1-based number. */
export type LineSource = (visit: (line: RolloutLine, lineNumber: number) => void) => Promise<unknown>;

/** A thread's realtime items, collected from its lines as whoever reads them visits them, and its line count. */
export class RealtimeItemCollector {
  readonly entries: Entry[] = [];
  lines = 0;

  readonly visit = (line: RolloutLine, lineNumber: number): void => {
    this.lines = Math.max(this.lines, lineNumber);
    if (line.type !== 'realtime_item') return;
    const record = RealtimeItem.safeParse(line.payload);
    // A line the writer checked cannot fail here; a hand-edited one is passed over, not fatal.
    if (!record.success) return;
    this.entries.push({ position: lineNumber - 1, observedAtMs: record.data.observed_at_ms ?? null, record: record.data });
  };
}

/** The collected items as `thread/timeline/list` entries, and which session was live at a position. */
export function realtimeTimeline({ entries }: RealtimeItemCollector): { readonly entries: { readonly position: number; readonly entry: WireObject }[]; readonly liveAt: (position: number) => string | null } {
  return {
    entries: entries.map(({ position, record }) => ({ position, entry: { type: 'realtime', position, item: timelineItem(record) } })),
    liveAt(position) {
      let live: string | null = null;
      for (const { position: at, record } of entries) {
        if (at >= position) break;
        if (record.type === 'realtime_session_started') live = record.realtime_session_id;
        else if (record.type === 'realtime_session_closed' && record.realtime_session_id === live) live = null;
      }
      return live;
    },
  };
}

/** A recorded item as the timeline shows it: a transcript frame as the segment clients saw (as Codex shows it there). */
function timelineItem(record: Entry['record']): WireObject {
  const { channels, ...rest } = wireOfRecord(record);
  const said = (channels as { voice_transcript?: { role?: unknown; text?: unknown } } | undefined)?.voice_transcript;
  if (rest['type'] !== 'frame' || said === undefined) return wireOfRecord(record);
  return { ...rest, type: 'transcriptSegment', role: said.role, text: said.text };
}

/** The page `params` ask for. */
export async function listRealtimeItems(readLines: LineSource, params: ThreadRealtimeListParams): Promise<WireObject> {
  const collector = new RealtimeItemCollector();
  await readLines(collector.visit);
  const { entries, lines } = collector;
  const cursor = params.cursor == null ? undefined : decodeCursor(params.cursor);
  const snapshotEnd = cursor?.snapshotEnd ?? params.snapshotEnd ?? lines;
  const byObservedAt = params.order === 'observedAt';
  let selected = entries.filter(
    (entry) =>
      entry.position < snapshotEnd &&
      (params.sessionId == null || entry.record.realtime_session_id === params.sessionId) &&
      (params.afterPosition == null || entry.position > params.afterPosition) &&
      (params.fromObservedAtMs == null || (entry.observedAtMs ?? -Infinity) >= params.fromObservedAtMs) &&
      (params.toObservedAtMs == null || (entry.observedAtMs ?? Infinity) <= params.toObservedAtMs),
  );
  if (byObservedAt) selected.sort((a, b) => (a.observedAtMs ?? 0) - (b.observedAtMs ?? 0) || a.position - b.position);
  // `eventId` names the item to continue after.
  if (params.eventId != null) {
    const at = selected.findIndex((entry) => entry.record.id === params.eventId);
    if (at < 0) refuse(`realtime item ${params.eventId} is not in this thread's realtime history`);
    selected = selected.slice(at + 1);
  }
  if (cursor !== undefined) selected = selected.filter((entry) => (byObservedAt ? compareObserved(entry, cursor) > 0 : entry.position > cursor.position));
  const size = Math.min(Math.max(params.limit ?? MAX_PAGE_SIZE, 1), MAX_PAGE_SIZE);
  const page = selected.slice(0, size);
  const last = page.at(-1);
  return {
    data: page.map((entry) => ({ position: entry.position, item: wireOfRecord(entry.record) })),
    nextCursor: selected.length > size && last !== undefined ? encodeCursor({ snapshotEnd, position: last.position, observedAtMs: last.observedAtMs }) : null,
    snapshotEnd,
    projectedThroughItemIndex: snapshotEnd,
    // What the client needs recorded is not on file yet: it should ask again.
    coverage: params.requiredThroughPosition != null && params.requiredThroughPosition >= lines ? 'pending' : 'ready',
  };
}

function compareObserved(entry: Entry, cursor: Cursor): number {
  return (entry.observedAtMs ?? 0) - (cursor.observedAtMs ?? 0) || entry.position - cursor.position;
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify({ v: 1, ...cursor })).toString('base64url');
}

function decodeCursor(text: string): Cursor {
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<Cursor> & { v?: unknown };
    if (value.v === 1 && Number.isInteger(value.snapshotEnd) && Number.isInteger(value.position) && (value.observedAtMs === null || Number.isInteger(value.observedAtMs))) {
      return { snapshotEnd: value.snapshotEnd!, position: value.position!, observedAtMs: value.observedAtMs ?? null };
    }
  } catch {
    // Answered below.
  }
  return refuse(`invalid cursor: ${text}`);
}
