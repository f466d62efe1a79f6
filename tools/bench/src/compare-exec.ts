// The `exec` rows of the compare runner: one `exec "hi"` per sample against a model stub that answers
// at once, timed from the outside on one clock — spawn → the first model request, and the answer's
// last byte → the process's exit — and `exec resume` of a 20 000-item thread, spawn → first request.
// Each side gets its own home with a config.toml pointing at the stub; the homes are reused from
// sample to sample (warm: the warm-up samples fill indexes and caches).
import { spawn } from 'node:child_process';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildLargeThread } from './large-thread.js';
import type { ModelStub } from './model-stub.js';

export type Side = 'skein' | 'codex';

/** What the runner lends this module: how to start a side, and its environment. */
export interface ExecRunContext {
  readonly command: (side: Side, args: readonly string[]) => [string, string[]];
  readonly env: (side: Side) => Record<string, string>;
  readonly cwd: string;
  readonly stub: ModelStub;
  /** Where each side's home goes (created here). */
  readonly homeRoot: string;
}

/** One exec run's two timings, in ms. */
export interface ExecTimings {
  readonly spawnToRequest: number;
  readonly responseEndToExit: number;
}

export interface ExecSampler {
  /** `exec "hi"` on the side's reused home. */
  hi(side: Side): Promise<ExecTimings>;
  /** `exec resume <id> "hi"` of the 20 000-item thread (grows by one short turn per sample, on both sides alike). */
  resumeLarge(side: Side): Promise<ExecTimings>;
}

const configToml = (url: string) =>
  ['model_provider = "mock"', 'model = "gpt-5.5"', '', '[model_providers.mock]', 'name = "Mock"', `base_url = "${url}"`, 'wire_api = "responses"', 'request_max_retries = 0', 'stream_max_retries = 0', ''].join('\n');

/** Makes both homes (config + the same large thread at the same place in each) and returns the sampler. */
export async function prepareExecRuns(context: ExecRunContext): Promise<ExecSampler> {
  const homes: Record<Side, string> = { skein: path.join(context.homeRoot, 'exec-skein'), codex: path.join(context.homeRoot, 'exec-codex') };
  for (const home of Object.values(homes)) {
    await mkdir(home, { recursive: true });
    await writeFile(path.join(home, 'config.toml'), configToml(context.stub.url));
  }
  // Codex reads the session_meta's originator and cli_version; a thread `codex exec` could have written.
  const file = await buildLargeThread(homes.skein, { cwd: context.cwd, meta: { originator: 'codex_exec', cli_version: '0.171.0' } });
  const relative = path.relative(homes.skein, file);
  await mkdir(path.dirname(path.join(homes.codex, relative)), { recursive: true });
  await copyFile(file, path.join(homes.codex, relative));
  const threadId = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/.exec(file)?.[1];
  if (threadId === undefined) throw new Error(`no thread id in ${file}`);

  const run = async (side: Side, args: readonly string[]): Promise<ExecTimings> => {
    context.stub.exchanges.length = 0;
    const [program, argv] = context.command(side, ['exec', '--skip-git-repo-check', ...args]);
    const start = performance.now();
    const child = spawn(program, argv, { cwd: context.cwd, env: { ...context.env(side), CODEX_HOME: homes[side] }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', resolve);
    });
    const exitAt = performance.now();
    const first = context.stub.exchanges[0];
    const last = context.stub.exchanges.at(-1);
    if (code !== 0 || first === undefined || last?.responseEndAt === undefined) {
      throw new Error(`${side} exec ${args.join(' ')} exited ${code} after ${context.stub.exchanges.length} model request(s): ${stderr.slice(-2000)}`);
    }
    return { spawnToRequest: first.requestAt - start, responseEndToExit: exitAt - last.responseEndAt };
  };
  return {
    hi: (side) => run(side, ['hi']),
    resumeLarge: (side) => run(side, ['resume', threadId, 'hi']),
  };
}
