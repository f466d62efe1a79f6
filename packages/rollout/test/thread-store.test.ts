// The store end to end on a real home directory: files, the SQLite index, and its self-repair.
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { THREAD_INDEX_FILE, FileThreadStore, readImportedRollout, type ThreadSummary } from '../src/index.js';
import { assistantMessage, steppingClock, temporaryHome, userTurn } from './support/builders.js';

let home: Awaited<ReturnType<typeof temporaryHome>>;
let store: FileThreadStore;
beforeEach(async () => {
  home = await temporaryHome();
  store = await FileThreadStore.open({ home: home.home, clock: steppingClock(Date.parse('2026-11-30T10:00:00.000Z'), 1000) });
});
afterEach(async () => {
  store.close();
  await home.dispose();
});

async function thread(title: string, cwd = '/workspace', source = 'exec'): Promise<string> {
  const writer = await store.createThread({ meta: { cwd, source, originator: 'skein_test', model_provider: 'mock' } });
  await writer.append(...userTurn(`turn-of-${title}`, title, assistantMessage(`answer to ${title}`)));
  await writer.close();
  return writer.threadId;
}

async function listAll(query: Parameters<FileThreadStore['list']>[0] = {}): Promise<ThreadSummary[]> {
  const all: ThreadSummary[] = [];
  let cursor: string | null = null;
  do {
    const page = await store.list({ ...query, cursor, limit: 7 });
    all.push(...page.data);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return all;
}

describe('FileThreadStore', () => {
  it('indexes a thread as it is written: title, cwd, source, file time', async () => {
    const id = await thread('Fix the flaky test', '/repo', 'vscode');
    const found = await store.find(id);
    expect(found).toMatchObject({ id, title: 'Fix the flaky test', cwd: '/repo', source: 'vscode', archived: false, sessionId: id, createdAt: '2026-11-30T10:00:00.000Z' });
    expect(found?.updatedAt).toBe((await stat(found?.path ?? '')).mtime.toISOString());
  });

  it('lists 40 threads newest first across pages, with filters', async () => {
    const ids: string[] = [];
    for (let n = 0; n < 40; n += 1) ids.push(await thread(`t${n}`, n % 4 === 0 ? '/quarter' : '/rest'));
    const all = await listAll();
    expect(all.map((summary) => summary.id)).toEqual([...ids].reverse());
    expect((await listAll({ cwd: '/quarter' })).map((summary) => summary.title)).toEqual(['t36', 't32', 't28', 't24', 't20', 't16', 't12', 't8', 't4', 't0']);
    expect(await listAll({ source: 'vscode' })).toEqual([]);
  });

  it('archives, unarchives and deletes, moving and removing the file', async () => {
    const id = await thread('keep me');
    const live = await store.find(id);
    const archived = await store.archive(id);
    expect(archived.path).toBe(path.join(home.home, 'archived_sessions', path.basename(live?.path ?? '')));
    expect(archived).toMatchObject({ archived: true, title: 'keep me' });
    expect(await listAll()).toEqual([]);
    expect((await listAll({ archived: true })).map((summary) => summary.id)).toEqual([id]);
    const back = await store.unarchive(id);
    expect(back.path).toBe(live?.path);
    expect((await listAll()).map((summary) => summary.id)).toEqual([id]);
    await store.delete(id);
    expect(await store.find(id)).toBeUndefined();
    await expect(stat(live?.path ?? '')).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(store.archive(id)).rejects.toMatchObject({ code: 'ThreadNotFound' });
  });

  it('records the git facts of a cwd that is a repository in the header', async () => {
    const repo = path.join(home.home, 'repo');
    await mkdir(repo);
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@e', '-c', 'init.defaultBranch=main', ...args], { cwd: repo }).toString().trim();
    git('init', '-q');
    git('commit', '-q', '--allow-empty', '-m', 'first');
    const writer = await store.createThread({ meta: { cwd: repo } });
    await writer.close();
    expect(writer.meta.git).toEqual({ commit_hash: git('rev-parse', 'HEAD'), branch: 'main' });
    const plain = await store.createThread({ meta: { cwd: home.home, git: { branch: 'given' } } });
    await plain.close();
    expect(plain.meta.git).toEqual({ branch: 'given' });
  });

  it('refuses to move or delete a thread while it is being written', async () => {
    const writer = await store.createThread({ meta: { cwd: '/w' } });
    await expect(store.archive(writer.threadId)).rejects.toMatchObject({ code: 'WriterBusy' });
    await expect(store.delete(writer.threadId)).rejects.toMatchObject({ code: 'WriterBusy' });
    await writer.close();
    await store.archive(writer.threadId);
  });

  it('resumes, loads and forks threads by id', async () => {
    const id = await thread('one');
    const writer = await store.resumeThread(id);
    await writer.append(...userTurn('t2', 'two', assistantMessage('a2')));
    await writer.close();
    const loaded = await store.loadThread(id);
    expect(loaded.turns.map((turn) => turn.status)).toEqual(['completed', 'completed']);
    const fork = await store.forkThread(id, { upTo: { userTurns: 1 } });
    expect(fork).toMatchObject({ forkedFromId: id, title: 'one' });
    expect((await store.loadThread(fork.id)).turns).toHaveLength(1);
  });

  it('exports a thread and imports it into another home once; a second import is refused', async () => {
    const id = await thread('travelling');
    const lines: string[] = [];
    await store.exportRollout(id, (line) => {
      lines.push(line);
    });
    const other = await temporaryHome();
    const target = await FileThreadStore.open({ home: other.home });
    try {
      const imported = await target.importRollout(await readImportedRollout(lines, 'export'));
      expect(imported).toMatchObject({ id, title: 'travelling' });
      expect((await target.loadThread(id)).turns.map((turn) => turn.status)).toEqual(['completed']);
      await expect(target.importRollout(await readImportedRollout(lines, 'export'))).rejects.toMatchObject({ code: 'AlreadyExists' });
      // A fresh store on that home knows the thread from its index, without scanning the files.
      const reopened = await FileThreadStore.open({ home: other.home, reconcileOnOpen: false });
      await expect(reopened.importRollout(await readImportedRollout(lines, 'export'))).rejects.toMatchObject({ code: 'AlreadyExists' });
      reopened.close();
    } finally {
      target.close();
      await other.dispose();
    }
  });

  it('rebuilds a deleted index from the files on the next open', async () => {
    for (let n = 0; n < 5; n += 1) await thread(`t${n}`);
    const before = await listAll();
    store.close();
    for (const suffix of ['', '-wal', '-shm']) await rm(path.join(home.home, `${THREAD_INDEX_FILE}${suffix}`), { force: true });
    store = await FileThreadStore.open({ home: home.home });
    expect(await listAll()).toEqual(before);
  });

  it('rebuilds an index file that was damaged', async () => {
    await thread('survivor');
    const before = await listAll();
    store.close();
    for (const suffix of ['-wal', '-shm']) await rm(path.join(home.home, `${THREAD_INDEX_FILE}${suffix}`), { force: true });
    await writeFile(path.join(home.home, THREAD_INDEX_FILE), Buffer.alloc(8192, 0x5a));
    store = await FileThreadStore.open({ home: home.home });
    expect(await listAll()).toEqual(before);
  });

  it('repairs rows whose file went away, and finds files the index never saw', async () => {
    const gone = await thread('gone');
    const kept = await thread('kept');
    await rm((await store.find(gone))?.path ?? '');
    expect((await listAll()).map((summary) => summary.id)).toEqual([kept]);
    expect(store.index.get(gone)).toBeUndefined();

    // A thread written by another program (here: a copy of a file Codex wrote) appears on find and on reopen.
    const codexFile = path.join(import.meta.dirname, 'fixtures', 'codex', 'plain_reply.rollout.jsonl');
    const header = JSON.parse((await readFile(codexFile, 'utf8')).split('\n')[0] ?? '{}') as { payload: { id: string } };
    const target = path.join(home.home, 'sessions', '2026', '11', '30', `rollout-2026-11-30T12-07-53-${header.payload.id}.jsonl`);
    await mkdir(path.dirname(target), { recursive: true });
    await copyFile(codexFile, target);
    expect(await store.find(header.payload.id)).toMatchObject({ title: 'Say hello.', source: 'exec', cwd: '/workspace' });
    store.close();
    store = await FileThreadStore.open({ home: home.home });
    expect((await listAll()).map((summary) => summary.id)).toContain(header.payload.id);
  });

  it('rebuilds in place: every row is read again from its file', async () => {
    for (let n = 0; n < 3; n += 1) await thread(`t${n}`);
    const before = await listAll();
    const repair = await store.rebuildIndex();
    expect(repair).toMatchObject({ updated: 3, removed: 0, skipped: [] });
    expect(await listAll()).toEqual(before);
  });

  it('leaves the index as it is when opened without a reconcile; the next open that reconciles catches up (issue #18)', async () => {
    const id = await thread('written elsewhere');
    // A row lost (another process wrote the file, or the index was reset): only a reconcile finds it.
    store.index.remove(id);
    store.close();
    store = await FileThreadStore.open({ home: home.home, reconcileOnOpen: false });
    expect(store.index.get(id)).toBeUndefined();
    store.close();
    store = await FileThreadStore.open({ home: home.home });
    expect(store.index.get(id)).toMatchObject({ id });
  });

  it('skips files that are not threads when reconciling, and says why', async () => {
    const dir = path.join(home.home, 'sessions', '2026', '11', '30');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'rollout-2026-11-30T10-00-00-01900000-0000-7000-8000-00000000abcd.jsonl'), 'not json\n');
    const repair = await store.reconcile();
    expect(repair.skipped).toEqual([expect.objectContaining({ reason: expect.stringContaining('session_meta') as string })]);
    expect((await readdir(dir)).length).toBe(1);
  });
});
