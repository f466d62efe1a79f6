// The side stores on a real database: the scenarios of @skein/rollout's SQLite side-store tests
// (packages/rollout/src/thread-index/*.test.ts), with a second host's pool where those reopen the
// index, plus what only a shared database has: hosts editing the same thread at once.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { INITIAL_READ_REVISION, PINNED_SECTION_ID, QueuedSubmissionError, SECTION_POSITION_STEP, ThreadSectionError, type QueuedSubmission, type ThreadSectionStore } from '@skein/rollout';
import { openPool } from '../src/database.js';
import { migrate } from '../src/schema/migrations.js';
import {
  PostgresQueuedSubmissions,
  PostgresReadReceipts,
  PostgresThreadAttachments,
  PostgresThreadMetadata,
  PostgresThreadSections,
  removeThreadSideState,
} from '../src/side-stores/index.js';
import { createTestDatabase, postgresSkipReason, type TestDatabase } from './support/test-database.js';

const uuidV7 = (n: number): string => `01900000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;
const [A, B, C, D] = [uuidV7(1), uuidV7(2), uuidV7(3), uuidV7(4)];
const THREAD = A;
const OTHER = B;

/** The code of the error `work` rejects with (`ThreadSectionError` / `QueuedSubmissionError`), or 'not refused'. */
async function refusal(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error instanceof ThreadSectionError ? error.code : error instanceof QueuedSubmissionError ? [error.code, error.message] : error;
  }
  return 'not refused';
}

describe.skipIf(postgresSkipReason !== undefined)('PostgreSQL side stores', () => {
  let database: TestDatabase;
  // Two pools: two hosts sharing the database.
  let pool: pg.Pool;
  let otherHost: pg.Pool;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = openPool({ url: database.url });
    otherHost = openPool({ url: database.url });
    await migrate(pool);
  });
  beforeEach(async () => {
    await pool.query('TRUNCATE skein_read_receipts, skein_queued_submissions, skein_thread_metadata, skein_thread_section_members, skein_thread_attachments');
    await pool.query('DELETE FROM skein_thread_sections WHERE id <> $1', [PINNED_SECTION_ID]);
  });
  afterAll(async () => {
    await Promise.all([pool?.end(), otherHost?.end()]);
    await database?.drop();
  });

  describe('read receipts', () => {
    it('a published turn is the first unread until the thread is marked read; an earlier unread turn stays first', async () => {
      const receipts = new PostgresReadReceipts(pool);
      expect(await receipts.get(THREAD)).toEqual({ firstUnread: null, revision: INITIAL_READ_REVISION });
      const first = await receipts.publishTurn(THREAD, 't1');
      expect(first.firstUnread).toEqual({ type: 'turn', turnId: 't1' });
      const second = await receipts.publishTurn(THREAD, 't2');
      expect(second.firstUnread).toEqual({ type: 'turn', turnId: 't1' });
      expect(second.revision).not.toBe(first.revision);

      expect(await receipts.update(THREAD, first.revision, 'read')).toEqual({ applied: false, current: second });
      const read = await receipts.update(THREAD, second.revision, 'read');
      expect(read).toMatchObject({ applied: true, state: { firstUnread: null } });
      const unread = await receipts.update(THREAD, read.applied ? read.state.revision : '', 'unread');
      expect(unread).toMatchObject({ applied: true, state: { firstUnread: { type: 'turn', turnId: 't2' } } });
    });

    it('marks a thread without turns unread from its start, and another host sees it; removing forgets it', async () => {
      const marked = await new PostgresReadReceipts(pool).update(THREAD.toUpperCase(), INITIAL_READ_REVISION, 'unread');
      expect(marked).toMatchObject({ applied: true, state: { firstUnread: { type: 'threadStart' } } });
      const elsewhere = new PostgresReadReceipts(otherHost);
      expect(await elsewhere.get(THREAD)).toEqual(marked.applied ? marked.state : undefined);
      await elsewhere.remove(THREAD);
      expect(await new PostgresReadReceipts(pool).get(THREAD)).toEqual({ firstUnread: null, revision: INITIAL_READ_REVISION });
    });

    it('of two hosts marking a thread from the same revision, one applies and the other is told the current state', async () => {
      const outcomes = await Promise.all([new PostgresReadReceipts(pool).update(THREAD, INITIAL_READ_REVISION, 'unread'), new PostgresReadReceipts(otherHost).update(THREAD, INITIAL_READ_REVISION, 'read')]);
      expect(outcomes.filter((outcome) => outcome.applied)).toHaveLength(1);
      const applied = outcomes.find((outcome) => outcome.applied);
      expect(outcomes.find((outcome) => !outcome.applied)).toEqual({ applied: false, current: applied?.applied === true ? applied.state : undefined });
    });
  });

  describe('queued submissions', () => {
    const submission = (id: string, text: string): QueuedSubmission => ({
      id,
      input: [{ type: 'text', text, text_elements: [] }],
      clientUserMessageId: `client-${id}`,
      responsesapiClientMetadata: id === 'b' ? { origin: 'ide' } : null,
    });
    const ids = (list: readonly QueuedSubmission[]) => list.map((entry) => entry.id);

    it('keeps each thread’s queue in delivery order for every host, edits in place, and takes the first or a named one', async () => {
      const added = new PostgresQueuedSubmissions(pool);
      for (const id of ['a', 'b', 'c']) await added.add(THREAD, submission(id, `message ${id}`));
      await added.add(OTHER, submission('z', 'elsewhere'));

      const queue = new PostgresQueuedSubmissions(otherHost);
      expect(await queue.list(THREAD)).toEqual([submission('a', 'message a'), submission('b', 'message b'), submission('c', 'message c')]);
      expect(await queue.update(THREAD, 'b', { input: [{ type: 'text', text: 'edited', text_elements: [] }], responsesapiClientMetadata: null })).toMatchObject({
        id: 'b',
        clientUserMessageId: 'client-b',
        input: [{ text: 'edited' }],
        responsesapiClientMetadata: null,
      });
      await queue.reorder(THREAD, ['c', 'a', 'b']);
      expect(ids(await queue.list(THREAD))).toEqual(['c', 'a', 'b']);
      expect((await queue.take(THREAD)).id).toBe('c');
      expect((await queue.take(THREAD, 'b')).id).toBe('b');
      expect(ids(await queue.list(THREAD))).toEqual(['a']);
      expect(ids(await queue.list(OTHER))).toEqual(['z']);
      // A message added after a take goes last, behind what is still queued.
      await queue.add(THREAD, submission('d', 'later'));
      expect(ids(await queue.list(THREAD))).toEqual(['a', 'd']);
    });

    it('refuses what is not queued, a reorder that is no permutation, and a take from an empty queue, changing nothing', async () => {
      const queue = new PostgresQueuedSubmissions(pool);
      await queue.add(THREAD, submission('a', 'one'));
      await queue.add(THREAD, submission('b', 'two'));
      expect(await refusal(() => queue.update(THREAD, 'x', { input: [], responsesapiClientMetadata: null }))).toEqual(['NotFound', 'queued submission not found: x']);
      expect(await refusal(() => queue.take(THREAD, 'x'))).toEqual(['NotFound', 'queued submission not found: x']);
      for (const order of [['a'], ['a', 'a'], ['a', 'b', 'c'], ['b', 'x']]) {
        expect(await refusal(() => queue.reorder(THREAD, order))).toEqual(['NotAPermutation', 'queue reorder must include every queued submission exactly once']);
      }
      expect(await queue.remove(THREAD, 'x')).toBe(false);
      expect(ids(await queue.list(THREAD))).toEqual(['a', 'b']);
      expect(await queue.remove(THREAD, 'a')).toBe(true);
      await queue.removeAll(THREAD);
      expect(await refusal(() => queue.take(THREAD))).toEqual(['Empty', 'queue is empty']);
    });

    it('refuses a stored row that is not a queued message instead of handing it on', async () => {
      const queue = new PostgresQueuedSubmissions(pool);
      await queue.add(THREAD, submission('a', 'one'));
      // Another program damages the row.
      await pool.query(`UPDATE skein_queued_submissions SET input = '[{"type":"nonsense"}]'`);
      await expect(queue.list(THREAD)).rejects.toThrow();
    });

    it('gives each of two hosts’ concurrent adds its own place, and each queued message to one take only', async () => {
      const hosts = [new PostgresQueuedSubmissions(pool), new PostgresQueuedSubmissions(otherHost)];
      await Promise.all(Array.from({ length: 10 }, (_, n) => hosts[n % 2]!.add(THREAD, submission(`m${n}`, `message ${n}`))));
      const { rows } = await pool.query<{ distinct: string }>('SELECT count(DISTINCT position) AS distinct FROM skein_queued_submissions');
      expect(Number(rows[0]?.distinct)).toBe(10);
      const taken = await Promise.all(Array.from({ length: 10 }, (_, n) => hosts[n % 2]!.take(THREAD)));
      expect(new Set(taken.map((entry) => entry.id)).size).toBe(10);
    });
  });

  describe('thread metadata', () => {
    const RECORDED = { sha: 'abc', branch: 'main', originUrl: 'https://example.com/repo.git' };

    it('merges Git fields one by one over the recorded facts, then over what was stored; null clears; another host sees it', async () => {
      const metadata = new PostgresThreadMetadata(pool);
      expect(await metadata.get(THREAD)).toEqual({ gitInfo: undefined, daybreakEnabled: null });
      expect(await metadata.update(THREAD, { gitInfo: { branch: 'feature' } }, RECORDED)).toEqual({ gitInfo: { ...RECORDED, branch: 'feature' }, daybreakEnabled: null });
      // Once stored, the recording no longer counts.
      expect(await metadata.update(THREAD, { gitInfo: { sha: null } }, { sha: 'other', branch: 'other', originUrl: null })).toEqual({
        gitInfo: { sha: null, branch: 'feature', originUrl: RECORDED.originUrl },
        daybreakEnabled: null,
      });
      expect((await metadata.update(THREAD, { daybreakEnabled: true }, undefined)).daybreakEnabled).toBe(true);

      const elsewhere = new PostgresThreadMetadata(otherHost);
      expect(await elsewhere.get(THREAD.toUpperCase())).toEqual({ gitInfo: { sha: null, branch: 'feature', originUrl: RECORDED.originUrl }, daybreakEnabled: true });
      await elsewhere.remove(THREAD);
      expect(await elsewhere.get(THREAD)).toEqual({ gitInfo: undefined, daybreakEnabled: null });
    });

    it('starts from no facts when the thread recorded none', async () => {
      const metadata = new PostgresThreadMetadata(pool);
      expect((await metadata.update(THREAD, { gitInfo: { originUrl: 'git@example.com:r.git' } }, undefined)).gitInfo).toEqual({ sha: null, branch: null, originUrl: 'git@example.com:r.git' });
    });

    it('keeps both of two hosts’ concurrent patches', async () => {
      await Promise.all([
        new PostgresThreadMetadata(pool).update(THREAD, { gitInfo: { branch: 'one' } }, undefined),
        new PostgresThreadMetadata(otherHost).update(THREAD, { gitInfo: { sha: 'two' } }, undefined),
      ]);
      expect((await new PostgresThreadMetadata(pool).get(THREAD)).gitInfo).toEqual({ sha: 'two', branch: 'one', originUrl: null });
    });
  });

  describe('thread sections', () => {
    const WORK = '01a244fb-81bc-7720-a356-cb15f19863b5';
    const PLAY = '01a244fb-81c0-7980-a80d-307b356b3dae';
    const order = async (sections: ThreadSectionStore, sectionId: string) => (await sections.members(sectionId)).map((member) => member.threadId);

    it('has the built-in Pinned section first, then sections by id, paged after an id', async () => {
      const sections = new PostgresThreadSections(pool);
      await sections.create({ id: PLAY, name: 'Play', appearance: null });
      await sections.create({ id: WORK, name: 'Work', appearance: { icon: 'star', color: null } });
      expect(await sections.list({ limit: 10 })).toEqual({
        sections: [
          { id: PINNED_SECTION_ID, name: 'Pinned', appearance: null },
          { id: WORK, name: 'Work', appearance: { icon: 'star', color: null } },
          { id: PLAY, name: 'Play', appearance: null },
        ],
        more: false,
      });
      expect(await sections.list({ limit: 1 })).toMatchObject({ sections: [{ id: PINNED_SECTION_ID }], more: true });
      expect(await sections.list({ afterId: WORK, limit: 1 })).toMatchObject({ sections: [{ id: PLAY }], more: false });
    });

    it('appends moved threads, puts one before another, keeps entry time within a section and renumbers when there is no gap', async () => {
      const sections = new PostgresThreadSections(pool);
      await sections.create({ id: WORK, name: 'Work', appearance: null });
      await sections.move({ threadId: A, sectionId: WORK, nowMs: 1_000 });
      await sections.move({ threadId: B, sectionId: WORK, nowMs: 2_000 });
      expect((await sections.members(WORK)).map((member) => member.position)).toEqual([SECTION_POSITION_STEP, 2 * SECTION_POSITION_STEP]);
      await sections.move({ threadId: C, sectionId: WORK, beforeThreadId: A, nowMs: 3_000 });
      expect(await order(sections, WORK)).toEqual([C, A, B]);
      expect((await sections.membership(C))?.position).toBe(SECTION_POSITION_STEP / 2);
      // Reordering inside the section keeps when the thread entered it; moving last appends.
      await sections.move({ threadId: A, sectionId: WORK, nowMs: 9_000 });
      expect(await order(sections, WORK)).toEqual([C, B, A]);
      expect((await sections.membership(A))?.enteredAtMs).toBe(1_000);
      // Squeeze until two neighbours touch: the section is renumbered and the order still holds.
      for (let n = 0; n < 25; n += 1) await sections.move({ threadId: n % 2 === 0 ? D : A, sectionId: WORK, beforeThreadId: C, nowMs: 10_000 });
      expect(await order(sections, WORK)).toEqual([A, D, C, B]);
      expect(new Set((await sections.members(WORK)).map((member) => member.position)).size).toBe(4);
    });

    it('refuses an unknown section, a before-thread outside the section, a move before itself, and edits of Pinned', async () => {
      const sections = new PostgresThreadSections(pool);
      await sections.create({ id: WORK, name: 'Work', appearance: null });
      await sections.move({ threadId: A, sectionId: PINNED_SECTION_ID, nowMs: 1 });
      expect(await refusal(() => sections.move({ threadId: B, sectionId: 'nope', nowMs: 1 }))).toBe('SectionNotFound');
      expect(await refusal(() => sections.move({ threadId: B, sectionId: WORK, beforeThreadId: A, nowMs: 1 }))).toBe('BeforeThreadNotInSection');
      expect(await refusal(() => sections.move({ threadId: B, sectionId: WORK, beforeThreadId: B, nowMs: 1 }))).toBe('MovedBeforeItself');
      expect(await refusal(() => sections.update(PINNED_SECTION_ID, 'Mine', undefined))).toBe('BuiltInSection');
      expect(await refusal(() => sections.delete(PINNED_SECTION_ID))).toBe('BuiltInSection');
      expect(await refusal(() => sections.update('nope', 'x', undefined))).toBe('SectionNotFound');
      expect(await refusal(() => sections.delete('nope'))).toBe('SectionNotFound');
      expect(await sections.membership(B)).toBeUndefined();
    });

    it('updates keep or replace the appearance; deleting a section unfiles its threads; moving to null unfiles one', async () => {
      const sections = new PostgresThreadSections(pool);
      await sections.create({ id: WORK, name: 'Work', appearance: { icon: 'i', color: 'red' } });
      expect(await sections.update(WORK, 'Play', undefined)).toEqual({ id: WORK, name: 'Play', appearance: { icon: 'i', color: 'red' } });
      expect(await sections.update(WORK, 'Play', null)).toEqual({ id: WORK, name: 'Play', appearance: null });
      await sections.move({ threadId: A, sectionId: WORK, nowMs: 1 });
      await sections.move({ threadId: B, sectionId: WORK, nowMs: 1 });
      expect(await sections.move({ threadId: B, sectionId: null, nowMs: 2 })).toBeUndefined();
      expect(await sections.sectionOf(B)).toBeUndefined();
      expect(await sections.sectionOf(A)).toEqual({ section: { id: WORK, name: 'Play', appearance: null }, enteredAtMs: 1 });
      await sections.delete(WORK);
      expect(await sections.get(WORK)).toBeUndefined();
      expect(await sections.membership(A)).toBeUndefined();
    });

    it('shares sections and places between hosts, and keeps their order when two hosts move threads into one section at once', async () => {
      await new PostgresThreadSections(pool).create({ id: WORK, name: 'Work', appearance: { icon: null, color: 'blue' } });
      await new PostgresThreadSections(pool).move({ threadId: A.toUpperCase(), sectionId: WORK, nowMs: 42_000 });
      const elsewhere = new PostgresThreadSections(otherHost);
      expect(await elsewhere.get(WORK)).toEqual({ id: WORK, name: 'Work', appearance: { icon: null, color: 'blue' } });
      expect(await elsewhere.membership(A)).toEqual({ threadId: A, sectionId: WORK, position: SECTION_POSITION_STEP, enteredAtMs: 42_000 });
      expect((await elsewhere.list({ limit: 10 })).sections.map((section) => section.id)).toEqual([PINNED_SECTION_ID, WORK]);

      const hosts = [new PostgresThreadSections(pool), elsewhere];
      await Promise.all([B, C, D].map((threadId, n) => hosts[n % 2]!.move({ threadId, sectionId: WORK, nowMs: 50_000 })));
      expect(new Set((await elsewhere.members(WORK)).map((member) => member.position)).size).toBe(4);
    });
  });

  describe('thread attachments', () => {
    const attachment = (n: number, attachmentType: string, identityKey: string, payload: unknown, createdAt = 100) => ({ id: uuidV7(100 + n), attachmentType, identityKey, payload, createdAt });

    it('adds one attachment per type and key: a second add answers the first, unchanged', async () => {
      const attachments = new PostgresThreadAttachments(pool);
      const first = attachment(1, 'file', 'k1', { path: '/x' });
      expect(await attachments.add(A, first)).toEqual({ outcome: 'created', attachment: first });
      expect(await attachments.add(A, attachment(2, 'file', 'k1', { path: '/y' }))).toEqual({ outcome: 'existing', attachment: first });
      // Another type, or another thread, is another attachment.
      expect((await attachments.add(A, attachment(3, 'url', 'k1', null))).outcome).toBe('created');
      expect((await attachments.add(B, attachment(4, 'file', 'k1', [1, 2.5, true]))).outcome).toBe('created');
      expect((await attachments.list(A, { limit: 10 })).attachments).toEqual([first, attachment(3, 'url', 'k1', null)]);
      expect(await attachments.get(B, 'file', 'k1')).toEqual(attachment(4, 'file', 'k1', [1, 2.5, true]));
    });

    it('lists oldest first in pages after a time and id, and finds the owners of a type and key', async () => {
      const attachments = new PostgresThreadAttachments(pool);
      await attachments.add(A, attachment(3, 'file', 'c', 3, 200));
      await attachments.add(A, attachment(1, 'file', 'a', 1, 100));
      await attachments.add(A, attachment(2, 'file', 'b', 2, 100));
      const first = await attachments.list(A, { limit: 2 });
      expect(first.attachments.map((item) => item.identityKey)).toEqual(['a', 'b']);
      expect(first.more).toBe(true);
      const last = first.attachments.at(-1)!;
      expect(await attachments.list(A, { after: { createdAt: last.createdAt, id: last.id }, limit: 2 })).toEqual({ attachments: [attachment(3, 'file', 'c', 3, 200)], more: false });
      await attachments.add(B, attachment(4, 'file', 'a', 4));
      expect(await attachments.owners('file', 'a')).toEqual([A, B]);
      expect(await attachments.owners('file', 'zzz')).toEqual([]);
    });

    it('removes one attachment (answering it once), or every attachment of a deleted thread, for every host', async () => {
      const attachments = new PostgresThreadAttachments(pool);
      const kept = attachment(1, 'file', 'k1', { nested: { deep: ['x'] } });
      await attachments.add(A, kept);
      await attachments.add(A, attachment(2, 'file', 'k2', 'gone'));
      await attachments.add(B, attachment(3, 'file', 'k1', 'other'));
      expect((await attachments.remove(A, 'file', 'k2'))?.payload).toBe('gone');
      expect(await attachments.remove(A, 'file', 'k2')).toBeUndefined();
      await attachments.removeAll(B);
      const elsewhere = new PostgresThreadAttachments(otherHost);
      expect((await elsewhere.list(A, { limit: 10 })).attachments).toEqual([kept]);
      expect(await elsewhere.owners('file', 'k1')).toEqual([A]);
    });

    it('stores one of two hosts’ concurrent adds of the same type and key, and answers it to both', async () => {
      const outcomes = await Promise.all([
        new PostgresThreadAttachments(pool).add(A, attachment(1, 'file', 'k', 'one')),
        new PostgresThreadAttachments(otherHost).add(A, attachment(2, 'file', 'k', 'two')),
      ]);
      expect(outcomes.map((outcome) => outcome.outcome).sort()).toEqual(['created', 'existing']);
      expect(outcomes[0]?.attachment).toEqual(outcomes[1]?.attachment);
    });
  });

  it('removeThreadSideState forgets everything kept for one thread and nothing of another', async () => {
    await new PostgresReadReceipts(pool).publishTurn(A, 't1');
    await new PostgresThreadMetadata(pool).update(A, { daybreakEnabled: true }, undefined);
    await new PostgresThreadSections(pool).move({ threadId: A, sectionId: PINNED_SECTION_ID, nowMs: 1 });
    await new PostgresThreadSections(pool).move({ threadId: B, sectionId: PINNED_SECTION_ID, nowMs: 1 });
    for (const threadId of [A, B]) {
      await new PostgresQueuedSubmissions(pool).add(threadId, { id: `q-${threadId}`, input: [], clientUserMessageId: 'c', responsesapiClientMetadata: null });
      await new PostgresThreadAttachments(pool).add(threadId, { id: `a-${threadId}`, attachmentType: 'file', identityKey: 'k', payload: null, createdAt: 1 });
    }
    await removeThreadSideState(pool, A.toUpperCase());
    expect(await new PostgresReadReceipts(pool).get(A)).toEqual({ firstUnread: null, revision: INITIAL_READ_REVISION });
    expect(await new PostgresThreadMetadata(pool).get(A)).toEqual({ gitInfo: undefined, daybreakEnabled: null });
    expect(await new PostgresThreadSections(pool).members(PINNED_SECTION_ID)).toMatchObject([{ threadId: B }]);
    expect(await new PostgresQueuedSubmissions(pool).list(A)).toEqual([]);
    expect(await new PostgresQueuedSubmissions(pool).list(B)).toHaveLength(1);
    expect(await new PostgresThreadAttachments(pool).owners('file', 'k')).toEqual([B]);
  });
});
