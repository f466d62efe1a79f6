// One app-server at scale (issue #43): 1,000 loaded threads — half started, half resumed from
// disk — held by 50 WebSocket clients, then turns on 100 of them two ways:
// - burst: all 100 at once against a model that answers at once. On one event loop they queue for
//   the CPU, so their times measure the server's CPU per turn (burst wall / 100), not waiting.
// - paced: waves of 100 turns, each wave started over ~1 s (independent users), against a model that
//   streams its answer over SKEIN_BENCH_MODEL_MS (default 1,000 ms); a turn's overhead is its wall
//   time minus the model's.
// Both are compared with a lone thread's turns of the same kind (goal: p99 ≤ 2× the lone median).
// Prints RSS and KiB per thread, the server's CPU while idle with every thread loaded, the event
// loop's p99/max delay (the server's `server/diagnostics`), the server's CPU time (Linux /proc), how
// busy the machine's CPUs were (/proc/stat), and how long `thread/list` and `thread/loaded/list` take.
// The mock model runs in a worker thread (scale-model-worker.ts), so the clients' work here does not slow it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { isMainThread } from 'node:worker_threads';
import { AppServerTestClient, mockProviderConfigToml } from '@skein/test-support';
import { pinBenchOffServerCpus } from './cpu-pinning.js';
import { machineTicks, processCpuMs, runQueueWaitMs } from './proc-stats.js';
import { LATENESS_RESOLUTION_MS, serveScaleModel, startScaleModel, type AnswerTime } from './scale-model-worker.js';

const THREADS = Number(process.env['SKEIN_BENCH_THREADS'] ?? 1000);
const CLIENTS = 50;
const CONCURRENT_TURNS = 100;
const LONE_TURNS = 30;
const LONE_PACED_TURNS = 20;
/** The fresh threads the lone paced turns take turns on (4 each, as many as a loaded thread runs in all). */
const LONE_PACED_THREADS = 5;
/**
 * Paced waves, one after another: 1,000 samples, so the p99 is the 10th slowest turn rather than the
 * 3rd of 300, which swung 1.3–4.6× from run to run. SKEIN_BENCH_PACED_WAVES sets another count.
 */
const PACED_WAVES = Number(process.env['SKEIN_BENCH_PACED_WAVES'] ?? 10);
if (!Number.isInteger(PACED_WAVES) || PACED_WAVES < 1) throw new Error(`SKEIN_BENCH_PACED_WAVES must be a whole number of waves, 1 or more (got ${process.env['SKEIN_BENCH_PACED_WAVES']})`);
/** How long the paced model takes over one answer, and over how long the paced turns start. */
const MODEL_MS = Number(process.env['SKEIN_BENCH_MODEL_MS'] ?? 1000);
const SPREAD_MS = 1000;
/** How long the loaded server is left idle to see what it does on its own. */
const IDLE_MS = 5000;
const TOKEN = 'skein-scale-bench-token';

if (isMainThread) await main();
else await serveScaleModel();

