// What every side store shares: running an operation atomically on the pool (or inside the
// caller's transaction), serializing hosts that edit one thread's rows, and the thread key.
import pg from 'pg';
import { inTransaction, type Queryable } from '../database.js';

/** Runs `work` in a transaction of its own on a pool, or on `db` as it is (a client already in one). */
export function atomically<T>(db: Queryable | pg.Pool, work: (client: Queryable) => Promise<T>): Promise<T> {
  return db instanceof pg.Pool ? inTransaction(db, work) : work(db);
}

/** The advisory-lock namespaces of the side stores (the first key of the two-key form). */
export const LockScope = { readReceipts: 0x736b01, queuedSubmissions: 0x736b02, threadMetadata: 0x736b03 } as const;

/**
 * Holds, until the transaction ends, a lock on one thread's rows of a store: an edit that reads
 * then writes (a revision check, a queue position) must not interleave with another host's, and a
 * row that does not exist yet has nothing `SELECT … FOR UPDATE` could lock. A hash collision only
 * makes two threads wait for each other.
 */
export async function lockThread(client: Queryable, scope: number, threadId: string): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [scope, threadId]);
}

/** Thread ids are stored lowercase, as the SQLite index stores them. */
export const threadKey = (threadId: string): string => threadId.toLowerCase();

/** A `bigint` column, which pg answers as text, as a number (ms times and positions stay far below 2^53). */
export const integer = (value: string | number): number => Number(value);
