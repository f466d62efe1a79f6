// The filesystem watches of one connection (`fs/watch`): one followed target per watch id (a
// directory's direct children or one file, see fs-watch-target.ts), its events batched per watch as
// Codex batches them.
import path from 'node:path';
import { AppServerErrorCode } from '@skein/protocol';
import { AppServerRequestError } from './app-server-error.js';
import { WatchedTarget } from './fs-watch-target.js';
import type { ClientConnection } from './method.js';

/** Codex collects a watch's events for about 200 ms and sends them as one `fs/changed`. */
export const FS_CHANGED_BATCH_MS = 200;
/** A batch that grows past this many paths is sent at once. */
export const MAX_CHANGED_PATHS_PER_BATCH = 10_000;
/** Watches one connection may hold at a time. */
export const MAX_WATCHES_PER_CONNECTION = 1_024;

interface Watch {
  readonly target: WatchedTarget;
  readonly pending: Set<string>;
  timer: NodeJS.Timeout | undefined;
}

/** A connection's watches; all of them close when the connection does. */
export class ConnectionWatches {
  readonly #watches = new Map<string, Watch>();

  constructor(private readonly connection: ClientConnection) {
    connection.onClose(() => this.closeAll());
  }

  /** Starts watching `requestedPath` under `watchId`; resolves to the normalized path. */
  add(watchId: string, requestedPath: string): string {
    if (this.#watches.has(watchId)) throw new AppServerRequestError(AppServerErrorCode.InvalidRequest, `watchId already exists: ${watchId}`);
    if (this.#watches.size >= MAX_WATCHES_PER_CONNECTION) {
      throw new AppServerRequestError(AppServerErrorCode.InvalidRequest, `too many watches on this connection (at most ${MAX_WATCHES_PER_CONNECTION})`);
    }
    const watchedPath = path.resolve(requestedPath);
    const pending = new Set<string>();
    const entry: Watch = { target: new WatchedTarget(watchedPath, (changedPath) => this.record(watchId, entry, changedPath)), pending, timer: undefined };
    this.#watches.set(watchId, entry);
    return watchedPath;
  }

  /** Stops `watchId`; unknown ids are fine. */
  remove(watchId: string): void {
    const entry = this.#watches.get(watchId);
    if (entry === undefined) return;
    this.#watches.delete(watchId);
    close(entry);
  }

  private closeAll(): void {
    for (const entry of this.#watches.values()) close(entry);
    this.#watches.clear();
  }

  private record(watchId: string, entry: Watch, changedPath: string): void {
    if (this.#watches.get(watchId) !== entry) return;
    entry.pending.add(changedPath);
    if (entry.pending.size >= MAX_CHANGED_PATHS_PER_BATCH) this.flush(watchId, entry);
    else entry.timer ??= setTimeout(() => this.flush(watchId, entry), FS_CHANGED_BATCH_MS);
  }

  private flush(watchId: string, entry: Watch): void {
    clearTimeout(entry.timer);
    entry.timer = undefined;
    if (entry.pending.size === 0 || this.#watches.get(watchId) !== entry) return;
    // Sorted by code unit, as Codex sorts the paths of a batch.
    const changedPaths = [...entry.pending].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    entry.pending.clear();
    this.connection.notify('fs/changed', { watchId, changedPaths });
  }
}

function close(entry: Watch): void {
  clearTimeout(entry.timer);
  entry.pending.clear();
  entry.target.close();
}
