// Rollout costs: reconstructing a 20 000-item, 2 000-turn thread (time and peak heap), the tail
// reader on it, the writer's lines/s with and without fsync, and thread listing over 10 000 threads.
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { FileThreadStore, loadThread, readRolloutFile, readRolloutTail, RolloutWriter, liveRolloutPath, serializeRolloutLine, type Durability, type RolloutItem } from '@skein/rollout';
import { ITEMS_PER_TURN, LARGE_THREAD_TURNS, buildLargeThread, turnItems } from './large-thread.js';

const TURNS = LARGE_THREAD_TURNS;
const RECONSTRUCT_RUNS = 8;
const WRITER_LINES = 5_000;
const LIST_THREADS = 10_000;
const LIST_QUERIES = 300;

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const root = await mkdtemp(path.join(tmpdir(), 'skein-rollout-bench-'));
const ms = (value: number) => `${value.toFixed(1)} ms`;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ?? 0;

async function measureHeap<T>(work: () => Promise<T>): Promise<{ result: T; ms: number; peakHeap: number }> {
  gc();
  const baseline = process.memoryUsage().heapUsed;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 2);
  const start = performance.now();
  const result = await work();
  const elapsed = performance.now() - start;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  return { result, ms: elapsed, peakHeap: peak - baseline };
}

async function reconstructBench(): Promise<void> {
  const home = path.join(root, 'large');
  const file = await buildLargeThread(home);
  const { size } = await stat(file);
  const times: number[] = [];
  let items = 0;
  for (let run = 0; run < RECONSTRUCT_RUNS; run += 1) {
    gc();
    const start = performance.now();
    const thread = await loadThread(file);
    times.push(performance.now() - start);
    items = thread.history.length;
    if (thread.turns.length !== TURNS) throw new Error(`expected ${TURNS} turns, got ${thread.turns.length}`);
  }
  // Heap is sampled in its own runs: the sampler's timer would otherwise slow the timed ones.
  const heaps: number[] = [];
  for (let run = 0; run < 3; run += 1) heaps.push((await measureHeap(() => loadThread(file))).peakHeap);
  const full = await measureHeap(() => readRolloutFile(file));
  const rss = process.resourceUsage().maxRSS * 1024;
  const tailTimes: number[] = [];
  let scanned = 0;
  for (let run = 0; run < 20; run += 1) {
    const start = performance.now();
    scanned = (await readRolloutTail(file)).bytesScanned;
    tailTimes.push(performance.now() - start);
  }
  console.log(`reconstruct (loadThread): ${TURNS} turns, ${items} history items, ${full.result.lines.length} lines, ${mib(size)} file`);
  console.log(`  time: first run in the process ${ms(times[0] ?? 0)}; then median ${ms(median(times.slice(1)))}, min ${ms(Math.min(...times.slice(1)))} over ${RECONSTRUCT_RUNS - 1} runs`);
  console.log(`  peak heap above baseline: median ${mib(median(heaps))} (the whole file read into memory by readRolloutFile: ${mib(full.peakHeap)}, ${ms(full.ms)}); process max RSS so far ${mib(rss)}`);
  console.log(`tail reader (latest turn context + header): median ${ms(median(tailTimes))}, ${(scanned / 1024).toFixed(0)} KiB scanned of ${mib(size)}`);
}

