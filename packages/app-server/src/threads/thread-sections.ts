// Sections on the wire: the `ThreadSection` object, a Thread object's `section`/`sectionEnteredAt`
// (kept in the index database, not the rollout file), and `thread/list {sectionId}`'s page of a
// section's threads, ordered by creation, update or their place in the section.
import { AppServerErrorCode, type ThreadListParams } from '@skein/protocol';
import {
  decodeThreadCursor,
  DEFAULT_PAGE_SIZE,
  encodeThreadCursor,
  type ThreadListQuery,
  type ThreadPage,
  type ThreadSection,
  type ThreadSectionMembership,
  type ThreadStore,
  type ThreadSummary,
} from '@skein/rollout';
import { AppServerRequestError } from '../app-server-error.js';
import { MAX_PAGE_SIZE } from '../limits.js';
import type { WireObject } from '@skein/core';
import { parseUuid } from './thread-id.js';

/** The wire `ThreadSection`. */
export function sectionObject(section: ThreadSection): WireObject {
  return { id: section.id, name: section.name, appearance: section.appearance === null ? null : { icon: section.appearance.icon, color: section.appearance.color } };
}

/** `thread` with the section it is filed in (a thread in none keeps `section: null`). */
export async function withSection(store: ThreadStore, thread: WireObject): Promise<WireObject> {
  if (typeof thread['id'] !== 'string') return thread;
  const filed = await store.threadSections.sectionOf(thread['id']);
  if (filed === undefined) return thread;
  return { ...thread, section: sectionObject(filed.section), sectionEnteredAt: Math.floor(filed.enteredAtMs / 1000) };
}

const invalidCursor = (cursor: string) => new AppServerRequestError(AppServerErrorCode.InvalidRequest, `invalid cursor: ${cursor}`);

type Listed = { readonly summary: ThreadSummary; readonly member: ThreadSectionMembership };

/**
 * One page of the threads filed in `sectionId` that match the list's filters. `section_position`
 * orders by place (first first; cursor `<position>|<threadId>`, as Codex's); the time keys newest first
 * with the index's own cursors. An unknown section holds nothing.
 */
export async function sectionThreadPage(store: ThreadStore, sectionId: string, params: ThreadListParams): Promise<{ readonly data: ThreadSummary[]; readonly nextCursor: string | null }> {
  const limit = Math.min(Math.max(params.limit ?? DEFAULT_PAGE_SIZE, 1), MAX_PAGE_SIZE);
  const sortKey = params.sortKey === 'section_position' ? 'position' : params.sortKey === 'updated_at' || params.sortKey === 'recency_at' ? 'updated' : 'created';
  const cwd = typeof params.cwd === 'string' ? params.cwd : undefined;
  const sources = params.sourceKinds ?? undefined;
  const listed: Listed[] = [];
  for (const member of await store.threadSections.members(sectionId)) {
    const summary = await store.find(member.threadId);
    if (summary === undefined || summary.archived !== (params.archived === true)) continue;
    if ((cwd !== undefined && summary.cwd !== cwd) || (sources !== undefined && !sources.includes(summary.source ?? ''))) continue;
    listed.push({ summary, member });
  }
  const cursor = params.cursor ?? null;
  if (sortKey === 'position') {
    // Members come in place order already.
    let start = 0;
    if (cursor !== null) {
      const match = /^(\d{1,15})\|(.+)$/.exec(cursor);
      const threadId = match === null ? undefined : parseUuid(match[2]!);
      if (match === null || threadId === undefined || 'problem' in threadId) throw invalidCursor(cursor);
      const after = { position: Number(match[1]), id: threadId.uuid };
      start = listed.findIndex(({ member }) => member.position > after.position || (member.position === after.position && member.threadId > after.id));
      if (start < 0) start = listed.length;
    }
    const page = listed.slice(start, start + limit);
    const last = page.at(-1);
    const nextCursor = start + limit < listed.length && last !== undefined ? `${last.member.position}|${last.member.threadId}` : null;
    return { data: page.map(({ summary }) => summary), nextCursor };
  }
  const time = (summary: ThreadSummary) => Date.parse(sortKey === 'created' ? summary.createdAt : summary.updatedAt);
  const newestFirst = listed.map(({ summary }) => summary).sort((a, b) => time(b) - time(a) || (b.id < a.id ? -1 : b.id > a.id ? 1 : 0));
  let start = 0;
  if (cursor !== null) {
    let after;
    try {
      after = decodeThreadCursor(cursor);
    } catch {
      throw invalidCursor(cursor);
    }
    if (after.sortKey !== sortKey) throw invalidCursor(cursor);
    start = newestFirst.findIndex((summary) => time(summary) < after.time || (time(summary) === after.time && summary.id < after.id));
    if (start < 0) start = newestFirst.length;
  }
  const page = newestFirst.slice(start, start + limit);
  const last = page.at(-1);
  const nextCursor = start + limit < newestFirst.length && last !== undefined ? encodeThreadCursor({ sortKey, time: time(last), id: last.id }) : null;
  return { data: page, nextCursor };
}

/**
 * One page of the index's threads that are filed in no section (`thread/list {sectionId: null}`):
 * the index is read page by page past the filed ones, and the cursor is the index's own, after the
 * last thread answered.
 */
export async function unfiledThreadPage(store: ThreadStore, query: ThreadListQuery): Promise<ThreadPage> {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const sortKey = query.sortKey ?? 'created';
  const data: ThreadSummary[] = [];
  let cursor = query.cursor ?? null;
  for (;;) {
    const page = await store.list({ ...query, cursor, limit });
    for (const summary of page.data) {
      if ((await store.threadSections.membership(summary.id)) !== undefined) continue;
      if (data.length === limit) {
        const last = data[limit - 1]!;
        return { data, nextCursor: encodeThreadCursor({ sortKey, time: Date.parse(sortKey === 'created' ? last.createdAt : last.updatedAt), id: last.id }) };
      }
      data.push(summary);
    }
    if (page.nextCursor === null) return { data, nextCursor: null };
    cursor = page.nextCursor;
  }
}
