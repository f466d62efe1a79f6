// `CODEX_EXEC_SERVER_URL=ws://…`: `skein exec` runs its commands on that exec-server (a real
// `skein exec-server` child on a loopback port), and a bad or unreachable URL stops it before any
// model request.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { assistantMessage, completed, functionCall, sse } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, execScratch, jsonLines, type ExecScratch, type Run } from './support/exec-run.js';

/** Only the exec-server process has it: a command that prints it ran there. */
const MARKER = 'SKEIN_TEST_EXECUTOR';

let fixture: ExecScratch;
const children: ChildProcess[] = [];

beforeEach(async () => {
  fixture = await execScratch('skein-exec-remote-');
});
afterEach(async () => {
  // Awaited: an exec-server still writes (its code cache, under its HOME in the scratch) as it exits.
  await Promise.all(
    children.splice(0).map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill();
      await exited;
    }),
  );
  await fixture.cleanup();
});

/** `skein exec …` in the repository with `CODEX_EXEC_SERVER_URL` set. */
function skeinExec(args: readonly string[], execServerUrl: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const env = { PATH: process.env.PATH, HOME: path.join(fixture.scratch, 'user'), CODEX_HOME: fixture.home, MOCK_API_KEY: 'sk-mock', TZ: 'UTC', CODEX_EXEC_SERVER_URL: execServerUrl };
    const child = spawn(process.execPath, [BIN, 'exec', ...args], { cwd: fixture.repo, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end('');
  });
}

/** Starts `skein exec-server` on a free loopback port (no auth); resolves to its URL. */
async function startExecServer(name: string): Promise<string> {
  const root = path.join(fixture.scratch, name);
  mkdirSync(root);
  const child = spawn(process.execPath, [BIN, 'exec-server', '--listen', 'ws://127.0.0.1:0'], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: root, [MARKER]: name },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  return line.trim();
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

describe('skein exec with CODEX_EXEC_SERVER_URL', () => {
  it('runs its commands on that exec-server, as the primary environment', async () => {
    const url = await startExecServer('executor');
    fixture.server.expect([sse(functionCall('exec_command', { cmd: `echo "[$${MARKER}]"; pwd` }, { callId: 'call_where' }), completed()), sse(assistantMessage('Done.'), completed())]);
    const { code, stdout, stderr } = await skeinExec(['--json', '-s', 'danger-full-access', 'Where are you?'], url);
    expect(stderr).not.toContain('error');
    expect(code).toBe(0);
    // The marker exists only in the exec-server's environment, so the command ran there, in the thread's cwd.
    expect(fixture.server.requests[1]!.toolOutputText('call_where')).toMatch(new RegExp(`Output:\\n\\[executor\\]\\n${fixture.repo}\\n$`));
    const command = jsonLines(stdout).find((event) => event.type === 'item.completed' && event.item.type === 'command_execution');
    expect(command).toMatchObject({ item: { aggregated_output: `[executor]\n${fixture.repo}\n`, exit_code: 0 } });
  });

  it('refuses a URL that is not ws:// or wss:// before any model request', async () => {
    for (const [value, message] of [
      ['http://127.0.0.1:4500', 'error: CODEX_EXEC_SERVER_URL: exec-server url `http://127.0.0.1:4500` must use ws:// or wss://'],
      ['not a url', "error: CODEX_EXEC_SERVER_URL: `not a url` is not a URL; give the exec-server's ws:// or wss:// address"],
    ] as const) {
      const { code, stderr } = await skeinExec(['hello'], value);
      expect(code).toBe(1);
      expect(stderr).toContain(message);
    }
    expect(fixture.server.requests).toEqual([]);
  });

  it('fails before any model request when the exec-server cannot be reached', async () => {
    const port = await closedPort();
    const { code, stderr } = await skeinExec(['hello'], `ws://127.0.0.1:${port}`);
    expect(code).toBe(1);
    expect(stderr).toMatch(new RegExp(`error: CODEX_EXEC_SERVER_URL: could not connect to the exec-server at ws://127\\.0\\.0\\.1:${port}/: .*ECONNREFUSED`));
    expect(fixture.server.requests).toEqual([]);
  });
});
