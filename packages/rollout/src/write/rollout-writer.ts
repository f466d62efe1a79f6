// The append-only writer: one owner per thread file, lines in the order they were appended, handed
// to the OS as they come and made durable (fsync) at least when a turn ends.
import { newThreadId, randomUuidV7, type ThreadId, type UuidV7Source } from '@skein/protocol';
import { constants } from 'node:fs';
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { rolloutTimestamp, systemClock, type Clock } from '../clock.js';
import { rolloutItemProblem, type RolloutItem } from '../lines/rollout-line.js';
import type { BaseInstructions, GitInfo, SessionMeta, SessionSource } from '../lines/session-meta.js';
import { openFile, type OpenFile } from '../open-file.js';
import type { EventPersistenceMode } from '../persistence-policy.js';
import { readRolloutHead, readRolloutTail } from '../read/tail-reader.js';
import { RolloutError } from '../rollout-error.js';
import { liveRolloutPath, requireRolloutFileName } from '../rollout-path.js';
import type { ContextFragmentOptions } from '../user-turn.js';
import { appendBytes } from './append-bytes.js';
import { RolloutLineEncoder } from './line-encoder.js';
import { completeTail, repairTornTail } from './torn-tail.js';
import { acquireWriterLock, currentProcessLockOwner, type LockOwner, type WriterLock } from './writer-lock.js';

/**
 * When the writer fsyncs:
 * - `turn` (default): when a turn ends (`task_complete`, `turn_aborted`), at compactions,
 *   rollbacks and the header, and on close: every completed turn survives a crash or power loss.
 * - `always`: after every write; each `append` is durable when it resolves.
 * - `none`: never; lines reach the OS page cache at once and survive a process crash, not a power loss.
 */
export type Durability = 'turn' | 'always' | 'none';

/**
 * The most bytes of lines queued but not yet written. Each `append` waits for its own lines to be
 * written, so only callers that do not await their appends can reach it (a thread's recorder does
 * not). Then `append` refuses (`QueueFull`) rather than grow without bound, and so does every later
 * `append`: the lines already accepted are still written, and the file ends there, with no gap.
 */
export const MAX_QUEUED_BYTES = 16 * 1024 * 1024;

/**
 * A new thread's header: the `session_meta` payload without `id` and `timestamp`, which the writer
 * fills in (and `session_id`, which defaults to the thread id). Further fields are written as given.
 */
export interface NewSessionMeta {
  readonly cwd: string;
  readonly session_id?: string;
  readonly originator?: string;
  readonly cli_version?: string;
  readonly source?: SessionSource;
  readonly thread_source?: string;
  readonly model_provider?: string;
  readonly base_instructions?: BaseInstructions;
  readonly parent_thread_id?: string;
  readonly forked_from_id?: string;
  readonly selected_capability_roots?: unknown[];
  readonly git?: GitInfo;
  readonly history_mode?: string;
  readonly [field: string]: unknown;
}

/** Options every writer takes. */
export interface RolloutWriterOptions extends ContextFragmentOptions {
  /** The home directory (the writer lock lives under it). */
  readonly home: string;
  readonly clock?: Clock;
  readonly persistence?: EventPersistenceMode;
  readonly durability?: Durability;
  readonly lockOwner?: LockOwner;
  /** Called once each turn boundary is written, before its fsync (for the thread index; the file may already hold lines appended after the boundary); its failure is passed to `onBoundaryError`, never to `append`. */
  readonly onBoundary?: (writer: RolloutWriter) => Promise<void> | void;
  readonly onBoundaryError?: (error: unknown) => void;
  /** Overrides `MAX_QUEUED_BYTES`. */
  readonly maxQueuedBytes?: number;
  /** How the thread file is opened; default the real filesystem's `open`. */
  readonly openFile?: OpenFile;
}

