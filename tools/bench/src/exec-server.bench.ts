// Executor costs: spawn-to-exit latency of `true` (local and through a real `skein-exec-server`),
// fs/getMetadata and small fs/readFile calls per second over one WebSocket (1 and 16 in flight, and 16
// against a server running 16 requests at once), and
// the throughput of a 100 MiB chunked read (local and remote).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { PathUri } from '@skein/protocol';
import { LocalFileSystem, LocalProcesses, connectExecServer, type ExecutorFileSystem, type ExecutorProcesses } from '@skein/exec-server';
import { callsPerSecond } from './calls-per-second.js';

const SPAWN_RUNS = 200;
const WARMUP_RUNS = 20;
const CALL_SECONDS = 3;
const SMALL_FILE_BYTES = 1024;
const LARGE_FILE_BYTES = 100 * 1024 * 1024;
const IN_FLIGHT = [1, 16] as const;

const SERVER_BIN = path.join(path.dirname(fileURLToPath(import.meta.resolve('@skein/exec-server'))), 'bin.js');
const ENV = { PATH: '/usr/local/bin:/usr/bin:/bin' };
const root = await mkdtemp(path.join(tmpdir(), 'skein-exec-server-bench-'));
const rootUri = PathUri.fromNativePath(root, 'posix');
const ms = (value: number) => `${value.toFixed(2)} ms`;
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ?? 0;

/** Start → exited, for `true`, measured from the caller's side. */
async function spawnToExit(processes: ExecutorProcesses, label: string): Promise<void> {
  const samples: number[] = [];
  for (let run = 0; run < WARMUP_RUNS + SPAWN_RUNS; run += 1) {
    const processId = `${label}-${run}`;
    const start = performance.now();
    const exited = new Promise<void>((resolve) => {
      const unsubscribe = processes.subscribe((event) => {
        if (event.processId === processId && event.type === 'exited') {
          unsubscribe();
          resolve();
        }
      });
    });
    await processes.start({ processId, argv: ['true'], cwd: rootUri, env: ENV, tty: false });
    await exited;
    if (run >= WARMUP_RUNS) samples.push(performance.now() - start);
  }
  console.log(`spawn-to-exit of \`true\` (${label}, ${SPAWN_RUNS} runs): median ${ms(percentile(samples, 50))}, p90 ${ms(percentile(samples, 90))}, p99 ${ms(percentile(samples, 99))}`);
}

async function chunkedRead(fileSystem: ExecutorFileSystem, label: string, file: PathUri): Promise<void> {
  const start = performance.now();
  let bytes = 0;
  for await (const chunk of fileSystem.readFileStream(file)) bytes += chunk.byteLength;
  const seconds = (performance.now() - start) / 1000;
  console.log(`chunked read of ${bytes / 1024 / 1024} MiB (${label}): ${(bytes / 1024 / 1024 / seconds).toFixed(0)} MiB/s (${seconds.toFixed(2)} s)`);
}

/** Starts the built server binary and returns it with its URL. */
async function startServer(extraArgs: readonly string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [SERVER_BIN, '--listen', 'ws://127.0.0.1:0', ...extraArgs], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
  return { child, url };
}

const server = await startServer([]);
const concurrentServer = await startServer(['--concurrent-requests', '16']);
try {
  const { url } = server;
  console.log(`server: ${SERVER_BIN} at ${url} (one request at a time per connection, as Codex's default)`);
  const remote = await connectExecServer({ url, clientName: 'skein-bench' });
  const concurrent = await connectExecServer({ url: concurrentServer.url, clientName: 'skein-bench' });
  const local = new LocalProcesses();

  await spawnToExit(local, 'local');
  await spawnToExit(remote.processes, 'remote over WebSocket');

  const small = rootUri.join('small.txt');
  await writeFile(path.join(root, 'small.txt'), randomBytes(SMALL_FILE_BYTES));
  for (const inFlight of IN_FLIGHT) {
    const rate = await callsPerSecond(() => remote.fileSystem.getMetadata(small), inFlight, CALL_SECONDS);
    console.log(`fs/getMetadata over one WebSocket, ${inFlight} in flight: ${rate.toFixed(0)} calls/s`);
  }
  const concurrentMetadata = await callsPerSecond(() => concurrent.fileSystem.getMetadata(small), 16, CALL_SECONDS);
  console.log(`fs/getMetadata over one WebSocket, 16 in flight, server --concurrent-requests 16: ${concurrentMetadata.toFixed(0)} calls/s`);
  for (const inFlight of IN_FLIGHT) {
    const rate = await callsPerSecond(() => remote.fileSystem.readFile(small), inFlight, CALL_SECONDS);
    console.log(`fs/readFile of ${SMALL_FILE_BYTES} B over one WebSocket, ${inFlight} in flight: ${rate.toFixed(0)} calls/s`);
  }
  const concurrentRead = await callsPerSecond(() => concurrent.fileSystem.readFile(small), 16, CALL_SECONDS);
  console.log(`fs/readFile of ${SMALL_FILE_BYTES} B over one WebSocket, 16 in flight, server --concurrent-requests 16: ${concurrentRead.toFixed(0)} calls/s`);

  const large = rootUri.join('large.bin');
  await writeFile(path.join(root, 'large.bin'), randomBytes(LARGE_FILE_BYTES));
  await chunkedRead(new LocalFileSystem(), 'local', large);
  await chunkedRead(remote.fileSystem, 'remote over WebSocket, fs/open + fs/readBlock', large);

  await remote.close();
  await concurrent.close();
  await local.close();
} finally {
  server.child.kill('SIGTERM');
  concurrentServer.child.kill('SIGTERM');
  await rm(root, { recursive: true, force: true });
}
