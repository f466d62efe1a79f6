import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { temporaryHome } from '../../test/support/builders.js';
import { WAL_CHECK_INTERVAL_MS, WalCheckpoints } from './wal-checkpoints.js';

const SQLITE_PATH = createRequire(import.meta.url).resolve('better-sqlite3');
let home: Awaited<ReturnType<typeof temporaryHome>>;
let db: Database.Database;
let file: string;
beforeEach(async () => {
  home = await temporaryHome();
  file = path.join(home.home, 'index.sqlite');
  db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (x TEXT)');
});
afterEach(async () => {
  db.close();
  await home.dispose();
});

/** About `pages` pages of log, in one transaction. */
function write(pages: number): void {
  const insert = db.prepare('INSERT INTO t VALUES (?)');
  db.transaction(() => {
    for (let n = 0; n < pages; n += 1) insert.run('x'.repeat(3_000));
  })();
}

const walBytes = () => statSync(`${file}-wal`).size;

it('checkpoints on its own once the log passes 1,000 pages, and a writer then starts the log over, cut back', async () => {
  const checkpoints = new WalCheckpoints(db, file, SQLITE_PATH, 1_000);
  try {
    write(1_500);
    const grown = walBytes();
    expect(grown).toBeGreaterThan(1_000 * 4_096);
    // Only the worker can checkpoint (the connection's own autocheckpoint is off); a write after it
    // starts the log over and cuts the file back to a quarter of the mark.
    const deadline = Date.now() + 10 * WAL_CHECK_INTERVAL_MS;
    while (walBytes() >= grown && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      write(1);
    }
    expect(walBytes()).toBeLessThanOrEqual((1_000 * 4_096) / 4);
  } finally {
    checkpoints.stop();
  }
});

it('hands checkpoints back to SQLite when its worker cannot start', async () => {
  const checkpoints = new WalCheckpoints(db, file, path.join(home.home, 'no-such-sqlite.js'), 1_000);
  try {
    write(10);
    await expect(checkpoints.checkpoint()).rejects.toThrow(/checkpoint of .* failed/);
    // From now on a checkpoint runs on the index's own connection...
    const result = await checkpoints.checkpoint();
    expect(result.checkpointedFrames).toBe(result.logFrames);
    // ...and SQLite checkpoints inside commits again: a 1,500-page commit leaves a log a next write starts over.
    write(1_500);
    write(1);
    expect((await checkpoints.checkpoint()).logFrames).toBeLessThan(1_000);
  } finally {
    checkpoints.stop();
  }
  await expect(checkpoints.checkpoint()).rejects.toThrow(/closed/);
});
