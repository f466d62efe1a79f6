// Harness overhead per tool round trip: a turn in which the mock model calls `exec_command {cmd:"true"}`
// once and then answers, through core's ThreadManager with a local environment (as `skein exec` builds
// it), minus a no-tool turn and minus the command spawned directly — sandboxed and danger-full-access.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig, type Config } from '@skein/config';
import { ThreadManager, sandboxContextFor } from '@skein/core';
import { LocalFileSystem, LocalProcesses, PlatformSandbox, SandboxedFileSystem, type ExecutorProcesses, type FileSystemSandboxContext } from '@skein/exec-server';
import { ExtensionRegistryBuilder } from '@skein/extension-api';
import { PathUri } from '@skein/protocol';
import { FileThreadStore, type ThreadStore } from '@skein/rollout';
import { probeSandbox } from '@skein/sandboxing';
import { assistantMessage, completed, functionCall, sse, startMockResponsesServer, type MockResponsesServer } from '@skein/test-support';

const ROUNDS = 60;
const WARMUP = 5;
const SHELL = '/bin/bash';
const ENV = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: tmpdir() };
const MODES = [
  { label: 'sandboxed (workspace-write)', sandboxMode: 'workspace-write' },
  { label: 'danger-full-access', sandboxMode: 'danger-full-access' },
] as const;

const scratch = realpathSync(mkdtempSync(path.join(tmpdir(), 'skein-tool-round-trip-')));
const home = path.join(scratch, 'home');
const cwd = path.join(scratch, 'work');
mkdirSync(home);
mkdirSync(cwd);
const say = [{ type: 'text' as const, text: 'Run true.', text_elements: [] }];

interface Samples {
  readonly toolTurn: number[];
  readonly plainTurn: number[];
  readonly directSpawn: number[];
  readonly executorSpawn: number[];
}

/** A manager as `skein exec` builds it: local filesystem and processes with the platform sandbox. */
async function managerFor(server: MockResponsesServer, sandboxMode: string): Promise<{ manager: ThreadManager; config: Config; store: ThreadStore }> {
  const { config } = await loadConfig({
    cwd,
    env: {},
    homeDir: home,
    overrides: [
      `model_providers.mock={ name = "Mock", base_url = "${server.url}", request_max_retries = 0, stream_max_retries = 0 }`,
      'model_provider=mock',
      'model="gpt-5.5"',
      `sandbox_mode="${sandboxMode}"`,
      'approval_policy="never"',
    ],
  });
  const store = await FileThreadStore.open({ home });
  const manager = new ThreadManager({
    environment: {
      fileSystem: new LocalFileSystem({ sandboxed: new SandboxedFileSystem({ fallbackCwd: cwd, hostEnv: ENV }) }),
      processes: new LocalProcesses({ sandbox: new PlatformSandbox() }),
      env: ENV,
      shell: SHELL,
    },
    store,
    config,
    extensions: new ExtensionRegistryBuilder().build(),
    env: {},
    host: { shell: 'bash', timezone: 'Etc/UTC' },
    originator: 'skein_bench',
    source: 'exec',
    cliVersion: '0.0.0',
  });
  return { manager, config, store };
}

/** One turn on a fresh ephemeral thread; only the turn is timed, not the thread's start. */
async function timedTurn(manager: ThreadManager, server: MockResponsesServer, withTool: boolean): Promise<number> {
  const before = server.requests.length;
  server.expect(
    withTool
      ? [sse(functionCall('exec_command', { cmd: 'true' }), completed()), sse(assistantMessage('Done.'), completed())]
      : [sse(assistantMessage('Done.'), completed())],
  );
  const thread = await manager.start({ ephemeral: true, onEvent: () => undefined });
  try {
    const start = performance.now();
    const outcome = await thread.runTurn(say);
    const elapsed = performance.now() - start;
    if (outcome.status !== 'completed') throw new Error(`the turn ended ${outcome.status}`);
    if (withTool) {
      const answer = server.requests[before + 1]?.body?.input.find((item) => item.type === 'function_call_output');
      const output = typeof answer?.output === 'string' ? answer.output : '';
      if (!output.includes('Process exited with code 0')) throw new Error(`exec_command did not run \`true\` cleanly: ${output}`);
    }
    return elapsed;
  } finally {
    await thread.close();
  }
}