async function main(): Promise<void> {
  // SKEIN_BENCH_SERVER_CPUS=<list> (Linux, taskset): the measured server runs on those CPUs and this
  // process (clients and model) on the others, as if the load came from another machine.
  const SERVER_CPUS = process.env['SKEIN_BENCH_SERVER_CPUS'];
  if (SERVER_CPUS !== undefined) console.log(`server on CPUs ${SERVER_CPUS}; clients and model on ${pinBenchOffServerCpus(SERVER_CPUS)}`);
  const SERVER_BIN = path.join(path.dirname(fileURLToPath(import.meta.resolve('@skein/app-server'))), 'bin.js');
  const text = (value: string) => [{ type: 'text', text: value, text_elements: [] }];
  const mib = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const percentile = (samples: readonly number[], p: number) => {
    const sorted = [...samples].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
  };

  const model = await startScaleModel(new URL(import.meta.url));
  const root = await mkdtemp(path.join(tmpdir(), 'skein-scale-bench-'));
  const home = path.join(root, 'home');
  const workspace = path.join(root, 'workspace');
  await Promise.all([mkdir(home), mkdir(workspace)]);
  await writeFile(path.join(home, 'config.toml'), mockProviderConfigToml(model.url));
  await writeFile(path.join(root, 'token'), `${TOKEN}\n`);
  // SKEIN_BENCH_PROFILE=<dir> writes the measured server's CPU profile there (node --cpu-prof), and
  // phases.json: each phase's start and end on the monotonic clock the profile's timestamps use (µs).
  const PROFILE = process.env['SKEIN_BENCH_PROFILE'];
  const ENV = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: root, CODEX_HOME: home, TERM: 'xterm', ...(process.env['UV_THREADPOOL_SIZE'] === undefined ? {} : { UV_THREADPOOL_SIZE: process.env['UV_THREADPOOL_SIZE'] }) };
  // SKEIN_BENCH_SERVER_FLAGS: more node flags for the measured server (V8 heap settings, say), space-separated;
  // SKEIN_BENCH_SERVER_STDOUT=1 shows its stdout (what --trace-gc prints).
  const NODE_FLAGS = [...(PROFILE === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${PROFILE}`]), ...(process.env['SKEIN_BENCH_SERVER_FLAGS'] ?? '').split(' ').filter((flag) => flag !== '')];
  const phases: { name: string; startUs: number; endUs: number }[] = [];
  interface Overheads {
    /** Wall time less the model's own time, and its two parts: turn/start → the model has the request, the model's answer ended → turn/completed read. */
    readonly actual: number[];
    readonly toModel: number[];
    readonly fromModel: number[];
    /** Wall time less MODEL_MS. */
    readonly nominal: number[];
  }
  const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

  /** The built binary listening on a loopback WebSocket behind a capability token. */
  async function listeningServer(): Promise<{ readonly url: string; readonly child: ChildProcess }> {
    const argv = [process.execPath, ...NODE_FLAGS, SERVER_BIN, '--listen', 'ws://127.0.0.1:0', '--ws-auth', 'capability-token', '--ws-token-file', path.join(root, 'token')];
    const [command, ...args] = SERVER_CPUS === undefined ? argv : ['taskset', '--cpu-list', SERVER_CPUS, ...argv];
    const child = spawn(command!, args, { cwd: workspace, env: ENV, stdio: ['ignore', process.env['SKEIN_BENCH_SERVER_STDOUT'] === undefined ? 'ignore' : 'inherit', 'pipe'] });
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

  /** When a turn was sent and its turn/completed read, in ms since the epoch (as the model worker stamps its side). */
  interface TurnSpan {
    readonly sentAt: number;
    readonly completedAt: number;
  }
  const epochNow = () => performance.timeOrigin + performance.now();

  /** turn/start → turn/completed on `threadId`. */
  async function turnSpan(client: AppServerTestClient, threadId: string, label: string): Promise<TurnSpan> {
    const sentAt = epochNow();
    const { turn } = (await client.request('turn/start', { threadId, input: text(label) })) as { turn: { id: string } };
    const done = (await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === turn.id, 120_000)) as { turn: { status: string } };
    if (done.turn.status !== 'completed') throw new Error(`turn ${label} ended ${done.turn.status}`);
    return { sentAt, completedAt: epochNow() };
  }

  /** turn/start → turn/completed on `threadId`, in ms. */
  async function timedTurn(client: AppServerTestClient, threadId: string, label: string): Promise<number> {
    const span = await turnSpan(client, threadId, label);
    return span.completedAt - span.sentAt;
  }

  /** RSS and gauges; every call closes the server's event-loop window and opens the next. */
  async function diagnostics(client: AppServerTestClient): Promise<{ readonly rss: number; readonly loopP99: string; readonly loopMax: string; readonly threads: number }> {
    const answer = (await client.request('server/diagnostics', {})) as { process: { residentMemoryBytes: number }; gauges: { name: string; value: number }[] };
    const gauges = Object.fromEntries(answer.gauges.map((gauge) => [gauge.name, gauge.value]));
    return {
      rss: answer.process.residentMemoryBytes,
      loopP99: ms((gauges['app.event_loop.delay_p99_us'] ?? NaN) / 1000),
      loopMax: ms((gauges['app.event_loop.delay_max_us'] ?? NaN) / 1000),
      threads: gauges['app.threads.loaded'] ?? 0,
    };
  }

  /**
   * Each turn's overhead: its wall time less the model's own time for its request (the model
   * worker's stamps, late timers included), split into before the request reached the model and
   * after its answer ended; and its wall time less the nominal MODEL_MS.
   */
  function overheads(spans: ReadonlyMap<string, TurnSpan>, times: readonly AnswerTime[]): Overheads {
    const byLabel = new Map(times.map((time) => [time.label, time]));
    const result = { actual: [] as number[], toModel: [] as number[], fromModel: [] as number[], nominal: [] as number[] };
    for (const [label, span] of spans) {
      const time = byLabel.get(label);
      if (time === undefined) throw new Error(`the model worker has no answer time for ${label}`);
      result.toModel.push(time.receivedAt - span.sentAt);
      result.fromModel.push(span.completedAt - time.answeredAt);
      result.actual.push(span.completedAt - span.sentAt - (time.answeredAt - time.receivedAt));
      result.nominal.push(span.completedAt - span.sentAt - MODEL_MS);
    }
    return result;
  }

  /**
   * The model's answer times for these turns. The worker notes an answer's end just after its last
   * byte, so a turn's turn/completed can be read here first: ask again until every turn has one.
   */
  async function answerTimesOf(labels: Iterable<string>): Promise<AnswerTime[]> {
    const wanted = new Set(labels);
    const times: AnswerTime[] = [];
    for (let attempt = 0; attempt < 100; attempt++) {
      times.push(...(await model.answerTimes()));
      if ([...wanted].every((label) => times.some((time) => time.label === label))) return times;
      await sleep(10);
    }
    return times; // overheads() names what is missing
  }

  async function timed<T>(work: () => Promise<T>): Promise<{ readonly value: T; readonly ms: number }> {
    const started = performance.now();
    const value = await work();
    return { value, ms: performance.now() - started };
  }

  /** `work` timed, and noted in phases.json as `name`. */
  async function phase<T>(name: string, work: () => Promise<T>): Promise<{ readonly value: T; readonly ms: number }> {
    const startUs = monotonicUs();
    const result = await timed(work);
    phases.push({ name, startUs, endUs: monotonicUs() });
    return result;
  }

  const servers: ChildProcess[] = [];
  const clients: AppServerTestClient[] = [];
  try {
    // Threads on disk to resume: each started and given one turn by an earlier server, then let go.
    const stored = THREADS / 2;
    {
      await model.script(stored, 0);
      const server = await listeningServer();
      servers.push(server.child);
      const writers = await Promise.all(Array.from({ length: 10 }, () => connect(server.url)));
      const made = await phase('prepare', () => Promise.all(writers.map(async (client, index) => {
        for (let n = index; n < stored; n += writers.length) await timedTurn(client, await startThread(client), `stored ${n}`);
      })));
      console.log(`prepared ${stored} stored threads with one turn each in ${(made.ms / 1000).toFixed(1)} s`);
      for (const client of writers) await client.close();
      server.child.kill('SIGTERM');
      await new Promise((resolve) => server.child.once('exit', resolve));
    }
    const server = await listeningServer();
    servers.push(server.child);
    const storedIds: string[] = [];
    {
      const lister = await connect(server.url);
      let cursor: string | null = null;
      do {
        const page = (await lister.request('thread/list', { limit: 100, ...(cursor === null ? {} : { cursor }) })) as { data: { id: string }[]; nextCursor: string | null };
        storedIds.push(...page.data.map((thread) => thread.id));
        cursor = page.nextCursor;
      } while (cursor !== null);
      await lister.close();
    }
    clients.push(...(await Promise.all(Array.from({ length: CLIENTS }, () => connect(server.url)))));
    const [first] = clients as [AppServerTestClient];
    const idle = await diagnostics(first);

    // A lone thread's turns: the baseline every figure under load is compared with.
    const lone = await startThread(first);
    await model.script(1 + LONE_TURNS, 0);
    await timedTurn(first, lone, 'warm-up');
    const loneTurns: number[] = [];
    const loneCpuBefore = processCpuMs(server.child.pid);
    await phase('lone', async () => {
      for (let n = 0; n < LONE_TURNS; n++) loneTurns.push(await timedTurn(first, lone, `lone ${n}`));
    });
    const loneCpu = (processCpuMs(server.child.pid) - loneCpuBefore) / LONE_TURNS;
    const loneMedian = percentile(loneTurns, 50);
    // Paced turns alone, one at a time, on threads as young as the loaded ones (one turn before, as
    // the burst gives them, then a few): a longer history would make each lone turn dearer than theirs.
    const lonePaced = await Promise.all(Array.from({ length: LONE_PACED_THREADS }, () => startThread(first)));
    await model.script(LONE_PACED_THREADS, 0);
    for (const [n, threadId] of lonePaced.entries()) await timedTurn(first, threadId, `lone paced warm-up ${n}`);
    await model.script(LONE_PACED_TURNS, MODEL_MS);
    await model.answerTimes(); // forgets the turns before
    const loneSpans = new Map<string, TurnSpan>();
    const lonePacedCpuBefore = processCpuMs(server.child.pid);
    const lonePacedWaitBefore = runQueueWaitMs(server.child.pid);
    await phase('lone paced', async () => {
      for (let n = 0; n < LONE_PACED_TURNS; n++) loneSpans.set(`lone paced ${n}`, await turnSpan(first, lonePaced[n % LONE_PACED_THREADS]!, `lone paced ${n}`));
    });
    const lonePacedCpu = (processCpuMs(server.child.pid) - lonePacedCpuBefore) / LONE_PACED_TURNS;
    const lonePacedWait = (runQueueWaitMs(server.child.pid) - lonePacedWaitBefore) / LONE_PACED_TURNS;
    const loneOverheads = overheads(loneSpans, await answerTimesOf(loneSpans.keys()));
    const loneOverheadMedian = percentile(loneOverheads.actual, 50);
    const loneNominalMedian = percentile(loneOverheads.nominal, 50);

    // Load: each client starts its share of new threads and resumes its share of stored ones.
    const starts: number[] = [];
    const resumes: number[] = [];
    const threadsOf: string[][] = clients.map(() => []);
    const loading = await phase('load', () => Promise.all(clients.map(async (client, index) => {
      for (let n = index; n < THREADS - stored; n += CLIENTS) {
        const { value, ms: took } = await timed(() => startThread(client));
        starts.push(took);
        threadsOf[index]!.push(value);
      }
      for (let n = index; n < storedIds.length; n += CLIENTS) {
        const threadId = storedIds[n]!;
        const { ms: took } = await timed(() => client.request('thread/resume', { threadId, excludeTurns: true }));
        resumes.push(took);
        threadsOf[index]!.push(threadId);
      }
    })));
    const loaded = await diagnostics(first);
    // Idle with every thread loaded: a per-thread timer, watcher or poll would show here as CPU.
    const idleCpuBefore = processCpuMs(server.child.pid);
    await sleep(IDLE_MS);
    const idleCpu = (processCpuMs(server.child.pid) - idleCpuBefore) / (IDLE_MS / 1000);
    // Two threads per client, one started and one resumed; the paced turns are their second.
    const loadThreads = clients.flatMap((client, index) => [threadsOf[index]![0]!, threadsOf[index]!.at(-1)!].slice(0, CONCURRENT_TURNS / CLIENTS).map((threadId) => ({ client, threadId })));

    // Burst: 100 turns at once.
    await model.script(CONCURRENT_TURNS, 0);
    await diagnostics(first); // opens a fresh event-loop window
    const burstCpuBefore = processCpuMs(server.child.pid);
    const burst = await phase('burst', () => Promise.all(loadThreads.map(({ client, threadId }, n) => timedTurn(client, threadId, `burst ${n}`))));
    const burstCpu = processCpuMs(server.child.pid) - burstCpuBefore;
    const afterBurst = await diagnostics(first);

    // Paced: waves of 100 turns, each started evenly over SPREAD_MS, against a model that takes MODEL_MS.
    await model.script(PACED_WAVES * CONCURRENT_TURNS, MODEL_MS);
    await diagnostics(first);
    // This process's own lateness: when it is high, the clients, not the server, held the turns up.
    const benchLoop = monitorEventLoopDelay({ resolution: LATENESS_RESOLUTION_MS });
    const benchCpuBefore = process.cpuUsage();
    benchLoop.enable();
    await model.lateness(); // opens the model's window
    const pacedCpuBefore = processCpuMs(server.child.pid);
    const pacedWaitBefore = runQueueWaitMs(server.child.pid);
    const machineBefore = machineTicks();
    await model.answerTimes(); // forgets the burst
    const pacedSpans = new Map<string, TurnSpan>();
    await phase('paced', async () => {
      for (let wave = 0; wave < PACED_WAVES; wave++) {
        await Promise.all(loadThreads.map(async ({ client, threadId }, n) => {
          await sleep((n * SPREAD_MS) / loadThreads.length);
          const label = `paced ${wave}.${n}`;
          pacedSpans.set(label, await turnSpan(client, threadId, label));
        }));
      }
    });
    const pacedOverheads = overheads(pacedSpans, await answerTimesOf(pacedSpans.keys()));
    const pacedCpu = (processCpuMs(server.child.pid) - pacedCpuBefore) / PACED_WAVES;
    const pacedWait = (runQueueWaitMs(server.child.pid) - pacedWaitBefore) / (PACED_WAVES * CONCURRENT_TURNS);
    const machineAfter = machineTicks();
    benchLoop.disable();
    const benchCpu = process.cpuUsage(benchCpuBefore);
    const modelLateness = await model.lateness();
    const afterPaced = await diagnostics(first);

    const list = await phase('list', () => first.request('thread/list', { limit: 50 }));
    const loadedList = await phase('loaded list', () => first.request('thread/loaded/list', { limit: THREADS + 10 }));

    const burstP50 = percentile(burst.value, 50);
    const burstP99 = percentile(burst.value, 99);
    const overheadP50 = percentile(pacedOverheads.actual, 50);
    const overheadP99 = percentile(pacedOverheads.actual, 99);
    const nominalP99 = percentile(pacedOverheads.nominal, 99);
    const goal = (ratio: number) => `${ratio.toFixed(1)}× (goal ≤ 2×: ${ratio <= 2 ? 'met' : 'not met'})`;
    const cpu = (total: number) => (Number.isNaN(total) ? 'n/a' : `${ms(total)}, ${ms(total / CONCURRENT_TURNS)} a turn`);
    console.log(`server: built skein-app-server over a loopback WebSocket; ${CLIENTS} clients (each message schema-checked client-side); the mock model in a worker thread`);
    console.log(`loaded ${loaded.threads} threads (${THREADS - stored} started: p50 ${ms(percentile(starts, 50))}, p99 ${ms(percentile(starts, 99))}; ${stored} resumed: p50 ${ms(percentile(resumes, 50))}, p99 ${ms(percentile(resumes, 99))}) in ${(loading.ms / 1000).toFixed(1)} s`);
    console.log(`RSS: ${mib(idle.rss)} with ${CLIENTS} clients and no thread; ${mib(loaded.rss)} with ${loaded.threads} threads: ${((loaded.rss - idle.rss) / Math.max(1, loaded.threads) / 1024).toFixed(0)} KiB per thread; ${mib(afterPaced.rss)} after the turns`);
    console.log(`idle with ${loaded.threads} threads loaded: server CPU ${Number.isNaN(idleCpu) ? 'n/a' : `${ms(idleCpu)} a second`} (Linux /proc, 10 ms ticks, over ${IDLE_MS / 1000} s)`);
    console.log(`lone thread, model answers at once (${LONE_TURNS} turns): p50 ${ms(loneMedian)}, p99 ${ms(percentile(loneTurns, 99))}; server CPU ${Number.isNaN(loneCpu) ? 'n/a' : ms(loneCpu)} a turn`);
    console.log(`burst, ${burst.value.length} turns at once: p50 ${ms(burstP50)}, p99 ${ms(burstP99)}; p99 / lone median = ${goal(burstP99 / loneMedian)}`);
    console.log(`  all done in ${ms(burst.ms)}: ${ms(burst.ms / CONCURRENT_TURNS)} of server time a turn (wall / ${CONCURRENT_TURNS}); server CPU ${cpu(burstCpu)}; event loop p99 ${afterBurst.loopP99}, max ${afterBurst.loopMax}`);
    console.log(`lone turns, model takes ${MODEL_MS} ms (${LONE_PACED_TURNS} turns one at a time over ${LONE_PACED_THREADS} young threads): overhead (turn − the model's time for it) p50 ${ms(loneOverheadMedian)}, p99 ${ms(percentile(loneOverheads.actual, 99))}; server CPU ${Number.isNaN(lonePacedCpu) ? 'n/a' : ms(lonePacedCpu)} a turn`);
    console.log(`paced, ${PACED_WAVES} waves of ${CONCURRENT_TURNS} turns each started over ${SPREAD_MS} ms, model takes ${MODEL_MS} ms: overhead p50 ${ms(overheadP50)}, p99 ${ms(overheadP99)}; p99 / lone overhead median = ${goal(overheadP99 / loneOverheadMedian)}`);
    const parts = (o: Overheads) => `before the model p50 ${ms(percentile(o.toModel, 50))} / p99 ${ms(percentile(o.toModel, 99))}, after it p50 ${ms(percentile(o.fromModel, 50))} / p99 ${ms(percentile(o.fromModel, 99))}`;
    console.log(`  where: lone ${parts(loneOverheads)}; paced ${parts(pacedOverheads)}`);
    if (machineBefore !== undefined && machineAfter !== undefined) {
      const share = (part: number) => `${((100 * part) / (machineAfter.total - machineBefore.total)).toFixed(0)}%`;
      console.log(`  the machine's ${availableParallelism()} CPUs (Linux /proc/stat) during the paced turns: busy ${share(machineAfter.busy - machineBefore.busy)}, stolen by the hypervisor ${share(machineAfter.steal - machineBefore.steal)}`);
    }
    if (!Number.isNaN(pacedWait)) console.log(`  the server's event loop, ready but waiting for a CPU (Linux schedstat): lone ${ms(lonePacedWait)} a turn, paced ${ms(pacedWait)} a turn`);
    console.log(`  against the nominal ${MODEL_MS} ms (the model's late timers counted as overhead): lone p50 ${ms(loneNominalMedian)}, paced p99 ${ms(nominalP99)} (${(nominalP99 / loneNominalMedian).toFixed(1)}×)`);
    console.log(`  server CPU a wave ${cpu(pacedCpu)}; event loop p99 ${afterPaced.loopP99}, max ${afterPaced.loopMax}; the bench's own event loop p99 ${ms(Math.max(0, benchLoop.percentile(99) / 1e6 - LATENESS_RESOLUTION_MS))}, max ${ms(Math.max(0, benchLoop.max / 1e6 - LATENESS_RESOLUTION_MS))} and CPU (clients and model) ${ms((benchCpu.user + benchCpu.system) / 1000 / PACED_WAVES)} a wave; the model's timers late by p99 ${ms(modelLateness.p99Ms)}, max ${ms(modelLateness.maxMs)}`);
    console.log(`thread/list (limit 50) ${ms(list.ms)}; thread/loaded/list (${loaded.threads}) ${ms(loadedList.ms)}`);
    console.log(`goal: RSS < 1 GiB: ${afterPaced.rss < 1024 ** 3 ? 'met' : 'not met'}`);
    if (PROFILE !== undefined) await writeFile(path.join(PROFILE, 'phases.json'), `${JSON.stringify({ serverPid: server.child.pid, phases }, null, 2)}\n`);
  } finally {
    for (const client of clients) await client.close().catch(() => undefined);
    for (const server of servers) if (server.exitCode === null) server.kill('SIGTERM');
    await model.close().catch(() => undefined);
    await rm(root, { recursive: true, force: true });
  }
}
