// The two thread stores side by side in one run (issue #44): turn-boundary write latency (a turn's
// lines appended, its end made durable), resuming a 20 000-item thread, and `list` over 10 000
// threads. The PostgreSQL store needs `SKEIN_BENCH_DATABASE_URL` (or `SKEIN_TEST_DATABASE_URL`: a
// database of its own is created and dropped there); without one only the file store is measured.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { FileThreadStore, type RolloutItem, type ThreadStore } from '@skein/rollout';
import { createTestDatabase } from '@skein/test-support';
import { PostgresThreadStore } from '@skein/thread-store-postgres';
import { LARGE_THREAD_TURNS, turnItems } from './large-thread.js';

const BOUNDARY_TURNS = 300;
const LIST_THREADS = 10_000;
const LIST_PAGES = 200;
const RESUMES = 5;
const meta = { cwd: '/workspace', originator: 'skein_bench', cli_version: '0.0.0', source: 'exec', model_provider: 'mock' };

const ms = (value: number) => `${value.toFixed(2)} ms`;
const percentile = (values: readonly number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ?? 0;

/** Appends `BOUNDARY_TURNS` turns of one thread; each ends with `task_complete`, where both stores commit. */
async function boundaryLatency(store: ThreadStore): Promise<number[]> {
  const writer = await store.createThread({ meta, gitKnown: true });
  const times: number[] = [];
  for (let turn = 0; turn < BOUNDARY_TURNS; turn += 1) {
    const items = turnItems(turn);
    // The turn's lines arrive as a turn makes them; only the last append (the end) waits for durability.
    for (const item of items.slice(0, -1)) await writer.append(item);
    const start = performance.now();
    await writer.append(items.at(-1) as RolloutItem);
    times.push(performance.now() - start);
  }
  await writer.close();
  return times;
}

/** Writes the 2 000-turn (20 000-item) thread; answers its id. */
async function largeThread(store: ThreadStore): Promise<string> {
  const writer = await store.createThread({ meta, gitKnown: true });
  for (let turn = 0; turn < LARGE_THREAD_TURNS; turn += 1) await writer.append(...turnItems(turn));
  await writer.close();
  return writer.threadId;
}

async function resumeTimes(store: ThreadStore, threadId: string): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < RESUMES; run += 1) {
    const start = performance.now();
    const { writer, loaded } = await store.openForResume(threadId);
    times.push(performance.now() - start);
    if (loaded.history.length < 20_000) throw new Error(`resumed ${loaded.history.length} items, expected 20 000`);
    await writer.close();
  }
  return times;
}

/** Fills the store with `LIST_THREADS` one-turn threads through `importRollout` (one write each). */
async function manyThreads(store: ThreadStore): Promise<void> {
  const { readImportedRollout } = await import('@skein/rollout');
  const created = Date.parse('2026-01-01T00:00:00.000Z');
  for (let index = 0; index < LIST_THREADS; index += 1) {
    const id = `019b0000-0000-7000-8000-${index.toString(16).padStart(12, '0')}`;
    const timestamp = new Date(created + index * 1000).toISOString();
    const lines = [
      JSON.stringify({ timestamp, type: 'session_meta', payload: { ...meta, id, session_id: id, timestamp } }),
      ...turnItems(index).slice(0, 3).map((item) => JSON.stringify({ timestamp, ...item })),
    ];
    await store.importRollout(await readImportedRollout(lines, `thread ${index}`));
  }
}

async function listTimes(store: ThreadStore): Promise<{ first: number[]; walk: number }> {
  const first: number[] = [];
  for (let run = 0; run < LIST_PAGES; run += 1) {
    const start = performance.now();
    await store.list({ limit: 50 });
    first.push(performance.now() - start);
  }
  const start = performance.now();
  let cursor: string | null = null;
  let seen = 0;
  do {
    const page = await store.list({ limit: 500, cursor });
    seen += page.data.length;
    cursor = page.nextCursor;
  } while (cursor !== null);
  if (seen < LIST_THREADS) throw new Error(`listed ${seen} threads, expected ${LIST_THREADS}`);
  return { first, walk: performance.now() - start };
}

async function measure(name: string, open: () => Promise<ThreadStore>): Promise<void> {
  console.log(`\n### ${name}`);
  let store = await open();
  const boundary = await boundaryLatency(store);
  console.log(`turn-boundary write (${BOUNDARY_TURNS} turns of ${turnItems(0).length} lines): p50 ${ms(percentile(boundary, 50))}, p99 ${ms(percentile(boundary, 99))}`);
  const large = await largeThread(store);
  const resumes = await resumeTimes(store, large);
  console.log(`resume of a ${LARGE_THREAD_TURNS * 10}-item thread: median ${ms(percentile(resumes, 50))} (of ${RESUMES})`);
  await manyThreads(store);
  await store.close();
  // A fresh store, as a host that just started lists what others wrote.
  store = await open();
  const list = await listTimes(store);
  console.log(`list over ${LIST_THREADS + 2} threads: first page of 50 p50 ${ms(percentile(list.first, 50))}, p99 ${ms(percentile(list.first, 99))}; all pages of 500 ${ms(list.walk)}`);
  await store.close();
}

const root = await mkdtemp(path.join(tmpdir(), 'skein-thread-store-bench-'));
try {
  await measure('files + SQLite index', () => FileThreadStore.open({ home: root, reconcileOnOpen: true }));
  const given = process.env['SKEIN_BENCH_DATABASE_URL'];
  if (given !== undefined) {
    await measure('PostgreSQL', () => PostgresThreadStore.open({ url: given }));
  } else if (process.env['SKEIN_TEST_DATABASE_URL'] !== undefined) {
    const database = await createTestDatabase();
    try {
      await measure('PostgreSQL (a scratch database on the test cluster)', () => PostgresThreadStore.open({ url: database.url }));
    } finally {
      await database.drop();
    }
  } else {
    console.log('\nPostgreSQL: skipped (set SKEIN_BENCH_DATABASE_URL, or SKEIN_TEST_DATABASE_URL for a scratch database)');
  }
} finally {
  await rm(root, { recursive: true, force: true });
}