async function writerBench(): Promise<void> {
  const line = (index: number): RolloutItem => ({ type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: `line ${index} ${'x'.repeat(200)}` }] } });
  const complete = (index: number): RolloutItem => ({ type: 'event_msg', payload: { type: 'task_complete', turn_id: `t${index}` } });
  console.log(`writer: ${WRITER_LINES} lines of ~300 bytes, one append awaited per line`);
  const cases: [string, Durability, number][] = [
    ['no fsync (durability none)', 'none', 0],
    ['fsync per turn of 10 lines (durability turn, default)', 'turn', 10],
    ['fsync every line (durability always)', 'always', 0],
  ];
  for (const [label, durability, turnEvery] of cases) {
    const home = path.join(root, `writer-${durability}`);
    const writer = await RolloutWriter.create({ home, durability, meta: { cwd: '/workspace' } });
    const start = performance.now();
    for (let index = 0; index < WRITER_LINES; index += 1) {
      await writer.append(turnEvery > 0 && index % turnEvery === turnEvery - 1 ? complete(index) : line(index));
    }
    await writer.close();
    const elapsed = performance.now() - start;
    console.log(`  ${label}: ${Math.round(WRITER_LINES / (elapsed / 1000)).toLocaleString('en-US')} lines/s (${(elapsed / WRITER_LINES * 1000).toFixed(0)} µs/line)`);
  }
  const home = path.join(root, 'writer-batch');
  const writer = await RolloutWriter.create({ home, durability: 'turn', meta: { cwd: '/workspace' } });
  const start = performance.now();
  for (let turn = 0; turn < 500; turn += 1) await writer.append(...turnItems(turn));
  await writer.close();
  const elapsed = performance.now() - start;
  const lines = 500 * (ITEMS_PER_TURN + 5);
  console.log(`  whole turns appended at once, fsync per turn: ${Math.round(lines / (elapsed / 1000)).toLocaleString('en-US')} lines/s, ${(elapsed / 500).toFixed(2)} ms per turn`);
}

async function listBench(): Promise<void> {
  const home = path.join(root, 'many');
  const created = Date.parse('2026-01-01T00:00:00.000Z');
  for (let n = 0; n < LIST_THREADS; n += 1) {
    const id = `01900000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;
    const at = new Date(created + n * 60_000);
    const file = liveRolloutPath(home, id, at);
    await mkdir(path.dirname(file), { recursive: true });
    const header = serializeRolloutLine({ timestamp: at.toISOString(), ordinal: 0 }, { type: 'session_meta', payload: { session_id: id, id, timestamp: at.toISOString(), cwd: `/repo-${n % 20}`, source: n % 3 === 0 ? 'vscode' : 'exec', model_provider: 'mock' } });
    const user = serializeRolloutLine({ timestamp: at.toISOString(), ordinal: 1 }, { type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: `task ${n}` }] } });
    await writeFile(file, `${header}\n${user}\n`);
  }
  let start = performance.now();
  const store = await FileThreadStore.open({ home });
  const firstOpen = performance.now() - start;
  store.close();
  start = performance.now();
  const reopened = await FileThreadStore.open({ home });
  const reopen = performance.now() - start;
  const first: number[] = [];
  const deep: number[] = [];
  const filtered: number[] = [];
  let cursor: string | null = null;
  for (let query = 0; query < LIST_QUERIES; query += 1) {
    let begin = performance.now();
    const page = await reopened.list({ limit: 25 });
    first.push(performance.now() - begin);
    begin = performance.now();
    const next = await reopened.list({ limit: 25, cursor: cursor ?? page.nextCursor });
    deep.push(performance.now() - begin);
    cursor = next.nextCursor;
    begin = performance.now();
    await reopened.list({ limit: 25, cwd: `/repo-${query % 20}`, source: 'vscode' });
    filtered.push(performance.now() - begin);
  }
  reopened.close();
  console.log(`thread index over ${LIST_THREADS.toLocaleString('en-US')} threads`);
  console.log(`  first open (index built from the files): ${ms(firstOpen)}; reopen (reconcile, nothing changed): ${ms(reopen)}`);
  console.log(`  list first page of 25: p50 ${ms(percentile(first, 50))}, p99 ${ms(percentile(first, 99))}`);
  console.log(`  list next page by cursor, walking down: p50 ${ms(percentile(deep, 50))}, p99 ${ms(percentile(deep, 99))}`);
  console.log(`  list filtered by cwd and source: p50 ${ms(percentile(filtered, 50))}, p99 ${ms(percentile(filtered, 99))}`);
}

try {
  await reconstructBench();
  await writerBench();
  await listBench();
} finally {
  await rm(root, { recursive: true, force: true });
}
