// A thread's writer in the database: lines are encoded as the file writer encodes them, held in
// memory, and written in one transaction at each turn boundary, before each model request
// (`written`) and whenever a megabyte waits, with the lease renewed in that same transaction. A failed batch is rolled back whole and kept: the
// call that wrote it fails with `StoreUnavailable`, and the next boundary writes it again with what
// followed, so a database that comes back loses nothing and the history keeps its order.
import type pg from 'pg';
import type { ContextFragmentDefinition } from '@skein/protocol';
import { RolloutError, searchableMessageText, type Durability, type RolloutItem, type RolloutLineEncoder, type SessionMeta, type ThreadWriter } from '@skein/rollout';
import { inTransaction } from './database.js';
import type { Lease, ThreadLeases } from './thread-leases.js';

/** Bytes held before a batch is written even without a boundary (a long turn's lines). */
export const FLUSH_BYTES = 1024 * 1024;

/** What a writer needs besides its thread. */
export interface PostgresWriterOptions {
  readonly pool: pg.Pool;
  readonly leases: ThreadLeases;
  readonly durability: Durability;
  readonly contextFragments?: readonly ContextFragmentDefinition[];
  /** Milliseconds since the epoch, for the thread's `updated_ms`. */
  readonly now: () => number;
  /** Told when renewing the lease between batches failed (the next batch tells the writer's caller). */
  readonly onRenewError?: (error: unknown) => void;
}

interface PendingLine {
  readonly seq: number;
  readonly text: string;
}

export class PostgresThreadWriter implements ThreadWriter {
  readonly path = null;
  #pending: PendingLine[] = [];
  #pendingBytes = 0;
  #nextSeq: number;
  #chain: Promise<void> = Promise.resolve();
  #closed = false;
  #lost: RolloutError | undefined;
  readonly #renewTimer: NodeJS.Timeout;

  constructor(
    readonly threadId: string,
    readonly meta: SessionMeta,
    private readonly encoder: RolloutLineEncoder,
    private readonly lease: Lease,
    /** The `seq` the next line gets (the thread's line count). */
    nextSeq: number,
    private readonly options: PostgresWriterOptions,
  ) {
    this.#nextSeq = nextSeq;
    // Renewed well before it lapses, so an idle loaded thread stays this host's.
    this.#renewTimer = setInterval(() => void this.#renewIdle(), Math.max(250, Math.floor(options.leases.durationMs / 3)));
    this.#renewTimer.unref();
  }

  get nextOrdinal(): number {
    return this.encoder.nextOrdinal;
  }

  get firstUserMessage(): string | undefined {
    return this.encoder.firstUserMessage;
  }

  get lastModel(): string | undefined {
    return this.encoder.lastModel;
  }

  async append(...items: RolloutItem[]): Promise<void> {
    this.#assertOpen();
    const { lines, boundary } = this.encoder.encode(items);
    for (const text of lines) {
      this.#pending.push({ seq: this.#nextSeq, text });
      this.#nextSeq += 1;
      this.#pendingBytes += text.length;
    }
    if (boundary || this.options.durability === 'always' || this.#pendingBytes >= FLUSH_BYTES) await this.#write();
  }

  async flush(): Promise<void> {
    this.#assertOpen();
    await this.#write();
  }

  /** Commits what is pending: lines recorded before a model request are kept if this host dies during it. */
  async written(): Promise<void> {
    if (this.#closed || this.#lost !== undefined) return;
    await this.#write();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#renewTimer);
    try {
      if (this.#lost === undefined) await this.#write();
    } finally {
      if (this.#lost === undefined) await this.options.leases.release(this.options.pool, this.lease).catch(() => undefined);
    }
  }

  #assertOpen(): void {
    if (this.#lost !== undefined) throw this.#lost;
    if (this.#closed) throw new RolloutError('WriterClosed', `the writer of thread ${this.threadId} is closed`);
  }

  // Batches run one after another: each takes everything pending when it starts.
  #write(): Promise<void> {
    const next = this.#chain.then(() => this.#writePending());
    this.#chain = next.catch(() => undefined);
    return next;
  }

  async #writePending(): Promise<void> {
    if (this.#lost !== undefined) throw this.#lost;
    const batch = this.#pending.slice();
    if (batch.length === 0) return;
    const lineCount = (batch.at(-1)?.seq ?? 0) + 1;
    const messages = batch.flatMap((line) => {
      const body = searchableMessageText(line.text, this.options.contextFragments);
      return body === undefined ? [] : [{ seq: line.seq, body }];
    });
    try {
      await inTransaction(this.options.pool, async (client) => {
        await this.options.leases.renew(client, this.lease);
        // A batch whose commit was lost in transit may already be there: the same lines, skipped.
        await client.query(
          `INSERT INTO skein_rollout_lines (thread_id, seq, line)
           SELECT $1, seq, line FROM unnest($2::bigint[], $3::text[]) AS batch (seq, line)
           ON CONFLICT (thread_id, seq) DO NOTHING`,
          [this.threadId, batch.map((line) => line.seq), batch.map((line) => line.text)],
        );
        if (messages.length > 0) {
          await client.query(
            `INSERT INTO skein_thread_messages (thread_id, seq, body)
             SELECT $1, seq, body FROM unnest($2::bigint[], $3::text[]) AS batch (seq, body)
             ON CONFLICT (thread_id, seq) DO NOTHING`,
            [this.threadId, messages.map((message) => message.seq), messages.map((message) => message.body)],
          );
        }
        await client.query(
          `UPDATE skein_threads SET updated_ms = GREATEST(updated_ms, $2), line_count = GREATEST(line_count, $3),
             title = COALESCE(title, $4), model = COALESCE($5, model)
           WHERE id = $1`,
          [this.threadId, this.options.now(), lineCount, this.encoder.firstUserMessage?.slice(0, 1000) ?? null, this.encoder.lastModel ?? null],
        );
      });
    } catch (error) {
      if (error instanceof RolloutError && error.code === 'LeaseLost') {
        this.#lost = error;
        clearInterval(this.#renewTimer);
        throw error;
      }
      // Rolled back: the batch stays pending and goes with the next one.
      throw new RolloutError('StoreUnavailable', `could not write thread ${this.threadId} to the database (${(error as Error).message}); its ${batch.length} pending lines are kept and written with the next batch`, undefined, undefined, { cause: error });
    }
    this.#pending = this.#pending.slice(batch.length);
    this.#pendingBytes = this.#pending.reduce((bytes, line) => bytes + line.text.length, 0);
  }

  async #renewIdle(): Promise<void> {
    if (this.#closed || this.#lost !== undefined) return;
    try {
      await this.options.leases.renew(this.options.pool, this.lease);
    } catch (error) {
      if (error instanceof RolloutError && error.code === 'LeaseLost') {
        this.#lost = error;
        clearInterval(this.#renewTimer);
      }
      this.options.onRenewError?.(error);
    }
  }
}
