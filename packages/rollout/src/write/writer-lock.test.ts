import { readFile, writeFile, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { temporaryHome, uuidV7 } from '../../test/support/builders.js';
import { acquireWriterLock, isWriterLockHeld, writerLockPath, type LockOwner } from './writer-lock.js';

const THREAD = uuidV7(1);
const NOW = new Date('2026-11-30T10:00:00.000Z');
const owner = (pid: number, alive: readonly number[] = [pid]): LockOwner => ({ pid, hostname: 'host-a', isAlive: (candidate) => alive.includes(candidate) });

let home: Awaited<ReturnType<typeof temporaryHome>>;
beforeEach(async () => (home = await temporaryHome()));
afterEach(() => home.dispose());

describe('acquireWriterLock', () => {
  it('gives one owner the lock and refuses a second while the first runs', async () => {
    const lock = await acquireWriterLock(home.home, THREAD, owner(10), NOW);
    expect(JSON.parse(await readFile(lock.path, 'utf8'))).toMatchObject({ pid: 10, hostname: 'host-a', threadId: THREAD });
    await expect(acquireWriterLock(home.home, THREAD, owner(11, [10, 11]), NOW)).rejects.toMatchObject({ code: 'WriterBusy', message: expect.stringContaining('process 10') as string });
    expect(await isWriterLockHeld(home.home, THREAD, owner(11, [10, 11]))).toBe(true);
    await lock.release();
    await lock.release();
    expect(await isWriterLockHeld(home.home, THREAD, owner(11, [10, 11]))).toBe(false);
    const next = await acquireWriterLock(home.home, THREAD, owner(11), NOW);
    await next.release();
  });

  it('takes over a lock left by a process that no longer runs', async () => {
    await acquireWriterLock(home.home, THREAD, owner(10), NOW);
    const lock = await acquireWriterLock(home.home, THREAD, owner(11, [11]), NOW);
    expect(JSON.parse(await readFile(lock.path, 'utf8'))).toMatchObject({ pid: 11 });
    expect((await readdir(path.dirname(lock.path))).filter((name) => name !== `${THREAD}.lock`)).toEqual([]);
    await lock.release();
  });

  it('does not take over a lock held on another host', async () => {
    await acquireWriterLock(home.home, THREAD, { ...owner(10), hostname: 'host-b' }, NOW);
    await expect(acquireWriterLock(home.home, THREAD, owner(11, [11]), NOW)).rejects.toMatchObject({ code: 'WriterBusy' });
  });

  it('treats a lock it cannot read as held', async () => {
    await mkdir(path.dirname(writerLockPath(home.home, THREAD)), { recursive: true });
    await writeFile(writerLockPath(home.home, THREAD), 'garbage');
    await expect(acquireWriterLock(home.home, THREAD, owner(11), NOW)).rejects.toMatchObject({ code: 'WriterBusy', message: expect.stringContaining('cannot be read') as string });
  });
});
