// SQLite copies its write-ahead log into the database inside the commit that takes the log past
// 1,000 pages, and fsyncs the database file there: about 10 ms on the event loop every few seconds
// when a hundred turns a second end. The index turns that off for its connection and checkpoints
// from a worker thread with a connection of its own instead: a PASSIVE checkpoint waits for no
// writer and blocks none, and its fsyncs happen off the event loop. The worker starts only once the
// log has grown, so a short-lived process never starts it.
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

/** Checkpoints one index database's log from a worker thread. */
export class WalCheckpoints {
  readonly #walFile: string;
  readonly #thresholdBytes: number;
  readonly #timer: NodeJS.Timeout;
  #worker: Worker | undefined;
  #waiting: ((answer: WorkerAnswer) => void)[] = [];
  #running = false;
  #stopped = false;
  /** The log's mtime when a checkpoint was last asked for. */
  #checkedMtimeMs = 0;

  constructor(
    db: Database.Database,
    private readonly file: string,
    private readonly sqlitePath: string,
    private readonly busyTimeoutMs: number,
  ) {
    db.pragma('wal_autocheckpoint = 0');
    this.#walFile = `${file}-wal`;
    this.#thresholdBytes = CHECKPOINT_PAGES * (db.pragma('page_size', { simple: true }) as number);
    this.#timer = setInterval(() => this.#checkSize(), WAL_CHECK_INTERVAL_MS).unref();
  }

  /** Checkpoints now, in the worker (started if need be). */
  checkpoint(): Promise<CheckpointResult> {
    if (this.#stopped) return Promise.reject(new Error(`the index ${this.file} is closed`));
    const worker = (this.#worker ??= this.#startWorker());
    return new Promise<WorkerAnswer>((resolve) => {
      this.#waiting.push(resolve);
      worker.postMessage('checkpoint');
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
    this.#worker?.postMessage('close');
    for (const resolve of this.#waiting.splice(0)) resolve({ error: 'the index was closed' });
  }

  #checkSize(): void {
    if (this.#running || this.#stopped) return;
    // The log keeps its size after a checkpoint (writers start over at its beginning): once it has
    // grown past the mark, it is checkpointed each interval in which it was written to.
    const wal = statSync(this.#walFile, { throwIfNoEntry: false });
    if (wal === undefined || wal.size < this.#thresholdBytes || wal.mtimeMs === this.#checkedMtimeMs) return;
    this.#checkedMtimeMs = wal.mtimeMs;
    this.#running = true;
    this.checkpoint()
      .catch(() => undefined) // the next interval tries again; a lost checkpoint costs log size, not data
      .finally(() => (this.#running = false));
  }

  #startWorker(): Worker {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file: this.file, sqlitePath: this.sqlitePath, busyTimeoutMs: this.busyTimeoutMs } });
    worker.unref();
    worker.on('message', (answer: WorkerAnswer) => this.#waiting.shift()?.(answer));
    worker.on('error', (error) => {
      for (const resolve of this.#waiting.splice(0)) resolve({ error: error.message });
      this.#worker = undefined;
    });
    worker.on('exit', () => {
      for (const resolve of this.#waiting.splice(0)) resolve({ error: 'the checkpoint worker ended' });
      this.#worker = undefined;
    });
    return worker;
  }
}