/** `bash -lc true` spawned with Node, to its exit. */
async function directSpawn(): Promise<number> {
  const start = performance.now();
  const child = spawn(SHELL, ['-lc', 'true'], { cwd, env: ENV, stdio: 'ignore' });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`bash -lc true exited ${code}`);
  return performance.now() - start;
}

/** The same command through the executor with the turn's sandbox context (bubblewrap when it confines). */
async function executorSpawn(processes: ExecutorProcesses, sandbox: FileSystemSandboxContext | null, index: number): Promise<number> {
  const processId = `bench-${index}`;
  const start = performance.now();
  const exited = new Promise<void>((resolve) => {
    const unsubscribe = processes.subscribe((event) => {
      if (event.processId === processId && event.type === 'closed') {
        unsubscribe();
        resolve();
      }
    });
  });
  await processes.start({ processId, argv: [SHELL, '-lc', 'true'], cwd: PathUri.fromNativePath(cwd, 'posix'), env: ENV, tty: false, sandbox });
  await exited;
  return performance.now() - start;
}

const percentile = (values: readonly number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ?? 0;
const row = (label: string, values: readonly number[]) =>
  console.log(`  ${label.padEnd(54)} p50 ${percentile(values, 50).toFixed(2).padStart(7)} ms   p90 ${percentile(values, 90).toFixed(2).padStart(7)} ms`);

async function measure(mode: (typeof MODES)[number]): Promise<void> {
  const server = await startMockResponsesServer();
  const { manager, config, store } = await managerFor(server, mode.sandboxMode);
  const sandbox = sandboxContextFor(config, cwd);
  const processes = new LocalProcesses({ sandbox: new PlatformSandbox() });
  const samples: Samples = { toolTurn: [], plainTurn: [], directSpawn: [], executorSpawn: [] };
  try {
    // Interleaved, so drift (page cache, CPU frequency) touches every series alike.
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      const plain = await timedTurn(manager, server, false);
      const tool = await timedTurn(manager, server, true);
      const direct = await directSpawn();
      const executor = await executorSpawn(processes, sandbox, round);
      if (round < WARMUP) continue;
      samples.plainTurn.push(plain);
      samples.toolTurn.push(tool);
      samples.directSpawn.push(direct);
      samples.executorSpawn.push(executor);
    }
    server.verify();
  } finally {
    await processes.close();
    await store.close();
    await server.close();
  }
  const overhead = samples.toolTurn.map((tool, index) => tool - samples.plainTurn[index]! - samples.directSpawn[index]!);
  const harnessOnly = samples.toolTurn.map((tool, index) => tool - samples.plainTurn[index]! - samples.executorSpawn[index]!);
  console.log(`${mode.label} (sandbox context: ${sandbox === null ? 'none, unconfined' : 'managed, through bubblewrap'})`);
  row('turn with one exec_command `true` + answer', samples.toolTurn);
  row('turn with an answer only', samples.plainTurn);
  row('`bash -lc true`, Node spawn to exit', samples.directSpawn);
  row('`bash -lc true`, executor start to close, same sandbox', samples.executorSpawn);
  row('overhead per tool round trip (tool − plain − spawn)', overhead);
  row('  of which not the sandbox (tool − plain − executor)', harnessOnly);
}

try {
  console.log(`rounds: ${ROUNDS} per mode (after ${WARMUP} warm-up), mock model answering instantly, fresh ephemeral thread per turn`);
  console.log('overhead = the extra model round trip (request, SSE, history) + tool routing, approval, sandbox setup, output formatting');
  const capability = await probeSandbox({ env: ENV, cwd });
  for (const mode of MODES) {
    if (mode.sandboxMode !== 'danger-full-access' && !capability.available) {
      console.log(`${mode.label}: skipped, the sandbox is unavailable here: ${capability.reason}`);
      continue;
    }
    await measure(mode);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
