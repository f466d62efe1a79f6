// ThreadStore: where a host's threads live — their rollout lines, the index over them and what
// clients keep beside them — as one seam with two backends: the files and SQLite index of a home
// directory (`FileThreadStore`, Codex-compatible on disk) and a database several hosts share
// (`@skein/thread-store-postgres`). Core and the app-server see only this interface.
import type { ThreadId, UuidV7Source } from '@skein/protocol';
import type { ForkPoint } from './fork.js';
import type { RolloutItem, RolloutLine } from './lines/rollout-line.js';
import type { SessionMeta } from './lines/session-meta.js';
import type { LoadedThread, ThreadReplay } from './reconstruct/load-thread.js';
import type { QueuedSubmissionStore } from './thread-index/queued-submissions.js';
import type { ReadReceiptStore } from './thread-index/read-receipts.js';
import type { ThreadAttachmentStore } from './thread-index/thread-attachments.js';
import type { ThreadListQuery, ThreadPage, ThreadSearchHit, ThreadSearchPage, ThreadSearchQuery } from './thread-index/thread-index.js';
import type { ThreadMetadataStore } from './thread-index/thread-metadata.js';
import type { ThreadSectionStore } from './thread-index/thread-sections.js';
import type { ThreadSummary } from './thread-index/thread-summary.js';
import type { ImportedRollout } from './transfer/imported-rollout.js';
import type { NewSessionMeta } from './write/rollout-writer.js';

/**
 * Appends one thread's rollout lines in order; the writer holds the thread (one writer per thread
 * across every host sharing the store). Lines up to a turn boundary are durable before the
 * `append` that ends the turn resolves.
 */
export interface ThreadWriter {
  readonly threadId: string;
  /** The thread's header. */
  readonly meta: SessionMeta;
  /** The rollout file appended to, or null where the store keeps no file (a database). */
  readonly path: string | null;
  /** The ordinal the next line gets. */
  readonly nextOrdinal: number;
  /** The first user message appended through this writer (the thread's title). */
  readonly firstUserMessage: string | undefined;
  /** The model of the last `turn_context` appended through this writer. */
  readonly lastModel: string | undefined;
  /** Appends items in order; invalid items throw `InvalidItem` and none is written. */
  append(...items: RolloutItem[]): Promise<void>;
  /** Makes everything appended so far durable. */
  flush(): Promise<void>;
  /**
   * Resolves once everything appended so far survives this process being killed (a file: written
   * to the OS; a database: committed); rejects when that cannot be done now.
   */
  written(): Promise<void>;
  /** Flushes, then lets the thread go. Idempotent. */
  close(): Promise<void>;
}

/** A thread opened to continue it: its writer, and the thread as it was when the writer took it. */
export interface ResumedThread {
  readonly writer: ThreadWriter;
  readonly loaded: LoadedThread;
}

/** Options of `ThreadStore.createThread`. */
export interface CreateThreadOptions {
  readonly meta: NewSessionMeta;
  readonly threadId?: ThreadId;
  readonly uuid?: UuidV7Source;
  /** The caller already knows the cwd's git facts (or that there are none): the store does not look them up. */
  readonly gitKnown?: boolean;
}

/** Options of `ThreadStore.forkThread`. */
export interface ForkThreadOptions {
  /** The last turn kept (the whole thread by default). */
  readonly upTo?: ForkPoint;
  readonly threadId?: ThreadId;
  readonly uuid?: UuidV7Source;
  /** Header fields the fork gets beside its source's. */
  readonly meta?: Readonly<Record<string, unknown>>;
}

/** Options of `ThreadStore.search`. */
export interface ThreadSearchOptions {
  /** Stops reading new messages (between batches); the search then covers what was read. */
  readonly signal?: AbortSignal;
  /** Told after each batch of threads whose new messages were read: which threads, and how far along. */
  readonly onRead?: (progress: { readonly threadIds: readonly string[]; readonly done: number; readonly total: number }) => void;
  /** Told, after each batch of threads read, the hits among them (a streaming search's partial results). */
  readonly onPartial?: (hits: readonly ThreadSearchHit[]) => void;
}

/** The threads one host serves. Unknown ids throw `RolloutError('ThreadNotFound')`. */
export interface ThreadStore {
  /** Where the threads live, for messages: a home directory, or a database. */
  readonly location: string;
  /** Starts a new thread and holds it for writing. */
  createThread(options: CreateThreadOptions): Promise<ThreadWriter>;
  /** Takes a thread for writing and reconstructs it (`WriterBusy`, naming the holder, when someone else writes it). */
  openForResume(threadId: string): Promise<ResumedThread>;
  /** Reconstructs a thread without taking it. */
  loadThread(threadId: string): Promise<LoadedThread>;
  /** Calls `visit` with every line of a thread in order, a fork's inherited lines first. */
  forEachLine(threadId: string, visit: (line: RolloutLine, lineNumber: number) => void): Promise<ThreadReplay>;
  /** Copies a thread up to a turn into a new one. */
  forkThread(threadId: string, options?: ForkThreadOptions): Promise<ThreadSummary>;
  /** One page of threads, newest first. */
  list(query?: ThreadListQuery): Promise<ThreadPage>;
  /** The threads whose user or agent messages hold a term. */
  search(query: ThreadSearchQuery, options?: ThreadSearchOptions): Promise<ThreadSearchPage>;
  /** A thread's summary, or undefined. */
  find(threadId: string): Promise<ThreadSummary | undefined>;
  archive(threadId: string): Promise<ThreadSummary>;
  unarchive(threadId: string): Promise<ThreadSummary>;
  /** Deletes a thread and everything kept beside it (`WriterBusy` while it is being written). */
  delete(threadId: string): Promise<void>;
  /** Calls `write` with each line of a thread's Codex JSONL rollout (without newlines), in order. */
  exportRollout(threadId: string, write: (line: string) => Promise<void> | void): Promise<void>;
  /** Stores a checked rollout as a thread of its own id (`AlreadyExists` when the store has it). */
  importRollout(rollout: ImportedRollout): Promise<ThreadSummary>;
  readonly readReceipts: ReadReceiptStore;
  readonly queuedSubmissions: QueuedSubmissionStore;
  readonly threadMetadata: ThreadMetadataStore;
  readonly threadSections: ThreadSectionStore;
  readonly threadAttachments: ThreadAttachmentStore;
  /** Lets go of the store's resources; writers already handed out stay usable where the backend allows. */
  close(): Promise<void> | void;
}
