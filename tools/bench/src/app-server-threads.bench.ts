// App-server threads: `thread/start` latency, a one-message turn (turn/start → turn/completed), and
// the server's RSS around 50 started threads — the built `skein-app-server` binary over stdio.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { AppServerTestClient, assistantMessage, completed, mockProviderConfigToml, sse, startMockResponsesServer } from '@skein/test-support';

/** Timed `thread/start`s, after the warm-up ones. */
const THREAD_STARTS = 100;
/** Timed one-message turns, each on a thread of its own, after the warm-up ones. */
const TURNS = 100;
const WARMUP = 10;
/** Threads started for the memory figure. */
const MEMORY_THREADS = 50;
/** Kernel accounting settles a moment after a burst of allocations; RSS is read after this pause. */
const SETTLE_MS = 500;

const SERVER_BIN = path.join(path.dirname(fileURLToPath(import.meta.resolve('@skein/app-server'))), 'bin.js');
const text = (value: string) => [{ type: 'text', text: value, text_elements: [] }];
const ms = (value: number) => `${value.toFixed(2)} ms`;
const mib = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const summary = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return `p50 ${ms(percentile(sorted, 50))}, p90 ${ms(percentile(sorted, 90))}, min ${ms(sorted[0] ?? 0)}, max ${ms(sorted.at(-1) ?? 0)}`;
};

const model = await startMockResponsesServer();
const root = await mkdtemp(path.join(tmpdir(), 'skein-app-server-threads-bench-'));
const home = path.join(root, 'home');
const workspace = path.join(root, 'workspace');
await Promise.all([mkdir(home), mkdir(workspace)]);
await writeFile(
  path.join(home, 'config.toml'),
  mockProviderConfigToml(model.url),
);
const ENV = { PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin', HOME: root, CODEX_HOME: home, TERM: 'xterm' };

/** A fresh server process with an initialized client. */
async function spawnServer(): Promise<ReturnType<typeof AppServerTestClient.spawn>> {
  const client = AppServerTestClient.spawn(process.execPath, [SERVER_BIN], { cwd: workspace, env: ENV, timeoutMs: 60_000 });
  await client.initialize({ clientInfo: { name: 'skein_bench', title: null, version: '0.0.0' } });
  return client;
}

/** Resident set size of a process, from /proc (Linux). */
async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (kib === undefined) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(kib) * 1024;
}

async function startThread(client: AppServerTestClient): Promise<string> {
  const result = (await client.request('thread/start', { cwd: workspace, approvalPolicy: 'never', sandbox: 'read-only' })) as { thread: { id: string } };
  return result.thread.id;
}

async function timedThreadStart(client: AppServerTestClient): Promise<number> {
  const start = performance.now();
  await startThread(client);
  return performance.now() - start;
}

/** turn/start on a fresh thread (started outside the timing) → its turn/completed. */
async function timedTurn(client: AppServerTestClient, index: number): Promise<number> {
  const threadId = await startThread(client);
  const start = performance.now();
  const { turn } = (await client.request('turn/start', { threadId, input: text(`Say hello (${index}).`) })) as { turn: { id: string } };
  const done = (await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === turn.id)) as { turn: { status: string } };
  const elapsed = performance.now() - start;
  if (done.turn.status !== 'completed') throw new Error(`turn ${index} ended ${done.turn.status}`);
  return elapsed;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

try {
  // Latency: one server for thread/start and the turns.
  const timing = await spawnServer();
  const starts: number[] = [];
  for (let run = 0; run < WARMUP + THREAD_STARTS; run++) {
    const elapsed = await timedThreadStart(timing);
    if (run >= WARMUP) starts.push(elapsed);
  }
  model.expect(Array.from({ length: WARMUP + TURNS }, () => sse(assistantMessage('Hello.'), completed())));
  const turns: number[] = [];
  for (let run = 0; run < WARMUP + TURNS; run++) {
    const elapsed = await timedTurn(timing, run);
    if (run >= WARMUP) turns.push(elapsed);
  }
  await timing.close();

  // Memory: a fresh server, so the latency runs' threads do not count.
  const memory = await spawnServer();
  const pid = memory.process.pid ?? 0;
  await settle();
  const initialized = await rssOf(pid);
  // The first thread loads code paths (rollout store, SQLite index, environment) every later one shares.
  await startThread(memory);
  await settle();
  const before = await rssOf(pid);
  for (let index = 0; index < MEMORY_THREADS; index++) await startThread(memory);
  await settle();
  const after = await rssOf(pid);
  const loaded = (await memory.request('thread/loaded/list', { limit: MEMORY_THREADS + 10 })) as { data: string[] };
  await memory.close();
  model.verify();

  console.log(`server: built skein-app-server binary over stdio, one client (AppServerTestClient, every message schema-checked); mock model answers at once`);
  console.log(`thread/start (${THREAD_STARTS} after ${WARMUP} warm-up, threads stay loaded): ${summary(starts)}`);
  // Whether starting gets slower as loaded threads pile up.
  console.log(`  first 20: ${summary(starts.slice(0, 20))}; last 20: ${summary(starts.slice(-20))}`);
  console.log(`one-message turn, turn/start → turn/completed (${TURNS} after ${WARMUP} warm-up, each a thread's first turn): ${summary(turns)}`);
  console.log(`RSS after initialize: ${mib(initialized)}`);
  console.log(`RSS after 1 warm-up thread: ${mib(before)}`);
  console.log(`RSS after ${MEMORY_THREADS} more threads (${loaded.data.length} loaded): ${mib(after)}; +${mib(after - before)}, ${((after - before) / MEMORY_THREADS / 1024).toFixed(0)} KiB per thread`);
} finally {
  await model.close();
  await rm(root, { recursive: true, force: true });
}