/**
 * What a resume's own read of the file found, for `RolloutWriter.resumeReading`: the header, where
 * the whole lines end and whether the last lacks its newline (a scan's `validEnd` and
 * `unterminatedTail`), and the ordinal of the last whole line.
 */
export interface ResumePoint {
  readonly meta: SessionMeta;
  readonly validEnd: number;
  readonly unterminatedTail: boolean;
  readonly lastOrdinal: number | undefined;
}

// Read and append, never create: a thread file that vanished must not come back empty.
const READ_APPEND = constants.O_RDWR | constants.O_APPEND;

/** Options of `RolloutWriter.create`. */
export interface CreateRolloutOptions extends RolloutWriterOptions {
  readonly meta: NewSessionMeta;
  /** The new thread's id; minted from `uuid` when absent. */
  readonly threadId?: ThreadId;
  readonly uuid?: UuidV7Source;
}

/** The writer of one thread's rollout file. */
export class RolloutWriter {
  private queue: string[] = [];
  private queuedBytes = 0;
  private chain: Promise<void> = Promise.resolve();
  /** Settles once every append so far is written and its boundary told (fsyncs not awaited). */
  private kept: Promise<void> = Promise.resolve();
  private closed = false;
  private failure: unknown;
  /** Why appends are refused from now on, though what was accepted is still written (`QueueFull`). */
  private refusal: RolloutError | undefined;
  /**
   * Whether bytes may be in the file that no fsync covered yet. A resumed file may hold lines its
   * last writer never synced (a crash mid-turn, `durability: 'none'`), so a writer starts unsynced.
   */
  private unsynced = true;
  private readonly encoder: RolloutLineEncoder;
  private readonly durability: Durability;

  private constructor(
    /** The file this writer appends to. */
    readonly path: string,
    /** The thread's id. */
    readonly threadId: string,
    /** The thread's header. */
    readonly meta: SessionMeta,
    private readonly handle: FileHandle,
    private readonly lock: WriterLock,
    nextOrdinal: number,
    private readonly options: RolloutWriterOptions,
  ) {
    this.encoder = new RolloutLineEncoder({
      clock: options.clock ?? systemClock,
      persistence: options.persistence ?? 'limited',
      nextOrdinal,
      where: path,
      ...(options.contextFragments === undefined ? {} : { contextFragments: options.contextFragments }),
    });
    this.durability = options.durability ?? 'turn';
  }

  /**
   * Creates `<home>/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl` with its `session_meta` line
   * (durable before this resolves). `session_id` defaults to the thread id; `history_mode` to
   * `"paginated"`, as Codex 0.171.0 writes.
   */
  static async create(options: CreateRolloutOptions): Promise<RolloutWriter> {
    const clock = options.clock ?? systemClock;
    const threadId = options.threadId ?? newThreadId(options.uuid ?? randomUuidV7);
    const createdAt = clock.now();
    const filePath = liveRolloutPath(options.home, threadId, createdAt);
    const { session_id: sessionId, ...rest } = options.meta;
    const meta = { session_id: sessionId ?? threadId, id: threadId, timestamp: rolloutTimestamp(createdAt), history_mode: 'paginated', ...rest } as SessionMeta;
    const problem = rolloutItemProblem({ type: 'session_meta', payload: meta });
    if (problem !== undefined) throw new RolloutError('InvalidItem', `session_meta: ${problem}`);
    await mkdir(path.dirname(filePath), { recursive: true });
    const lock = await acquireWriterLock(options.home, threadId, options.lockOwner ?? currentProcessLockOwner(), createdAt);
    let handle: FileHandle;
    try {
      handle = await (options.openFile ?? openFile)(filePath, 'ax');
    } catch (error) {
      await lock.release();
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new RolloutError('AlreadyExists', `${filePath} already exists`, filePath, undefined, { cause: error });
      throw error;
    }
    const writer = new RolloutWriter(filePath, threadId, meta, handle, lock, 0, options);
    await writer.append({ type: 'session_meta', payload: meta });
    await syncDirectory(path.dirname(filePath));
    return writer;
  }

