// Shared by the real-bubblewrap scenarios: probe once per test run, make scratch workspaces, run a
// command confined and collect what it printed.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { probeSandboxForTests } from '@skein/test-support';
import { prepareSandboxedSpawn, probeSandbox, spawnSandboxed, type SandboxRequest, type SpawnSpec } from '../src/index.js';

/**
 * The real probe of this machine (once per test run), and `skip`: '' when bubblewrap works, otherwise
 * the ` (skipped: …)` suffix for the scenario's title. Throws where the run requires the sandbox (CI).
 */
export const { capability, skip: skipReason } = await probeSandboxForTests(() => probeSandbox({ env: process.env, cwd: tmpdir() }));

/** A fresh canonical scratch directory with `work/` (the workspace) and `outside/` beside it. */
export function scratch(): { root: string; work: string; outside: string; dispose: () => void } {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'skein-sandbox-')));
  const work = path.join(root, 'work');
  const outside = path.join(root, 'outside');
  mkdirSync(work);
  mkdirSync(outside);
  return { root, work, outside, dispose: () => rmSync(root, { recursive: true, force: true }) };
}

/** What a confined command did. */
export interface Outcome {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly spec: SpawnSpec;
}

/** Runs `spec` and waits for it, collecting output. */
export function runSpec(spec: SpawnSpec, cwd: string, env: Record<string, string | undefined> = process.env): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawnSandboxed(spec, { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin?.end();
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr, spec }));
  });
}

/** Prepares and runs `command` under `request`. */
export async function runConfined(request: Omit<SandboxRequest, 'env'> & { env?: SandboxRequest['env'] }, command: readonly string[]): Promise<Outcome> {
  const env = request.env ?? process.env;
  const spec = await prepareSandboxedSpawn({ ...request, env }, command, { capability });
  return runSpec(spec, request.cwd, { ...env });
}

/** `sh -c script` */
export const sh = (script: string): string[] => ['/bin/sh', '-c', script];
