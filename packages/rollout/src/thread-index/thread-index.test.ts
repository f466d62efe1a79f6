import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { temporaryHome, uuidV7 } from '../../test/support/builders.js';
import { THREAD_INDEX_FILE, ThreadIndex } from './thread-index.js';
import type { FileThreadSummary } from './thread-summary.js';

let home: Awaited<ReturnType<typeof temporaryHome>>;
beforeEach(async () => (home = await temporaryHome()));
afterEach(() => home.dispose());

const BASE = Date.parse('2026-11-30T10:00:00.000Z');
function summary(n: number, overrides: Partial<FileThreadSummary> = {}): FileThreadSummary {
  const id = uuidV7(n);
  return {
    id,
    path: `/home/sessions/${id}.jsonl`,
    cwd: n % 2 === 0 ? '/even' : '/odd',
    createdAt: new Date(BASE + n * 1000).toISOString(),
    updatedAt: new Date(BASE + (100 - n) * 1000).toISOString(),
    title: `thread ${n}`,
    modelProvider: 'mock',
    model: 'gpt-5.5',
    source: n % 3 === 0 ? 'vscode' : 'exec',
    archived: false,
    parentThreadId: null,
    sessionId: id,
    forkedFromId: null,
    ...overrides,
  };
}
const file = { size: 1, mtimeMs: 1 };

describe('ThreadIndex', () => {
  it('pages newest first with a cursor until the last page', () => {
    const index = ThreadIndex.open(home.home);
    for (let n = 1; n <= 23; n += 1) index.upsert(summary(n), file);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = index.list({ cursor, limit: 5 });
      seen.push(...page.data.map((thread) => thread.title ?? ''));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== null);
    expect(pages).toBe(5);
    expect(seen).toEqual(Array.from({ length: 23 }, (_, index) => `thread ${23 - index}`));
    index.close();
  });

  it('orders by update time on request and keeps ties stable by id', () => {
    const index = ThreadIndex.open(home.home);
    for (let n = 1; n <= 4; n += 1) index.upsert(summary(n, { updatedAt: '2026-11-30T12:00:00.000Z' }), file);
    index.upsert(summary(5), file);
    const first = index.list({ sortKey: 'updated', limit: 2 });
    const second = index.list({ sortKey: 'updated', limit: 10, cursor: first.nextCursor });
    expect([...first.data, ...second.data].map((thread) => thread.title)).toEqual(['thread 4', 'thread 3', 'thread 2', 'thread 1', 'thread 5']);
    expect(() => index.list({ sortKey: 'created', cursor: first.nextCursor })).toThrow(expect.objectContaining({ code: 'InvalidCursor' }) as Error);
    index.close();
  });

  it('filters by cwd, source and archived', () => {
    const index = ThreadIndex.open(home.home);
    for (let n = 1; n <= 9; n += 1) index.upsert(summary(n, { archived: n === 9 }), file);
    expect(index.list({ cwd: '/even' }).data.map((thread) => thread.title)).toEqual(['thread 8', 'thread 6', 'thread 4', 'thread 2']);
    expect(index.list({ source: 'vscode' }).data.map((thread) => thread.title)).toEqual(['thread 6', 'thread 3']);
    expect(index.list({ source: ['vscode', 'exec'], cwd: '/odd' }).data).toHaveLength(4);
    expect(index.list({ source: [] }).data).toEqual([]);
    expect(index.list({ archived: true }).data.map((thread) => thread.title)).toEqual(['thread 9']);
    index.close();
  });

  it('finds, updates and removes rows; keeps a known title when a later read has none', () => {
    const index = ThreadIndex.open(home.home);
    index.upsert(summary(1), file);
    index.upsert(summary(1, { title: null, cwd: '/moved' }), { size: 5, mtimeMs: 7.9 });
    expect(index.get(uuidV7(1))).toMatchObject({ title: 'thread 1', cwd: '/moved' });
    expect(index.get(uuidV7(1).toUpperCase())).toBeDefined();
    expect(index.fileStates()).toEqual([{ id: uuidV7(1), path: summary(1).path, size: 5, mtimeMs: 7 }]);
    index.remove(uuidV7(1));
    expect(index.get(uuidV7(1))).toBeUndefined();
    expect(index.count()).toBe(0);
    index.close();
  });

  it('validates the page size', () => {
    const index = ThreadIndex.open(home.home);
    for (const limit of [0, -1, 1.5, 10_000]) expect(() => index.list({ limit })).toThrow(expect.objectContaining({ code: 'InvalidArgument' }) as Error);
    index.close();
  });

  it('recreates an index file that is not a database', async () => {
    await writeFile(path.join(home.home, THREAD_INDEX_FILE), 'this is not sqlite '.repeat(500));
    const index = ThreadIndex.open(home.home);
    expect(index.fresh).toBe(true);
    index.upsert(summary(1), file);
    expect(index.count()).toBe(1);
    index.close();
    const again = ThreadIndex.open(home.home);
    expect(again.fresh).toBe(false);
    again.close();
  });

  it('recreates an index of another schema version', () => {
    const db = new Database(path.join(home.home, THREAD_INDEX_FILE));
    db.exec('CREATE TABLE threads (id TEXT)');
    db.pragma('user_version = 99');
    db.close();
    const index = ThreadIndex.open(home.home);
    expect(index.fresh).toBe(true);
    index.upsert(summary(2), file);
    expect(index.list().data).toHaveLength(1);
    index.close();
  });
});

describe('ThreadIndex checkpoints', () => {
  it('leaves its write-ahead log to the checkpoint worker, which copies all of it into the database', async () => {
    const index = ThreadIndex.open(home.home);
    try {
      // About 1,500 pages of log in one transaction: past the mark where SQLite would checkpoint
      // inside the commit (and the next write would start the log over) if the index had not turned that off.
      index.transaction(() => {
        for (let n = 1; n <= 1_500; n += 1) index.upsert(summary(n, { title: `${n} ${'x'.repeat(3_000)}` }), file);
      });
      index.upsert(summary(1_501), file);
      const result = await index.checkpoint();
      expect(result.logFrames).toBeGreaterThan(1_000);
      expect(result.checkpointedFrames).toBe(result.logFrames);
      expect(index.count()).toBe(1_501);
    } finally {
      index.close();
    }
    await expect(index.checkpoint()).rejects.toThrow(/closed/);
    // Closed and opened again, the index has every row.
    const reopened = ThreadIndex.open(home.home);
    expect(reopened.count()).toBe(1_501);
    reopened.close();
  });
});
