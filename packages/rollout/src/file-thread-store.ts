// FileThreadStore: the ThreadStore of one home directory — its rollout files and the SQLite index
// over them — behind one object: create, resume, load, fork, list, find, archive, unarchive, delete. The index is kept
// current as threads are written and repairs itself from the files when it is stale or missing.
import { existsSync, statSync } from 'node:fs';
import { mkdir, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { systemClock, type Clock } from './clock.js';
import { forkRollout } from './fork.js';
import { collectGitInfo } from './git-info.js';
import type { GitInfo } from './lines/session-meta.js';
import type { EventPersistenceMode } from './persistence-policy.js';
import type { OpenFile } from './open-file.js';
import { forEachThreadLine, loadThread, type LoadThreadOptions, type LoadedThread, type ThreadReplay } from './reconstruct/load-thread.js';
import { resumeRollout, type ResumedRollout } from './reconstruct/resume-rollout.js';
import { RolloutError } from './rollout-error.js';
import { ARCHIVED_SESSIONS_DIR, archivedRolloutPath, liveRolloutDir, requireRolloutFileName } from './rollout-path.js';
import type { QueuedSubmissions } from './thread-index/queued-submissions.js';
import type { ReadReceipts } from './thread-index/read-receipts.js';
import type { ThreadAttachments } from './thread-index/thread-attachments.js';
import type { ThreadMetadata } from './thread-index/thread-metadata.js';
import type { ThreadSections } from './thread-index/thread-sections.js';
import { ThreadIndex, type ThreadListQuery, type ThreadPage, type ThreadSearchPage, type ThreadSearchQuery } from './thread-index/thread-index.js';
import { readNewMessages } from './thread-index/read-new-messages.js';
import { reconcileIndex, type IndexRepair } from './thread-index/reconcile-index.js';
import { findThreadFile } from './thread-index/thread-files.js';
import { summarizeRolloutFile, summaryFromMeta, type FileThreadSummary, type ThreadSummary } from './thread-index/thread-summary.js';
import { RolloutWriter, type Durability } from './write/rollout-writer.js';
import type { ContextFragmentOptions } from './user-turn.js';
import { exportRolloutFile, importRolloutFile } from './transfer/file-transfer.js';
import type { ImportedRollout } from './transfer/imported-rollout.js';
import type { CreateThreadOptions, ForkThreadOptions, ThreadSearchOptions, ThreadStore } from './thread-store.js';
import type { RolloutLine } from './lines/rollout-line.js';
import { currentProcessLockOwner, isWriterLockHeld, type LockOwner } from './write/writer-lock.js';

/** Options of `FileThreadStore.open`. */
export interface FileThreadStoreOptions extends ContextFragmentOptions {
  /** The home directory (`CODEX_HOME` / `SKEIN_HOME`): `sessions/`, `archived_sessions/` and the index live here. */
  readonly home: string;
  readonly clock?: Clock;
  readonly persistence?: EventPersistenceMode;
  readonly durability?: Durability;
  readonly lockOwner?: LockOwner;
  /** Told when keeping the index current failed (the files stay right; the index is repaired on the next open). */
  readonly onIndexError?: (error: unknown) => void;
  /** Finds the git facts of a new thread's cwd (default: `collectGitInfo`, which runs git). */
  readonly gitInfo?: (cwd: string) => Promise<GitInfo | undefined>;
  /** How thread files are opened, by every read and write of the store (default: the real filesystem's `open`). */
  readonly openFile?: OpenFile;
  /**
   * Whether `open` brings the index in line with the files first (default true). A host that only
   * starts a new thread (`exec` without resume) has no use for it, and it reads every thread file's
   * size and time: a cost that grows with the home. The next store that does reconcile catches up.
   */
  readonly reconcileOnOpen?: boolean;
}

/** The threads of one home directory. */
export class FileThreadStore implements ThreadStore {
  private constructor(
    /** The home directory. */
    readonly home: string,
    /** The SQLite index (exposed for tools and tests). */
    readonly index: ThreadIndex,
    private readonly options: FileThreadStoreOptions,
  ) {}

  /** The home directory, for messages. */
  get location(): string {
    return this.home;
  }

  /** Where clients' users left off in each thread (durable, in the index database). */
  get readReceipts(): ReadReceipts {
    return this.index.readReceipts;
  }

  /** The messages clients queued for each thread (durable, in the index database). */
  get queuedSubmissions(): QueuedSubmissions {
    return this.index.queuedSubmissions;
  }

  /** What clients set on each thread beyond its file (Git facts, Daybreak; durable, in the index database). */
  get threadMetadata(): ThreadMetadata {
    return this.index.threadMetadata;
  }

  /** The sections clients file threads in (durable, in the index database). */
  get threadSections(): ThreadSections {
    return this.index.threadSections;
  }

  /** What clients attached to each thread (durable, in the index database). */
  get threadAttachments(): ThreadAttachments {
    return this.index.threadAttachments;
  }

  /** Opens the store: opens (or creates) the index and, unless told not to, brings it up to date with the files. */
  static async open(options: FileThreadStoreOptions): Promise<FileThreadStore> {
    const index = ThreadIndex.open(options.home);
    const store = new FileThreadStore(options.home, index, options);
    if (options.reconcileOnOpen === false) return store;
    try {
      await store.reconcile();
    } catch (error) {
      index.close();
      throw error;
    }
    return store;
  }

  /**
   * Starts a new thread; the returned writer keeps the index current at each turn boundary. When
   * the header has no `git` and the cwd is a repository, its commit, branch and origin are added.
   */
  async createThread(options: CreateThreadOptions): Promise<RolloutWriter> {
    let meta = options.meta;
    // `gitKnown`: the caller already knows the cwd's git facts (a sub-agent in its parent's cwd), even that there are none.
    if (meta.git === undefined && options.gitKnown !== true) {
      const git = await (this.options.gitInfo ?? collectGitInfo)(meta.cwd);
      if (git !== undefined) meta = { ...meta, git };
    }
    return RolloutWriter.create({ ...this.writerOptions(), ...options, meta });
  }

  /**
   * Opens a thread to append to it, without reconstructing it (`WriterBusy` if someone else is
   * writing it). A resume that needs the thread's history uses `openForResume`, which reads the file once.
   */
  async resumeThread(threadId: string): Promise<RolloutWriter> {
    const summary = await this.require(threadId);
    return RolloutWriter.resume(summary.path, this.writerOptions());
  }

  /**
   * Opens a thread to continue it: locks it for writing (`WriterBusy` if someone else is writing
   * it), reconstructs it and hands back the writer, reading its file once. Forks that reference
   * their parent are followed through the index.
   */
  async openForResume(threadId: string): Promise<ResumedRollout> {
    const summary = await this.require(threadId);
    return resumeRollout(summary.path, { ...this.writerOptions(), resolveThreadPath: this.resolveThreadPath });
  }

  /** Reconstructs a thread without opening it for writing (forks that reference their parent are followed through the index). */
  async loadThread(threadId: string, options: Omit<LoadThreadOptions, 'resolveThreadPath'> = {}): Promise<LoadedThread> {
    const summary = await this.require(threadId);
    return loadThread(summary.path, { ...this.readOptions(), ...options, resolveThreadPath: this.resolveThreadPath });
  }

  /** Calls `visit` with every line of a thread in order (a fork's inherited lines first). */
  async forEachLine(threadId: string, visit: (line: RolloutLine, lineNumber: number) => void): Promise<ThreadReplay> {
    const summary = await this.require(threadId);
    return forEachThreadLine(summary.path, visit, { ...this.readOptions(), resolveThreadPath: this.resolveThreadPath });
  }

  /** Forks a thread up to a turn (the whole thread by default) into a new one, indexed. */
  async forkThread(threadId: string, options: ForkThreadOptions = {}): Promise<ThreadSummary> {
    const source = await this.require(threadId);
    const fork = await forkRollout({
      home: this.home,
      sourcePath: source.path,
      clock: this.clock,
      resolveThreadPath: this.resolveThreadPath,
      ...this.readOptions(),
      ...options,
    });
    return this.indexFile(fork.path, false);
  }

  /**
   * One page of threads, newest first. Rows whose file has gone make the store reconcile with the
   * files and answer again.
   */
  async list(query: ThreadListQuery = {}): Promise<ThreadPage> {
    const page = this.index.list(query);
    if (page.data.every((thread) => thread.path !== null && existsSync(thread.path))) return page;
    await this.reconcile();
    return this.index.list(query);
  }

  /**
   * Searches the threads' user and agent messages (see `ThreadIndex.search`). Messages written
   * since the last search are read first, in batches of `MESSAGE_READ_BATCH` threads, each
   * recorded as it is read: a search stopped by `signal` keeps what it read and searches that.
   */
  async search(query: ThreadSearchQuery, options: ThreadSearchOptions = {}): Promise<ThreadSearchPage> {
    const { onPartial } = options;
    await this.readNewMessages(
      onPartial === undefined
        ? options
        : {
            ...options,
            onRead: (progress) => {
              options.onRead?.(progress);
              onPartial(this.index.search({ ...query, cursor: null, threadIds: progress.threadIds }).data);
            },
          },
    );
    return this.index.search(query);
  }

  /** Reads the messages written since they were last read, for search (see `search`). */
  async readNewMessages(options: ThreadSearchOptions = {}): Promise<void> {
    await readNewMessages(this.index, this.readOptions(), options, (error) => this.options.onIndexError?.(error));
  }

  /** A thread by id, or undefined. An id the index does not know is looked for among the files. */
  async find(threadId: string): Promise<FileThreadSummary | undefined> {
    const row = this.index.get(threadId);
    if (row !== undefined && existsSync(row.path)) return row;
    const file = await findThreadFile(this.home, threadId);
    if (file === undefined) {
      if (row !== undefined) this.index.remove(threadId);
      return undefined;
    }
    return this.indexFile(file.path, file.archived);
  }

  /** Moves a thread's file to `archived_sessions/` (`WriterBusy` while it is being written). */
  async archive(threadId: string): Promise<FileThreadSummary> {
    const summary = await this.require(threadId);
    if (summary.archived) return summary;
    await this.assertIdle(summary.id);
    const target = archivedRolloutPath(this.home, path.basename(summary.path));
    await mkdir(path.dirname(target), { recursive: true });
    await rename(summary.path, target);
    return this.indexFile(target, true, summary.title);
  }

  /** Moves an archived thread's file back under `sessions/YYYY/MM/DD/` (its creation date). */
  async unarchive(threadId: string): Promise<FileThreadSummary> {
    const summary = await this.require(threadId);
    if (!summary.archived) return summary;
    await this.assertIdle(summary.id);
    const named = requireRolloutFileName(summary.path);
    const target = path.join(liveRolloutDir(this.home, named.createdAt), path.basename(summary.path));
    await mkdir(path.dirname(target), { recursive: true });
    await rename(summary.path, target);
    return this.indexFile(target, false, summary.title);
  }

  /** Deletes a thread's file, its row, its read state, its metadata, its queue, its section place and its attachments (`WriterBusy` while it is being written). */
  async delete(threadId: string): Promise<void> {
    const summary = await this.require(threadId);
    await this.assertIdle(summary.id);
    await unlink(summary.path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    this.index.remove(summary.id);
    await this.index.readReceipts.remove(summary.id);
    await this.index.threadMetadata.remove(summary.id);
    await this.index.queuedSubmissions.removeAll(summary.id);
    await this.index.threadSections.removeThread(summary.id);
    await this.index.threadAttachments.removeAll(summary.id);
  }

  /** Calls `write` with each line of the thread's file. */
  async exportRollout(threadId: string, write: (line: string) => Promise<void> | void): Promise<void> {
    await exportRolloutFile((await this.require(threadId)).path, write);
  }

  /** Writes a checked rollout as a new thread file and indexes it. */
  async importRollout(rollout: ImportedRollout): Promise<FileThreadSummary> {
    // The index, not `find`: a miss there scans every file, which made filling a home quadratic.
    // Every store on this home indexes what it writes, and the hard link refuses a same-path copy.
    const known = this.index.get(rollout.meta.id);
    if (known !== undefined && existsSync(known.path)) throw new RolloutError('AlreadyExists', `thread ${rollout.meta.id} is already in ${this.home}`);
    return this.indexFile(await importRolloutFile(this.home, rollout), false);
  }

  /**
   * Brings the index in line with the files: rows for new or changed files are (re)read, rows
   * whose file is gone are removed. Only files whose size or mtime changed are read, unless `force`.
   */
  async reconcile(options: { readonly force?: boolean } = {}): Promise<IndexRepair> {
    return reconcileIndex(this.index, this.home, this.readOptions(), options.force === true);
  }

  /** Rebuilds every row from the files (rows are replaced in place, so concurrent lists never see an empty index). */
  async rebuildIndex(): Promise<IndexRepair> {
    return this.reconcile({ force: true });
  }

  /** Closes the index. Writers already handed out stay usable but no longer update it. */
  close(): void {
    this.index.close();
  }

  private readonly resolveThreadPath = async (threadId: string): Promise<string | undefined> => (await this.find(threadId))?.path;

  private get clock(): Clock {
    return this.options.clock ?? systemClock;
  }

  private readOptions(): { readonly openFile?: OpenFile } & ContextFragmentOptions {
    return {
      ...(this.options.openFile === undefined ? {} : { openFile: this.options.openFile }),
      ...(this.options.contextFragments === undefined ? {} : { contextFragments: this.options.contextFragments }),
    };
  }

  private writerOptions() {
    return {
      ...this.readOptions(),
      home: this.home,
      clock: this.clock,
      ...(this.options.persistence === undefined ? {} : { persistence: this.options.persistence }),
      ...(this.options.durability === undefined ? {} : { durability: this.options.durability }),
      ...(this.options.lockOwner === undefined ? {} : { lockOwner: this.options.lockOwner }),
      onBoundary: (writer: RolloutWriter) => this.indexWriter(writer),
      onBoundaryError: (error: unknown) => this.options.onIndexError?.(error),
    };
  }

  private indexWriter(writer: RolloutWriter): void {
    if (!this.index.isOpen) return;
    // At every turn's end: the file was just written, so a local stat answers in microseconds, where
    // the thread pool may be busy with other threads' fsyncs.
    const info = statSync(writer.path);
    const archived = path.dirname(writer.path) === path.join(this.home, ARCHIVED_SESSIONS_DIR);
    const summary = summaryFromMeta(writer.meta, { path: writer.path, archived, updatedAt: info.mtime }, writer.firstUserMessage, writer.lastModel);
    this.index.upsert(summary, { size: info.size, mtimeMs: info.mtimeMs });
  }

  private async indexFile(filePath: string, archived: boolean, knownTitle?: string | null): Promise<FileThreadSummary> {
    const info = await stat(filePath);
    const read = await summarizeRolloutFile(filePath, archived, this.readOptions());
    const summary = read.title === null && knownTitle ? { ...read, title: knownTitle } : read;
    this.index.upsert(summary, { size: info.size, mtimeMs: info.mtimeMs });
    return summary;
  }

  private async require(threadId: string): Promise<FileThreadSummary> {
    const summary = await this.find(threadId);
    if (summary === undefined) throw new RolloutError('ThreadNotFound', `no thread ${threadId} under ${this.home}`);
    return summary;
  }

  private async assertIdle(threadId: string): Promise<void> {
    if (await isWriterLockHeld(this.home, threadId, this.options.lockOwner ?? currentProcessLockOwner())) {
      throw new RolloutError('WriterBusy', `thread ${threadId} is being written; close its writer first`);
    }
  }
}
