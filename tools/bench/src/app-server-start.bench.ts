// App-server start-up: process spawn → the `initialize` response, over stdio. Measured for `skein
// app-server` (the cli, bundled into one file run through V8's code cache) and for @skein/app-server's own `skein-app-server`
// bin (the same server, loaded as a few hundred modules), so the cost of module loading shows.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const RUNS = 30;
const WARMUP_RUNS = 3;
const binBeside = (entry: string, bin: string) => path.join(path.dirname(fileURLToPath(import.meta.resolve(entry))), bin);
const SERVERS = [
  { name: 'skein app-server', argv: [binBeside('@skein/cli', 'bin.cjs'), 'app-server'] },
  { name: 'skein-app-server', argv: [binBeside('@skein/app-server', 'bin.js')] },
];
const home = await mkdtemp(path.join(tmpdir(), 'skein-app-server-bench-'));
await writeFile(path.join(home, 'config.toml'), 'model = "gpt-5.5"\n');
// Its own code cache (packages/cli/src/code-cache.ts), not the user's: the warm-up runs fill it.
const ENV = { PATH: '/usr/local/bin:/usr/bin:/bin', CODEX_HOME: home, TERM: 'xterm', XDG_CACHE_HOME: path.join(home, 'cache') };
const INITIALIZE = `${JSON.stringify({ id: 0, method: 'initialize', params: { clientInfo: { name: 'bench', version: '0' } } })}\n`;
const ms = (value: number) => `${value.toFixed(1)} ms`;
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ?? 0;

/** Spawns the server, sends `initialize` at once, and resolves to the time until its response line. */
async function startToInitialize(argv: readonly string[]): Promise<number> {
  const start = performance.now();
  const child = spawn(process.execPath, argv, { cwd: home, env: ENV, stdio: ['pipe', 'pipe', 'ignore'] });
  child.stdin.write(INITIALIZE);
  const elapsed = await new Promise<number>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const message = JSON.parse(line) as { id?: unknown; result?: unknown };
      if (message.id === 0 && message.result !== undefined) resolve(performance.now() - start);
    });
    child.once('exit', (code) => reject(new Error(`app-server exited with ${code} before answering initialize`)));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.stdin.end();
  await exited;
  return elapsed;
}

try {
  for (const server of SERVERS) {
    const samples: number[] = [];
    for (let run = 0; run < WARMUP_RUNS + RUNS; run += 1) {
      const elapsed = await startToInitialize(server.argv);
      if (run >= WARMUP_RUNS) samples.push(elapsed);
    }
    console.log(`${server.name}: process start → initialize response (stdio, ${RUNS} spawns): median ${ms(percentile(samples, 50))}, p90 ${ms(percentile(samples, 90))}, min ${ms(Math.min(...samples))}`);
  }
} finally {
  await rm(home, { recursive: true, force: true });
}