  /**
   * Opens an existing thread file to append to it. A torn last line (a crash mid-write) is cut off
   * first (or, if it is whole JSON that lost only its newline, completed), so new lines never run
   * into it. Ordinals continue from the file's last one.
   */
  static async resume(filePath: string, options: RolloutWriterOptions): Promise<RolloutWriter> {
    const clock = options.clock ?? systemClock;
    const named = requireRolloutFileName(filePath);
    const meta = await readRolloutHead(filePath, options.openFile === undefined ? {} : { openFile: options.openFile });
    if (meta === undefined) throw new RolloutError('MissingSessionMeta', `${filePath} does not start with a session_meta line`, filePath, 1);
    const lock = await acquireWriterLock(options.home, named.threadId, options.lockOwner ?? currentProcessLockOwner(), clock.now());
    let handle: FileHandle | undefined;
    try {
      handle = await (options.openFile ?? openFile)(filePath, 'r+');
      await repairTornTail(handle);
      const tail = await readRolloutTail(filePath, options.openFile === undefined ? {} : { openFile: options.openFile });
      await handle.close();
      handle = await (options.openFile ?? openFile)(filePath, 'a');
      return new RolloutWriter(filePath, named.threadId, meta, handle, lock, (tail.lastOrdinal ?? -1) + 1, options);
    } catch (error) {
      await handle?.close().catch(() => undefined);
      await lock.release();
      throw error;
    }
  }

  /**
   * Opens an existing thread file to append to it after `read` has gone through it on the same
   * handle, under the writer lock: the file is opened once and read once, and nobody appends
   * between the read and this writer's first line. `read` reports what it found; a torn last line
   * is then cut off at `validEnd` (or, if it is whole JSON that lost only its newline, completed),
   * and ordinals continue from `lastOrdinal`. Answers the writer and what `read` returned; a
   * failing `read` releases the lock and the file.
   */
  static async resumeReading<Read extends ResumePoint>(
    filePath: string,
    options: RolloutWriterOptions,
    read: (handle: FileHandle) => Promise<Read>,
  ): Promise<{ readonly writer: RolloutWriter; readonly read: Read }> {
    const clock = options.clock ?? systemClock;
    const named = requireRolloutFileName(filePath);
    const lock = await acquireWriterLock(options.home, named.threadId, options.lockOwner ?? currentProcessLockOwner(), clock.now());
    let handle: FileHandle | undefined;
    try {
      handle = await (options.openFile ?? openFile)(filePath, READ_APPEND);
      const point = await read(handle);
      await completeTail(handle, point);
      return { writer: new RolloutWriter(filePath, named.threadId, point.meta, handle, lock, (point.lastOrdinal ?? -1) + 1, options), read: point };
    } catch (error) {
      await handle?.close().catch(() => undefined);
      await lock.release();
      throw error;
    }
  }

  /** The ordinal the next line gets. */
  get nextOrdinal(): number {
    return this.encoder.nextOrdinal;
  }

  /** The first user message appended through this writer (the thread's title, for the index). */
  get firstUserMessage(): string | undefined {
    return this.encoder.firstUserMessage;
  }

  /** The model of the last `turn_context` appended through this writer (the thread's model, for the index). */
  get lastModel(): string | undefined {
    return this.encoder.lastModel;
  }

