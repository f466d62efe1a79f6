// Bringing the thread index in line with the rollout files: rows for new or changed files are
// (re)read, rows whose file is gone are removed. Only files whose size or mtime changed are read,
// unless forced; a row another writer refreshed meanwhile is left as that writer wrote it.
import { existsSync, statSync } from 'node:fs';
import { mapConcurrently } from '../internal/map-concurrently.js';
import type { OpenFile } from '../open-file.js';
import type { ContextFragmentOptions } from '../user-turn.js';
import { listThreadFiles, type ThreadFile } from './thread-files.js';
import type { ThreadIndex } from './thread-index.js';
import { summarizeRolloutFile } from './thread-summary.js';

/** How many thread files a reconcile reads at once. */
export const SUMMARY_CONCURRENCY = 8;

/** What a reconcile of the index with the files did. */
export interface IndexRepair {
  /** Rows added or refreshed from their files. */
  readonly updated: number;
  /** Rows removed because their file is gone. */
  readonly removed: number;
  /** Files that are not readable threads, with why. */
  readonly skipped: readonly { readonly path: string; readonly reason: string }[];
}

/** Reconciles `index` with the files under `home` (every file re-read when `force`). */
export async function reconcileIndex(index: ThreadIndex, home: string, readOptions: { readonly openFile?: OpenFile } & ContextFragmentOptions, force: boolean): Promise<IndexRepair> {
  const files = await listThreadFiles(home);
  const states = new Map(index.fileStates().map((state) => [state.id, state]));
  const seen = new Set<string>();
  const skipped: { path: string; reason: string }[] = [];
  const toRead: ThreadFile[] = [];
  for (const file of files) {
    if (seen.has(file.threadId)) {
      skipped.push({ path: file.path, reason: `thread ${file.threadId} has another file, which is indexed` });
      continue;
    }
    seen.add(file.threadId);
    const state = states.get(file.threadId);
    const unchanged = state !== undefined && state.path === file.path && state.size === file.size && state.mtimeMs === Math.trunc(file.mtimeMs);
    if (!unchanged || force) toRead.push(file);
  }
  const read = await mapConcurrently(toRead, SUMMARY_CONCURRENCY, async (file) => {
    try {
      const summary = await summarizeRolloutFile(file.path, file.archived, readOptions);
      if (summary.id === file.threadId) return { summary, size: file.size, mtimeMs: file.mtimeMs };
      skipped.push({ path: file.path, reason: `its header names thread ${summary.id}, not the ${file.threadId} in its name` });
    } catch (error) {
      skipped.push({ path: file.path, reason: (error as Error).message });
    }
    return undefined;
  });
  const updates = read.filter((update) => update !== undefined);
  let removed = 0;
  let updated = 0;
  index.transaction(() => {
    for (const update of updates) {
      // The file may have been moved or written since it was read: then whoever did that keeps
      // its row current, and this older reading must not overwrite it.
      const now = statSync(update.summary.path, { throwIfNoEntry: false });
      if (now === undefined || now.size !== update.size || Math.trunc(now.mtimeMs) !== Math.trunc(update.mtimeMs)) continue;
      index.upsert(update.summary, update);
      updated += 1;
    }
    for (const state of states.values()) {
      if (seen.has(state.id) || existsSync(state.path)) continue;
      index.remove(state.id);
      removed += 1;
    }
  });
  return { updated, removed, skipped };
}
