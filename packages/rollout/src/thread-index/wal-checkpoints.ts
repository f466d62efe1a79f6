// SQLite copies its write-ahead log into the database inside the commit that takes the log past
// 1,000 pages, and fsyncs the database file there: about 10 ms on the event loop every few seconds
// when a hundred turns a second end. The index turns that off for its connection and checkpoints
// from a worker thread with a connection of its own instead: a PASSIVE checkpoint waits for no
// writer and blocks none, and its fsyncs happen off the event loop. The worker starts the first time
// the log passes the mark. A worker that cannot start or dies hands checkpoints back to SQLite.
import type Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

/** How often the log's size is looked at. */
export const WAL_CHECK_INTERVAL_MS = 1_000;
/** Pages of log that call for a checkpoint (SQLite's own autocheckpoint mark). */
const CHECKPOINT_PAGES = 1_000;

/** What a checkpoint did: frames in the log, and how many of them are now in the database. */
export interface CheckpointResult {
  readonly logFrames: number;
  readonly checkpointedFrames: number;
}

// The worker: one connection, a PASSIVE checkpoint per request. CommonJS, evaluated from this string,
// so the package needs no second entry point; better-sqlite3 comes from the path this module resolved.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqlitePath);
const db = new Database(workerData.file, { fileMustExist: true, timeout: workerData.busyTimeoutMs });
parentPort.on('message', (message) => {
  if (message === 'close') { db.close(); parentPort.close(); return; }
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ logFrames: row.log, checkpointedFrames: row.checkpointed });
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message || error) });
  }
});
`;

type WorkerAnswer = CheckpointResult | { readonly error: string };

/** A started worker and the requests it has yet to answer, oldest first. */
interface CheckpointWorker {
  readonly worker: Worker;
  readonly waiting: ((answer: WorkerAnswer) => void)[];
}

/** Checkpoints one index database's log from a worker thread. */
export class WalCheckpoints {
  readonly #walFile: string;
  readonly #thresholdBytes: number;
  readonly #timer: NodeJS.Timeout;
  #current: CheckpointWorker | undefined;
  /** Set once a worker failed: SQLite checkpoints inside commits again, as by default. */
  #handedBack = false;
  #running = false;
  #stopped = false;
  /** The log's mtime at the last checkpoint that went through. */
  #checkedMtimeMs = 0;

  constructor(
    private readonly db: Database.Database,
    private readonly file: string,
    private readonly sqlitePath: string,
    private readonly busyTimeoutMs: number,
  ) {
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    this.#thresholdBytes = CHECKPOINT_PAGES * pageSize;
    db.pragma('wal_autocheckpoint = 0');
    // Once checkpointed, the log is cut back to a quarter of the mark when a writer starts it over
    // (it keeps its size otherwise), so its size tells how much was written since.
    db.pragma(`journal_size_limit = ${this.#thresholdBytes / 4}`);
    this.#walFile = `${file}-wal`;
    this.#timer = setInterval(() => this.#checkSize(), WAL_CHECK_INTERVAL_MS).unref();
  }

  /** Checkpoints now: in the worker (started if need be), or here once a worker has failed. */
  checkpoint(): Promise<CheckpointResult> {
    if (this.#stopped) return Promise.reject(new Error(`the index ${this.file} is closed`));
    if (this.#handedBack) return Promise.resolve(this.#checkpointHere());
    const current = (this.#current ??= this.#startWorker());
    return new Promise<WorkerAnswer>((resolve) => {
      current.waiting.push(resolve);
      current.worker.ref(); // an awaited checkpoint keeps the process up until it is answered
      current.worker.postMessage('checkpoint');
    }).then((answer) => {
      if ('error' in answer) throw new Error(`checkpoint of ${this.file} failed: ${answer.error}`);
      return answer;
    });
  }

  /** Stops checking; the worker closes its connection and ends. */
  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    clearInterval(this.#timer);
    const current = this.#current;
    this.#current = undefined;
    if (current === undefined) return;
    current.worker.postMessage('close');
    current.worker.unref();
    for (const resolve of current.waiting.splice(0)) resolve({ error: 'the index was closed' });
  }

  #checkSize(): void {
    if (this.#running || this.#stopped || this.#handedBack) return;
    let wal;
    try {
      wal = statSync(this.#walFile, { throwIfNoEntry: false });
    } catch {
      return; // the log cannot be looked at now; the next interval looks again
    }
    if (wal === undefined || wal.size < this.#thresholdBytes || wal.mtimeMs === this.#checkedMtimeMs) return;
    this.#running = true;
    this.checkpoint()
      .then(() => (this.#checkedMtimeMs = wal.mtimeMs))
      .catch(() => undefined) // the next interval asks again; a missed checkpoint costs log size, not data
      .finally(() => (this.#running = false));
  }

  #checkpointHere(): CheckpointResult {
    const [row] = this.db.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
    return { logFrames: row?.log ?? 0, checkpointedFrames: row?.checkpointed ?? 0 };
  }

  #startWorker(): CheckpointWorker {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file: this.file, sqlitePath: this.sqlitePath, busyTimeoutMs: this.busyTimeoutMs } });
    const current: CheckpointWorker = { worker, waiting: [] };
    worker.unref();
    worker.on('message', (answer: WorkerAnswer) => {
      current.waiting.shift()?.(answer);
      if (current.waiting.length === 0) worker.unref();
    });
    // A worker that cannot load better-sqlite3 or dies: later checkpoints are SQLite's own again.
    const failed = (reason: string) => {
      for (const resolve of current.waiting.splice(0)) resolve({ error: reason });
      if (this.#current !== current) return;
      this.#current = undefined;
      this.#handedBack = true;
      if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${CHECKPOINT_PAGES}`);
    };
    worker.on('error', (error) => failed(error.message));
    worker.on('exit', () => failed('the checkpoint worker ended'));
    return current;
  }
}
