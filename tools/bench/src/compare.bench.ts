// Skein beside Codex 0.171.0: each start-up / throughput row runs against the built `skein` bundle and
// the real `codex` binary in the same run, interleaved sample by sample, so machine noise hits both
// alike; prints median, min–max and the Skein/Codex ratio of the medians.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { connectExecServer } from '@skein/exec-server';
import { PathUri } from '@skein/protocol';
import { resolveCodexBinary } from '@skein/test-support';
import { callsPerSecond } from './calls-per-second.js';
import { prepareExecRuns, type Side } from './compare-exec.js';
import { startModelStub } from './model-stub.js';

const SPAWN_RUNS = 15;
const WARMUP_RUNS = 2;
const RESUME_RUNS = 7;
// `compare [group…]` runs only those groups: start-up, reads, exec (all by default); `exec-server`
// is the exec-server's start-up row plus the reads, without the CLI's other start-up rows.
const GROUPS = ['start-up', 'reads', 'exec', 'exec-server'] as const;
const wanted = process.argv.slice(2);
const unknownGroups = wanted.filter((group) => !(GROUPS as readonly string[]).includes(group));
if (unknownGroups.length > 0) {
  console.error(`unknown group(s): ${unknownGroups.join(', ')}; groups: ${GROUPS.join(', ')}`);
  process.exit(2);
}
const runs = (group: (typeof GROUPS)[number]) => wanted.length === 0 || wanted.includes(group);
const OPS_SECONDS = 1.5;
const OPS_ROUNDS = 3;

const cliEntry = import.meta.resolve('@skein/cli');
const SKEIN_BIN = path.join(path.dirname(fileURLToPath(cliEntry)), 'bin.cjs');
const codex = resolveCodexBinary(cliEntry);
if (codex.binary === undefined) {
  console.error(`no Codex binary to compare with: ${codex.missing}`);
  process.exit(2);
}
const CODEX_BIN = codex.binary;
// Codex refuses a CODEX_HOME under TMPDIR for some commands; keep both homes outside it.
const homeRoot = await mkdtemp(path.join(homedir(), '.skein-compare-'));
const skeinHome = path.join(homeRoot, 'skein');
const codexHome = path.join(homeRoot, 'codex');
const work = await mkdtemp(path.join(tmpdir(), 'skein-compare-work-'));

const SIDES: readonly Side[] = ['skein', 'codex'];
const command = (side: Side, args: readonly string[]): [string, string[]] => (side === 'skein' ? [process.execPath, [SKEIN_BIN, ...args]] : [CODEX_BIN, [...args]]);
// Skein's code cache (packages/cli/src/code-cache.ts) starts empty in each run, filled by the warm-ups.
const envFor = (side: Side) => ({ PATH: '/usr/local/bin:/usr/bin:/bin', HOME: homedir(), TERM: 'xterm', CODEX_HOME: side === 'skein' ? skeinHome : codexHome, XDG_CACHE_HOME: path.join(homeRoot, 'cache') });
// A warm-up server lives this long before it is stopped: past the second at which skein writes the
// code cache of a process that is still running (packages/cli/src/bin.ts), as any real session does.
const WARM_UP_LINGER_MS = 1500;

interface Row {
  readonly name: string;
  readonly unit: 'ms' | 'ops/s';
  readonly samples: Record<Side, number[]>;
}
const rows: Row[] = [];
const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

/** Runs `sample` for both sides alternately (warm-up samples dropped) and records the row. */
async function row(name: string, unit: Row['unit'], runs: number, sample: (side: Side, warmUp: boolean) => Promise<number>): Promise<void> {
  await rowsFromOneRun([name], unit, runs, async (side, warmUp) => [await sample(side, warmUp)]);
}

/** Like `row`, for a sample that yields one value per name (two timings of the same run, say). */
async function rowsFromOneRun(names: readonly string[], unit: Row['unit'], runs: number, sample: (side: Side, warmUp: boolean) => Promise<readonly number[]>): Promise<void> {
  const samples = names.map((): Record<Side, number[]> => ({ skein: [], codex: [] }));
  for (let run = 0; run < WARMUP_RUNS + runs; run += 1) {
    // Alternate which side goes first so neither always runs on a cache the other just warmed.
    const order = run % 2 === 0 ? SIDES : [...SIDES].reverse();
    for (const side of order) {
      const values = await sample(side, run < WARMUP_RUNS);
      if (run >= WARMUP_RUNS) values.forEach((value, index) => samples[index]?.[side].push(value));
    }
  }
  names.forEach((name, index) => {
    rows.push({ name, unit, samples: samples[index] as Record<Side, number[]> });
    print(rows.at(-1) as Row);
  });
}

