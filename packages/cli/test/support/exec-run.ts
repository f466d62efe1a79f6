// What the `skein exec` tests share: a scratch directory with a home (config.toml pointing at the
// mock Responses server), an empty user HOME and a git repository, and the built binary run in it.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ExecEvent } from '@skein/protocol';
import { startMockResponsesServer, type MockResponsesServer } from '@skein/test-support';

/** The built binary. */
export const BIN = path.join(import.meta.dirname, '..', '..', 'dist', 'bin.cjs');

/** How a run of the binary ended. */
export interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** One test's directories, mock server and binary. */
export interface ExecScratch {
  readonly scratch: string;
  readonly home: string;
  readonly repo: string;
  readonly server: MockResponsesServer;
  /** Rewrites config.toml with `topLevel` keys before the mock provider's table (gpt-5.5 unless they name a model). */
  writeConfig(topLevel: string): void;
  /** Runs `skein args…` in the repository (or `cwd`) with `stdin` and more `env`, and waits for it to exit. */
  skein(args: readonly string[], options?: { readonly stdin?: string; readonly cwd?: string; readonly env?: Readonly<Record<string, string>> }): Promise<Run>;
  cleanup(): Promise<void>;
}

/** Makes the directories (under a `prefix`-named temp dir) and starts the mock server. */
export async function execScratch(prefix: string): Promise<ExecScratch> {
  const scratch = mkdtempSync(path.join(tmpdir(), prefix));
  const home = path.join(scratch, 'home');
  const repo = path.join(scratch, 'repo');
  mkdirSync(home);
  mkdirSync(path.join(scratch, 'user'));
  mkdirSync(path.join(repo, '.git'), { recursive: true });
  const server = await startMockResponsesServer();
  const writeConfig = (topLevel: string): void =>
    writeFileSync(
      path.join(home, 'config.toml'),
      `model_provider = "mock"\n${/^model\s*=/m.test(topLevel) ? '' : 'model = "gpt-5.5"\n'}${topLevel}[model_providers.mock]\nname = "Mock"\nbase_url = "${server.url}"\nenv_key = "MOCK_API_KEY"\nrequest_max_retries = 0\nstream_max_retries = 0\n`,
    );
  writeConfig('');
  return {
    scratch,
    home,
    repo,
    server,
    writeConfig,
    skein: (args, options = {}) =>
      new Promise((resolve, reject) => {
        // An empty HOME, so the login shell commands run in (`bash -lc`) reads no profile of this machine.
        const env = { PATH: process.env.PATH, HOME: path.join(scratch, 'user'), CODEX_HOME: home, MOCK_API_KEY: 'sk-mock', TZ: 'UTC', ...options.env };
        const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd ?? repo, env });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stdout, stderr }));
        child.stdin.end(options.stdin ?? '');
      }),
    async cleanup() {
      // Closing verifies the mock model; the scratch goes either way.
      try {
        await server.close();
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
    },
  };
}

/** `exec --json` output as parsed events. */
export const jsonLines = (stdout: string): ExecEvent[] => stdout.trimEnd().split('\n').map((line) => ExecEvent.parse(JSON.parse(line)));
