// One live writer per thread across hosts: a lease row names the host writing a thread and lasts
// until `expires_at` on the database's clock. A writer renews it while it holds the thread and
// proves it still holds it in the same transaction as every batch it writes, so a host that lost
// its lease (it stalled past the expiry and another host took over) can never append again.
import { randomUUID } from 'node:crypto';
import { RolloutError } from '@skein/rollout';
import type { Queryable } from './database.js';

/** One writer's hold on one thread. */
export interface Lease {
  readonly threadId: string;
  /** Unique to this hold: a second writer on the same host is another holder. */
  readonly token: string;
}

/** Takes, renews, checks and releases leases for one host. */
export class ThreadLeases {
  constructor(
    /** Named in the refusal another host gets (`hostname:pid` by default). */
    readonly hostId: string,
    /** How long a lease lasts without renewal. */
    readonly durationMs: number,
  ) {}

  /**
   * Takes `threadId` for writing: free, or its lease lapsed (its holder died or stalled). Throws
   * `WriterBusy` naming the holder and when its lease runs out otherwise.
   */
  async take(db: Queryable, threadId: string): Promise<Lease> {
    const token = randomUUID();
    const taken = await db.query(
      `INSERT INTO skein_thread_leases (thread_id, owner, token, expires_at)
       VALUES ($1, $2, $3, clock_timestamp() + $4 * interval '1 millisecond')
       ON CONFLICT (thread_id) DO UPDATE SET owner = EXCLUDED.owner, token = EXCLUDED.token, expires_at = EXCLUDED.expires_at
         WHERE skein_thread_leases.expires_at <= clock_timestamp()
       RETURNING token`,
      [threadId, this.hostId, token, this.durationMs],
    );
    if (taken.rowCount === 1) return { threadId, token };
    const holder = await db.query<{ owner: string; expires_at: Date }>('SELECT owner, expires_at FROM skein_thread_leases WHERE thread_id = $1', [threadId]);
    const row = holder.rows[0];
    const who = row === undefined ? 'another writer' : `host ${row.owner} (its lease runs until ${row.expires_at.toISOString()} unless renewed)`;
    throw new RolloutError('WriterBusy', `thread ${threadId} is being written by ${who}`);
  }

  /**
   * Extends `lease` from now, inside the caller's transaction; the row stays locked until it ends, so
   * nobody takes the thread over while the batch it guards is written. Throws `LeaseLost` when the
   * lease lapsed and someone else took the thread.
   */
  async renew(db: Queryable, lease: Lease): Promise<void> {
    const renewed = await db.query(
      `UPDATE skein_thread_leases SET expires_at = clock_timestamp() + $3 * interval '1 millisecond'
       WHERE thread_id = $1 AND token = $2`,
      [lease.threadId, lease.token, this.durationMs],
    );
    if (renewed.rowCount !== 1) {
      throw new RolloutError('LeaseLost', `this host (${this.hostId}) no longer holds thread ${lease.threadId}: its lease lapsed and another host took it over`);
    }
  }

  /** Lets the thread go (nothing when the lease was already lost). */
  async release(db: Queryable, lease: Lease): Promise<void> {
    await db.query('DELETE FROM skein_thread_leases WHERE thread_id = $1 AND token = $2', [lease.threadId, lease.token]);
  }

  /** Who holds `threadId` now, if anyone (an expired lease holds nothing). */
  async holder(db: Queryable, threadId: string): Promise<string | undefined> {
    const { rows } = await db.query<{ owner: string }>('SELECT owner FROM skein_thread_leases WHERE thread_id = $1 AND expires_at > clock_timestamp()', [threadId]);
    return rows[0]?.owner;
  }
}