function print(entry: Row): void {
  const cell = (side: Side) => {
    const values = entry.samples[side];
    const digits = entry.unit === 'ms' ? 1 : 0;
    return `${median(values).toFixed(digits)} ${entry.unit} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
  };
  const ratio = median(entry.samples.skein) / median(entry.samples.codex);
  console.log(`| ${entry.name} | ${cell('codex')} | ${cell('skein')} | ${ratio.toFixed(2)} |`);
}

/** Wall time of a command run to completion; fails loudly when it fails. */
function wall(side: Side, args: readonly string[]): Promise<number> {
  const [file, argv] = command(side, args);
  const start = performance.now();
  const result = spawnSync(file, argv, { cwd: work, env: envFor(side), stdio: ['ignore', 'ignore', 'pipe'] });
  const elapsed = performance.now() - start;
  if (result.status !== 0) throw new Error(`${side} ${args.join(' ')} exited with ${result.status}: ${result.stderr.toString()}`);
  return Promise.resolve(elapsed);
}

/** Spawn → the `initialize` answer of `app-server` over stdio. */
async function appServerInitialize(side: Side, warmUp: boolean): Promise<number> {
  const [file, argv] = command(side, ['app-server']);
  const start = performance.now();
  const child = spawn(file, argv, { cwd: work, env: envFor(side), stdio: ['pipe', 'pipe', 'ignore'] });
  child.stdin.write(`${JSON.stringify({ id: 0, method: 'initialize', params: { clientInfo: { name: 'bench', version: '0' } } })}\n`);
  const elapsed = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const message = JSON.parse(line) as { id?: unknown; result?: unknown };
      if (message.id === 0 && message.result !== undefined) resolve(performance.now() - start);
    });
    child.once('exit', (code) => reject(new Error(`${side} app-server exited with ${code} before answering initialize`)));
  });
  if (warmUp && side === 'skein') await delay(WARM_UP_LINGER_MS);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.stdin.end();
  child.kill('SIGTERM');
  await exited;
  return elapsed;
}

/** Starts `exec-server` on a WebSocket; resolves once `initialize` is answered, with the time it took. */
async function startExecServer(side: Side) {
  const [file, argv] = command(side, ['exec-server', '--listen', 'ws://127.0.0.1:0']);
  const start = performance.now();
  const child = spawn(file, argv, { cwd: work, env: envFor(side), stdio: ['ignore', 'pipe', 'ignore'] });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${side} exec-server exited with ${code}`)));
  });
  const client = await connectExecServer({ url, clientName: 'skein-compare' });
  const elapsed = performance.now() - start;
  const stop = async () => {
    await client.close();
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  return { client, elapsed, stop };
}

try {
  await writeFile(path.join(work, 'small.txt'), 'x'.repeat(143) + '\n');
  for (const home of [skeinHome, codexHome]) spawnSync('mkdir', ['-p', home]);
  console.log(`skein: ${SKEIN_BIN}\ncodex: ${CODEX_BIN}\n`);
  console.log('| what | Codex 0.171.0 | Skein | Skein/Codex |\n|---|---|---|---|');
  if (runs('start-up')) {
    await row('`--version` wall', 'ms', SPAWN_RUNS, (side) => wall(side, ['--version']));
    await row('`features list` wall', 'ms', SPAWN_RUNS, (side) => wall(side, ['features', 'list']));
    await row('app-server spawn → `initialize` answered', 'ms', SPAWN_RUNS, appServerInitialize);
  }
  if (runs('start-up') || runs('exec-server')) {
    await row('exec-server spawn → `initialize` answered', 'ms', SPAWN_RUNS, async (side, warmUp) => {
      const server = await startExecServer(side);
      if (warmUp && side === 'skein') await delay(WARM_UP_LINGER_MS);
      await server.stop();
      return server.elapsed;
    });
  }
  if (runs('reads') || runs('exec-server')) {
    const servers = { skein: await startExecServer('skein'), codex: await startExecServer('codex') };
    const small = PathUri.fromNativePath(path.join(work, 'small.txt'), 'posix');
    for (const [method, call] of [
      ['fs/readFile (144 B)', (side: Side) => () => servers[side].client.fileSystem.readFile(small)],
      ['fs/getMetadata', (side: Side) => () => servers[side].client.fileSystem.getMetadata(small)],
    ] as const) {
      for (const inFlight of [1, 16]) {
        await row(`exec-server \`${method}\`, ${inFlight} in flight`, 'ops/s', OPS_ROUNDS, (side) => callsPerSecond(call(side), inFlight, OPS_SECONDS));
      }
    }
    await servers.skein.stop();
    await servers.codex.stop();
  }
  if (runs('exec')) {
    const stub = await startModelStub();
    try {
      const exec = await prepareExecRuns({ command, env: envFor, cwd: work, stub, homeRoot });
      await rowsFromOneRun(['`exec "hi"`, reused home: spawn → first model request', '`exec "hi"`: model response end → process exit'], 'ms', SPAWN_RUNS, async (side) => {
        const timings = await exec.hi(side);
        return [timings.spawnToRequest, timings.responseEndToExit];
      });
      await row('`exec resume` of a 20,000-item thread, warm home: spawn → first request', 'ms', RESUME_RUNS, async (side) => (await exec.resumeLarge(side)).spawnToRequest);
    } finally {
      await stub.close();
    }
  }
} finally {
  await rm(homeRoot, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
}
