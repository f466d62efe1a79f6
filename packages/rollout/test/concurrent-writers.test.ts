// Several processes write different threads into one home at the same time, each keeping the
// shared SQLite index current; afterwards the index agrees row for row with the files, and a
// rebuild from the files changes nothing.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ThreadIndex, FileThreadStore, listThreadFiles, summarizeRolloutFile, type ThreadSummary } from '../src/index.js';
import { temporaryHome } from './support/builders.js';

const run = promisify(execFile);
const CHILD = path.join(import.meta.dirname, 'children', 'thread-writer.mjs');
const WORKERS = 4;
const THREADS_PER_WORKER = 6;
const TURNS_PER_THREAD = 3;

let home: Awaited<ReturnType<typeof temporaryHome>>;
beforeEach(async () => (home = await temporaryHome()));
afterEach(() => home.dispose());

function allRows(index: ThreadIndex): ThreadSummary[] {
  const rows: ThreadSummary[] = [];
  for (const archived of [false, true]) {
    let cursor: string | null = null;
    do {
      const page = index.list({ archived, cursor, limit: 50 });
      rows.push(...page.data);
      cursor = page.nextCursor;
    } while (cursor !== null);
  }
  return rows.sort((a, b) => a.id.localeCompare(b.id));
}

describe('concurrent writers of different threads', () => {
  it('leave an index that matches the files exactly', async () => {
    const results = await Promise.all(
      Array.from({ length: WORKERS }, (_, worker) => run(process.execPath, [CHILD, home.home, String(worker), String(THREADS_PER_WORKER), String(TURNS_PER_THREAD)])),
    );
    expect(results.map((result) => [result.stdout, result.stderr])).toEqual(Array.from({ length: WORKERS }, () => ['done\n', '']));

    const files = await listThreadFiles(home.home);
    expect(files).toHaveLength(WORKERS * THREADS_PER_WORKER);
    const fromFiles = (await Promise.all(files.map((file) => summarizeRolloutFile(file.path, file.archived)))).sort((a, b) => a.id.localeCompare(b.id));

    // The index as the writers left it, read without any repair.
    const index = ThreadIndex.open(home.home);
    expect(index.fresh).toBe(false);
    expect(allRows(index)).toEqual(fromFiles);
    for (const summary of fromFiles) expect(summary.title).toMatch(/^question w\d-t\d-turn0$/);
    index.close();

    const store = await FileThreadStore.open({ home: home.home });
    expect(await store.rebuildIndex()).toMatchObject({ updated: fromFiles.length, removed: 0, skipped: [] });
    expect(allRows(store.index)).toEqual(fromFiles);
    const vscode = store.index.list({ source: 'vscode', limit: 100 }).data;
    expect(vscode).toHaveLength((WORKERS / 2) * THREADS_PER_WORKER);
    store.close();
  });
});
