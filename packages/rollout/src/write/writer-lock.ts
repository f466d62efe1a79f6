// One owner per thread file: a lock file per thread under the home directory, naming the process
// that holds it, so a second writer (in this process or another) is refused, and a lock left by a
// crashed process is taken over.
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, link, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import * as z from 'zod';
import { RolloutError } from '../rollout-error.js';
import { lazySchema } from '@skein/protocol';

/** The folder of writer locks under a home directory. */
export const WRITER_LOCKS_DIR = 'skein-writer-locks';

/** Who holds a lock, and how to tell whether that holder is still running. */
export interface LockOwner {
  readonly pid: number;
  readonly hostname: string;
  /** Whether process `pid` on this host is running. */
  isAlive(pid: number): boolean;
}

/** The current process as a lock owner (the edge where process identity is read). */
export function currentProcessLockOwner(): LockOwner {
  return {
    pid: process.pid,
    hostname: hostname(),
    isAlive: (pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch (error) {
        // EPERM: the process exists but belongs to someone else.
        return (error as NodeJS.ErrnoException).code === 'EPERM';
      }
    },
  };
}

const LockRecord = lazySchema(() => z.object({ pid: z.number().int(), hostname: z.string(), threadId: z.string(), acquiredAt: z.string() }));
type LockRecord = z.infer<typeof LockRecord>;

/** A held lock; `release()` removes it (once). */
export interface WriterLock {
  readonly path: string;
  release(): Promise<void>;
}

/** The lock file path of a thread. */
export function writerLockPath(home: string, threadId: string): string {
  return path.join(home, WRITER_LOCKS_DIR, `${threadId}.lock`);
}

/**
 * Takes the lock of `threadId`, or throws `WriterBusy` naming the holder. A lock whose holder is a
 * process of this host that no longer runs is stale and is taken over.
 */
export async function acquireWriterLock(home: string, threadId: string, owner: LockOwner, now: Date): Promise<WriterLock> {
  const lockPath = writerLockPath(home, threadId);
  await mkdir(path.dirname(lockPath), { recursive: true });
  const record: LockRecord = { pid: owner.pid, hostname: owner.hostname, threadId, acquiredAt: now.toISOString() };
  for (let attempt = 0; attempt < 3; attempt += 1) {
    if (await tryCreate(lockPath, record)) return heldLock(lockPath);
    const holder = await readHolder(lockPath);
    if (holder === 'gone') continue;
    const stale = holder !== undefined && holder.hostname === owner.hostname && !owner.isAlive(holder.pid);
    if (!stale) {
      throw new RolloutError(
        'WriterBusy',
        holder === undefined
          ? `thread ${threadId} is locked by ${lockPath}, which cannot be read`
          : `thread ${threadId} is being written by process ${holder.pid} on ${holder.hostname} (since ${holder.acquiredAt})`,
        lockPath,
      );
    }
    await takeOverStale(lockPath, holder);
  }
  throw new RolloutError('WriterBusy', `thread ${threadId}: could not take its writer lock; another process keeps taking it`, lockPath);
}

async function tryCreate(lockPath: string, record: LockRecord): Promise<boolean> {
  // Write the whole record under a private name, then link it into place: the lock never exists
  // half-written, and link fails if someone holds it.
  const temporary = `${lockPath}.${randomUUID()}.tmp`;
  await writeFile(temporary, JSON.stringify(record));
  try {
    await link(temporary, lockPath);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}

async function readHolder(lockPath: string): Promise<LockRecord | 'gone' | undefined> {
  let text: string;
  try {
    text = await readFile(lockPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
  try {
    const parsed = LockRecord.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Moves a stale lock aside under a unique name, then checks it is the one judged stale: if another
 * process replaced it in between, that fresh lock is put back and the caller retries (and then
 * sees it held).
 */
async function takeOverStale(lockPath: string, stale: LockRecord): Promise<void> {
  const tombstone = `${lockPath}.${randomUUID()}.stale`;
  try {
    await rename(lockPath, tombstone);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const moved = await readHolder(tombstone);
  const sameLock = moved !== 'gone' && moved !== undefined && moved.pid === stale.pid && moved.acquiredAt === stale.acquiredAt;
  if (!sameLock) await link(tombstone, lockPath).catch(() => undefined);
  await unlink(tombstone).catch(() => undefined);
}

function heldLock(lockPath: string): WriterLock {
  let released = false;
  return {
    path: lockPath,
    release: async () => {
      if (released) return;
      released = true;
      await unlink(lockPath).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
    },
  };
}

/** Whether a thread's lock is currently held by a running process (for archive and delete). */
export async function isWriterLockHeld(home: string, threadId: string, owner: LockOwner): Promise<boolean> {
  const holder = await readHolder(writerLockPath(home, threadId));
  if (holder === 'gone') return false;
  if (holder === undefined) return true;
  return holder.hostname !== owner.hostname || owner.isAlive(holder.pid);
}