  /**
   * Appends items in order. Items are checked first (all or nothing: an invalid one throws
   * `InvalidItem` and none is written); items the persistence policy does not keep are left out.
   * Resolves when the lines are written, and fsynced if `durability` asks for it.
   */
  async append(...items: RolloutItem[]): Promise<void> {
    this.assertOpen();
    if (this.refusal !== undefined) throw new RolloutError('WriterClosed', `the writer of ${this.path} refused lines earlier and accepts no more`, this.path, undefined, { cause: this.refusal });
    // No await before the lines are queued: ordinals and file order follow the order of the calls.
    if (this.queuedBytes > (this.options.maxQueuedBytes ?? MAX_QUEUED_BYTES)) {
      this.refusal = new RolloutError('QueueFull', `${this.queuedBytes} bytes are waiting to be written to ${this.path}; await appends before adding more`, this.path);
      throw this.refusal;
    }
    const { lines, boundary } = this.encoder.encode(items);
    for (const line of lines) {
      const text = `${line}\n`;
      this.queue.push(text);
      this.queuedBytes += text.length;
    }
    const sync = this.durability === 'always' || (boundary && this.durability === 'turn');
    const written = this.enqueue(() => this.writeQueued());
    const kept = boundary ? written.then(() => this.notifyBoundary()) : written;
    this.kept = Promise.all([this.kept, kept.catch(() => undefined)]).then(() => undefined);
    await kept;
    // The fsync comes after the boundary is told: `written()` (what a client's turn/completed waits
    // for) does not wait on the disk, while this append still resolves only once it is durable.
    if (sync) await this.enqueue(() => this.syncWritten());
  }

  /** Writes everything appended so far and fsyncs it (whatever `durability` says). */
  async flush(): Promise<void> {
    this.assertOpen();
    await this.enqueue(async () => {
      await this.writeQueued();
      await this.syncWritten();
    });
  }

  /**
   * Resolves once every append so far reached the OS and its turn boundary was told to `onBoundary`:
   * lines a killed process keeps. It does not wait for the fsyncs that make them survive a power loss.
   */
  async written(): Promise<void> {
    await this.kept;
  }

  /** Flushes (fsync unless `durability` is `none`), closes the file and releases the writer lock. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.enqueue(async () => {
        await this.writeQueued();
        if (this.durability !== 'none') await this.syncWritten();
      });
    } finally {
      await this.handle.close().catch(() => undefined);
      await this.lock.release();
    }
  }

  private assertOpen(): void {
    if (this.failure !== undefined) throw new RolloutError('WriterClosed', `the writer of ${this.path} failed earlier and accepts no more lines`, this.path, undefined, { cause: this.failure });
    if (this.closed) throw new RolloutError('WriterClosed', `the writer of ${this.path} is closed`, this.path);
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    const next = this.chain.then(step);
    this.chain = next.catch((error: unknown) => {
      this.failure ??= error;
    });
    return next;
  }

  // Writes whatever is queued (lines of later appends too, coalesced into one write).
  private async writeQueued(): Promise<void> {
    if (this.failure !== undefined) throw new RolloutError('WriterClosed', `the writer of ${this.path} failed earlier`, this.path, undefined, { cause: this.failure });
    if (this.queue.length === 0) return;
    const buffer = Buffer.from(this.queue.join(''), 'utf8');
    this.queue = [];
    this.queuedBytes = 0;
    this.unsynced = true;
    await appendBytes(this.handle, buffer);
  }

  // A sync right after another (a flush after the turn's boundary sync) has nothing left to make durable.
  private async syncWritten(): Promise<void> {
    if (this.failure !== undefined) throw new RolloutError('WriterClosed', `the writer of ${this.path} failed earlier`, this.path, undefined, { cause: this.failure });
    if (!this.unsynced) return;
    this.unsynced = false;
    await this.handle.datasync();
  }

  private async notifyBoundary(): Promise<void> {
    if (this.options.onBoundary === undefined) return;
    try {
      await this.options.onBoundary(this);
    } catch (error) {
      this.options.onBoundaryError?.(error);
    }
  }
}

async function syncDirectory(directory: string): Promise<void> {
  // Make the new file's directory entry durable too; not every platform lets a directory be opened.
  const handle = await open(directory, 'r').catch(() => undefined);
  if (handle === undefined) return;
  try {
    await handle.sync().catch(() => undefined);
  } finally {
    await handle.close();
  }
}
