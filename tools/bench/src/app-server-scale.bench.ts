// One app-server at scale (issue #43): 1,000 loaded threads — half started, half resumed from
// disk — held by 50 WebSocket clients, then turns on 100 of them at once against the mock model.
// Prints RSS, the event loop's p99 delay (the server's own `server/diagnostics` gauge), turn time
// p50/p99 against a lone thread's median, and how long `thread/list` and `thread/loaded/list` take.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { AppServerTestClient, assistantMessage, completed, mockProviderConfigToml, sse, startMockResponsesServer } from '@skein/test-support';

const THREADS = Number(process.env['SKEIN_BENCH_THREADS'] ?? 1000);
const CLIENTS = 50;
const CONCURRENT_TURNS = 100;
const LONE_TURNS = 30;
const TOKEN = 'skein-scale-bench-token';

const SERVER_BIN = path.join(path.dirname(fileURLToPath(import.meta.resolve('@skein/app-server'))), 'bin.js');
const text = (value: string) => [{ type: 'text', text: value, text_elements: [] }];
const mib = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
const percentile = (samples: readonly number[], p: number) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

const model = await startMockResponsesServer();
// Every request answers at once with one message; the scale run sends thousands.
model.expect(Array.from({ length: THREADS / 2 + LONE_TURNS + CONCURRENT_TURNS + 50 }, () => sse(assistantMessage('Done.'), completed())));
const root = await mkdtemp(path.join(tmpdir(), 'skein-scale-bench-'));
const home = path.join(root, 'home');
const workspace = path.join(root, 'workspace');
await Promise.all([mkdir(home), mkdir(workspace)]);
await writeFile(path.join(home, 'config.toml'), mockProviderConfigToml(model.url));
await writeFile(path.join(root, 'token'), `${TOKEN}\n`);
// SKEIN_BENCH_PROFILE=<dir> writes the measured server's CPU profile there (node --cpu-prof).
const PROFILE = process.env['SKEIN_BENCH_PROFILE'];
const ENV = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: root, CODEX_HOME: home, TERM: 'xterm' };
const NODE_FLAGS = PROFILE === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${PROFILE}`];

/** The built binary listening on a loopback WebSocket behind a capability token. */
async function listeningServer(): Promise<{ readonly url: string; readonly child: ChildProcess }> {
  const child = spawn(process.execPath, [...NODE_FLAGS, SERVER_BIN, '--listen', 'ws://127.0.0.1:0', '--ws-auth', 'capability-token', '--ws-token-file', path.join(root, 'token')], { cwd: workspace, env: ENV, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr += chunk;
      const match = /listening on: (ws:\/\/\S+)/.exec(stderr);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`app-server exited with ${code}:\n${stderr}`)));
  });
  return { url, child };
}

async function connect(url: string): Promise<AppServerTestClient> {
  const client = await AppServerTestClient.connectWebSocket(url, { token: TOKEN, timeoutMs: 120_000 });
  await client.initialize({ clientInfo: { name: 'skein_scale_bench', title: null, version: '0.0.0' } });
  return client;
}

async function startThread(client: AppServerTestClient): Promise<string> {
  const { thread } = (await client.request('thread/start', { cwd: workspace, approvalPolicy: 'never', sandbox: 'read-only' })) as { thread: { id: string } };
  return thread.id;
}

/** turn/start → turn/completed on `threadId`, in ms. */
async function timedTurn(client: AppServerTestClient, threadId: string, label: string): Promise<number> {
  const started = performance.now();
  const { turn } = (await client.request('turn/start', { threadId, input: text(label) })) as { turn: { id: string } };
  const done = (await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === turn.id, 120_000)) as { turn: { status: string } };
  if (done.turn.status !== 'completed') throw new Error(`turn ${label} ended ${done.turn.status}`);
  return performance.now() - started;
}

async function diagnostics(client: AppServerTestClient): Promise<{ readonly rss: number; readonly gauges: Record<string, number> }> {
  const answer = (await client.request('server/diagnostics', {})) as { process: { residentMemoryBytes: number }; gauges: { name: string; value: number }[] };
  return { rss: answer.process.residentMemoryBytes, gauges: Object.fromEntries(answer.gauges.map((gauge) => [gauge.name, gauge.value])) };
}

async function timed<T>(work: () => Promise<T>): Promise<{ readonly value: T; readonly ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

const servers: ChildProcess[] = [];
const clients: AppServerTestClient[] = [];
try {
  // Threads on disk to resume: each started and given one turn by an earlier server, then let go.
  const stored = THREADS / 2;
  {
    const server = await listeningServer();
    servers.push(server.child);
    const writers = await Promise.all(Array.from({ length: 10 }, () => connect(server.url)));
    const made = await timed(() => Promise.all(writers.map(async (client, index) => {
      for (let n = index; n < stored; n += writers.length) await timedTurn(client, await startThread(client), `stored ${n}`);
    })));
    console.log(`prepared ${stored} stored threads with one turn each in ${(made.ms / 1000).toFixed(1)} s`);
    for (const client of writers) await client.close();
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
  }
  const storedIds = ((await (async () => {
    const server = await listeningServer();
    servers.push(server.child);
    const lister = await connect(server.url);
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page = (await lister.request('thread/list', { limit: 100, ...(cursor === null ? {} : { cursor }) })) as { data: { id: string }[]; nextCursor: string | null };
      ids.push(...page.data.map((thread) => thread.id));
      cursor = page.nextCursor;
    } while (cursor !== null);
    await lister.close();
    return { ids, server };
  })()));
  const { url } = storedIds.server;
  clients.push(...(await Promise.all(Array.from({ length: CLIENTS }, () => connect(url)))));
  const [first] = clients as [AppServerTestClient];
  const idle = await diagnostics(first);

  // A lone thread's turns: the baseline every figure under load is compared with.
  const lone = await startThread(first);
  await timedTurn(first, lone, 'warm-up');
  const loneTurns: number[] = [];
  for (let n = 0; n < LONE_TURNS; n++) loneTurns.push(await timedTurn(first, lone, `lone ${n}`));
  const loneMedian = percentile(loneTurns, 50);

  // Load: each client starts its share of new threads and resumes its share of stored ones.
  const starts: number[] = [];
  const resumes: number[] = [];
  const threadsOf: string[][] = clients.map(() => []);
  const loading = await timed(() => Promise.all(clients.map(async (client, index) => {
    for (let n = index; n < THREADS - stored; n += CLIENTS) {
      const { value, ms: took } = await timed(() => startThread(client));
      starts.push(took);
      threadsOf[index]!.push(value);
    }
    for (let n = index; n < storedIds.ids.length; n += CLIENTS) {
      const threadId = storedIds.ids[n]!;
      const { ms: took } = await timed(() => client.request('thread/resume', { threadId, excludeTurns: true }));
      resumes.push(took);
      threadsOf[index]!.push(threadId);
    }
  })));
  const loaded = await diagnostics(first);
  const loadedCount = loaded.gauges['app.threads.loaded'] ?? 0;

  // 100 turns at once, two threads per client, one started and one resumed.
  await diagnostics(first); // opens a fresh event-loop window
  const concurrent = await timed(() => Promise.all(clients.flatMap((client, index) => [threadsOf[index]![0]!, threadsOf[index]!.at(-1)!].slice(0, CONCURRENT_TURNS / CLIENTS).map((threadId) => timedTurn(client, threadId, `load ${index}`)))));
  const underLoad = await diagnostics(first);

  const list = await timed(() => first.request('thread/list', { limit: 50 }));
  const loadedList = await timed(() => first.request('thread/loaded/list', { limit: THREADS + 10 }));

  const p50 = percentile(concurrent.value, 50);
  const p99 = percentile(concurrent.value, 99);
  console.log(`server: built skein-app-server over a loopback WebSocket; ${CLIENTS} clients (each message schema-checked client-side); mock model answers at once`);
  console.log(`loaded ${loadedCount} threads (${THREADS - stored} started: p50 ${ms(percentile(starts, 50))}, p99 ${ms(percentile(starts, 99))}; ${stored} resumed: p50 ${ms(percentile(resumes, 50))}, p99 ${ms(percentile(resumes, 99))}) in ${(loading.ms / 1000).toFixed(1)} s`);
  console.log(`RSS: ${mib(idle.rss)} with ${CLIENTS} clients and no thread; ${mib(loaded.rss)} with ${loadedCount} threads: ${((loaded.rss - idle.rss) / Math.max(1, loadedCount) / 1024).toFixed(0)} KiB per thread; ${mib(underLoad.rss)} after the concurrent turns`);
  console.log(`lone thread turn (${LONE_TURNS}): p50 ${ms(loneMedian)}, p99 ${ms(percentile(loneTurns, 99))}`);
  console.log(`${concurrent.value.length} turns at once: p50 ${ms(p50)}, p99 ${ms(p99)} (p99 / lone median = ${(p99 / loneMedian).toFixed(1)}×; all done in ${ms(concurrent.ms)})`);
  console.log(`event loop during the concurrent turns: p99 delay ${ms((underLoad.gauges['app.event_loop.delay_p99_us'] ?? NaN) / 1000)}, max ${ms((underLoad.gauges['app.event_loop.delay_max_us'] ?? NaN) / 1000)}`);
  console.log(`thread/list (limit 50) ${ms(list.ms)}; thread/loaded/list (${loadedCount}) ${ms(loadedList.ms)}`);
  console.log(`goal: p99 turn ≤ 2× lone median: ${p99 <= 2 * loneMedian ? 'met' : 'not met'}; RSS < 1 GiB: ${underLoad.rss < 1024 ** 3 ? 'met' : 'not met'}`);
} finally {
  for (const client of clients) await client.close().catch(() => undefined);
  for (const server of servers) if (server.exitCode === null) server.kill('SIGTERM');
  await model.close().catch(() => undefined);
  await rm(root, { recursive: true, force: true });
}
