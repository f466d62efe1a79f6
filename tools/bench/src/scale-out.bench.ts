// Scale-out: one app-server driving threads on N exec-server processes (N = 1, 2, 4), each its own
// `skein-exec-server` on a loopback WebSocket behind a capability token, attached through
// environments.toml. Per N: the overhead of a one-message turn on a remote environment, and the
// command throughput of 8 threads spread round-robin over the executors, each turn running 4
// `exec_command`s in parallel. The model is the mock server and answers at once.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { AppServerTestClient, assistantMessage, completed, functionCall, mockProviderConfigToml, sse, startMockResponsesServer, type MockResponsesServer } from '@skein/test-support';

const EXECUTOR_COUNTS = [1, 2, 4] as const;
const TURN_SAMPLES = 30;
const WARMUP = 5;
/** Threads working at once in the throughput run, and turns each runs. */
const THREADS = 8;
const TURNS_PER_THREAD = 4;
/** Parallel `exec_command` calls per turn. */
const CALLS_PER_TURN = 4;
const TOKEN = 'scale-out-bench-token';

const SERVER_BIN = path.join(path.dirname(fileURLToPath(import.meta.resolve('@skein/app-server'))), 'bin.js');
const EXEC_SERVER_BIN = path.join(path.dirname(fileURLToPath(import.meta.resolve('@skein/exec-server'))), 'bin.js');
const text = (value: string) => [{ type: 'text', text: value, text_elements: [] }];
const median = (samples: readonly number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)] ?? 0;
const range = (samples: readonly number[]) => `${Math.min(...samples).toFixed(1)}–${Math.max(...samples).toFixed(1)}`;

/** Starts an exec-server in `root` on a free loopback port behind the token; answers its URL. */
async function startExecutor(root: string, children: ChildProcess[]): Promise<string> {
  await mkdir(root, { recursive: true });
  const tokenFile = path.join(root, '.token');
  await writeFile(tokenFile, `${TOKEN}\n`);
  const child = spawn(process.execPath, [EXEC_SERVER_BIN, '--listen', 'ws://127.0.0.1:0', '--ws-auth', 'capability-token', '--ws-token-file', tokenFile], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: root },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  return line.trim();
}

async function waitReady(client: AppServerTestClient, ids: readonly string[]): Promise<void> {
  for (const environmentId of ids) {
    for (;;) {
      const { status } = (await client.request('environment/status', { environmentId })) as { status: string };
      if (status === 'ready') break;
      if (status !== 'pending') throw new Error(`executor ${environmentId} is ${status}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

async function startThread(client: AppServerTestClient, environmentId: string, cwd: string): Promise<string> {
  const { thread } = (await client.request('thread/start', { cwd, approvalPolicy: 'never', sandbox: 'danger-full-access', environments: [{ environmentId, cwd }] })) as { thread: { id: string } };
  return thread.id;
}

async function runTurn(client: AppServerTestClient, threadId: string, prompt: string): Promise<void> {
  const { turn } = (await client.request('turn/start', { threadId, input: text(prompt) })) as { turn: { id: string } };
  const done = (await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === turn.id, 120_000)) as { turn: { status: string } };
  if (done.turn.status !== 'completed') throw new Error(`a turn ended ${done.turn.status}`);
}

interface Row {
  readonly executors: number;
  readonly turnMs: readonly number[];
  readonly commandsPerSecond: number;
  readonly throughputWallMs: number;
}

async function measure(model: MockResponsesServer, root: string, count: number): Promise<Row> {
  const children: ChildProcess[] = [];
  const home = path.join(root, `home-${count}`);
  await mkdir(home, { recursive: true });
  const ids = Array.from({ length: count }, (_, index) => `executor-${index + 1}`);
  const urls = await Promise.all(ids.map((id) => startExecutor(path.join(root, `${id}-of-${count}`), children)));
  await writeFile(path.join(home, 'config.toml'), mockProviderConfigToml(model.url));
  await writeFile(
    path.join(home, 'environments.toml'),
    ['include_local = false', 'default = "none"', ...ids.flatMap((id, index) => ['[[environments]]', `id = "${id}"`, `url = "${urls[index]}"`, `auth_bearer_token = "${TOKEN}"`])].join('\n'),
  );
  const client = AppServerTestClient.spawn(process.execPath, [SERVER_BIN], { cwd: root, env: { PATH: process.env.PATH, HOME: root, CODEX_HOME: home }, timeoutMs: 120_000 });
  try {
    await client.initialize({ clientInfo: { name: 'skein_bench', title: null, version: '0.0.0' } });
    await waitReady(client, ids);
    const cwdOf = (id: string) => path.join(root, `${id}-of-${count}`);

    // Turn overhead: one-message turns on a thread on the first executor.
    const turnMs: number[] = [];
    model.expect(Array.from({ length: WARMUP + TURN_SAMPLES }, () => sse(assistantMessage('Hello.'), completed())));
    const threadId = await startThread(client, ids[0]!, cwdOf(ids[0]!));
    for (let run = 0; run < WARMUP + TURN_SAMPLES; run++) {
      const start = performance.now();
      await runTurn(client, threadId, `Say hello (${run}).`);
      if (run >= WARMUP) turnMs.push(performance.now() - start);
    }

    // Throughput: every thread's turns run their calls on its executor, all threads at once. Each
    // thread takes responses until its first message, so every call response is consumed.
    const threads = await Promise.all(Array.from({ length: THREADS }, (_, index) => startThread(client, ids[index % count]!, cwdOf(ids[index % count]!))));
    const calls = (turn: number) => Array.from({ length: CALLS_PER_TURN }, (_, call) => functionCall('exec_command', { cmd: `echo ${turn}-${call}` }, { callId: `call_${turn}_${call}` }));
    model.expect(Array.from({ length: THREADS * TURNS_PER_THREAD }, (_, turn) => [sse(...calls(turn), completed()), sse(assistantMessage('Done.'), completed())]).flat());
    const start = performance.now();
    await Promise.all(threads.map(async (id) => {
      for (let turn = 0; turn < TURNS_PER_THREAD; turn++) await runTurn(client, id, 'Run the commands.');
    }));
    const throughputWallMs = performance.now() - start;
    model.verify();
    return { executors: count, turnMs, throughputWallMs, commandsPerSecond: (THREADS * TURNS_PER_THREAD * CALLS_PER_TURN) / (throughputWallMs / 1000) };
  } finally {
    await client.close();
    for (const child of children) child.kill();
  }
}

const model = await startMockResponsesServer();
const root = await mkdtemp(path.join(tmpdir(), 'skein-scale-out-bench-'));
try {
  const rows: Row[] = [];
  for (const count of EXECUTOR_COUNTS) rows.push(await measure(model, root, count));
  console.log(`one app-server (built bin, stdio) driving N skein-exec-server processes over loopback WebSockets with a token; danger-full-access; mock model`);
  console.log(`| executors | one-message turn on a remote environment, median (min–max) | ${THREADS} threads × ${TURNS_PER_THREAD} turns × ${CALLS_PER_TURN} parallel exec_command | commands/s |`);
  console.log('|---|---|---|---|');
  for (const row of rows) {
    console.log(`| ${row.executors} | ${median(row.turnMs).toFixed(1)} ms (${range(row.turnMs)}) | ${(row.throughputWallMs / 1000).toFixed(2)} s | ${row.commandsPerSecond.toFixed(0)} |`);
  }
} finally {
  await model.close();
  await rm(root, { recursive: true, force: true });
}
