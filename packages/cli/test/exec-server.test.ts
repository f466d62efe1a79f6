// `skein exec-server` as a user runs it: the built `skein` binary serving over WebSocket and stdio.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { PathUri } from '@skein/protocol';
import { FileSystemSandboxContext, connectExecServer, spawnExecServer } from '@skein/exec-server';
import { probeSandbox } from '@skein/sandboxing';
import { probeSandboxForTests } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const BIN = path.join(import.meta.dirname, '..', 'dist', 'bin.cjs');

let work: string;
let server: ChildProcess | undefined;
beforeEach(() => {
  work = realpathSync(mkdtempSync(path.join(tmpdir(), 'skein-cli-exec-server-')));
  writeFileSync(path.join(work, 'hello.txt'), 'from skein');
});
afterEach(() => {
  server?.kill('SIGKILL');
  server = undefined;
  rmSync(work, { recursive: true, force: true });
});

const env = { PATH: process.env.PATH, CODEX_HOME: path.join(tmpdir(), 'skein-cli-no-home') };
const { skip: NO_SANDBOX } = await probeSandboxForTests(() => probeSandbox({ env: process.env, cwd: tmpdir() }));

function skein(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: work, env }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr });
    });
  });
}

describe('skein exec-server', () => {
  it('prints the URL it listens on, serves files and processes, and exits 0 on SIGTERM', async () => {
    server = spawn(process.execPath, [BIN, 'exec-server', '--listen', 'ws://127.0.0.1:0'], { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const url = await new Promise<string>((resolve) => createInterface({ input: server!.stdout! }).once('line', resolve));
    expect(url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
    const remote = await connectExecServer({ url });
    expect(remote.client.environment?.cwd).toBe(PathUri.fromNativePath(work, 'posix').toString());
    expect(await remote.fileSystem.readFileText(PathUri.fromNativePath(path.join(work, 'hello.txt'), 'posix'))).toBe('from skein');
    const exit = new Promise<number>((resolve) => {
      remote.processes.subscribe((event) => {
        if (event.type === 'exited') resolve(event.exitCode);
      });
    });
    await remote.processes.start({ processId: 'p', argv: ['sh', '-c', 'exit 7'], cwd: PathUri.fromNativePath(work, 'posix'), env: { PATH: '/usr/bin:/bin' }, tty: false });
    expect(await exit).toBe(7);
    await remote.close();
    const code = new Promise<number | null>((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    expect(await code).toBe(0);
  });

  it('serves one client over stdio with --listen stdio', async () => {
    const remote = await spawnExecServer({ command: [process.execPath, BIN, 'exec-server', '--listen', 'stdio'], cwd: work, env });
    expect(await remote.fileSystem.readFileText(PathUri.fromNativePath(path.join(work, 'hello.txt'), 'posix'))).toBe('from skein');
    await remote.close();
  });

  // A confined call runs the fs helper the binary ships beside itself (the executable is one bundled file).
  it.skipIf(NO_SANDBOX !== '')(`reads a file through the sandboxed fs helper${NO_SANDBOX}`, async () => {
    const remote = await spawnExecServer({ command: [process.execPath, BIN, 'exec-server', '--listen', 'stdio'], cwd: work, env });
    const workUri = PathUri.fromNativePath(work, 'posix');
    const sandbox = FileSystemSandboxContext.parse({
      permissions: {
        type: 'managed',
        network: 'restricted',
        file_system: { type: 'restricted', entries: [{ path: { type: 'special', value: { kind: 'root' } }, access: 'read' }, { path: { type: 'path', path: workUri.toString() }, access: 'write' }] },
      },
      cwd: workUri.toString(),
      windowsSandboxLevel: 'disabled',
    });
    expect(await remote.fileSystem.readFileText(PathUri.fromNativePath(path.join(work, 'hello.txt'), 'posix'), { sandbox })).toBe('from skein');
    await remote.close();
  });

  it('refuses bad settings with an error that says what to change', async () => {
    const badListen = await skein(['exec-server', '--listen', 'ws://localhost:0']);
    expect(badListen.code).toBe(1);
    expect(badListen.stderr).toBe('error: invalid websocket --listen URL `ws://localhost:0`; expected `ws://IP:PORT`\n');
    const tokenWithoutAuth = await skein(['exec-server', '--ws-token-file', 'token']);
    expect(tokenWithoutAuth.code).toBe(1);
    expect(tokenWithoutAuth.stderr).toBe('error: `--ws-token-file` and `--ws-token-sha256` require `--ws-auth capability-token`\n');
    const authWithoutToken = await skein(['exec-server', '--ws-auth', 'capability-token']);
    expect(authWithoutToken.stderr).toMatch(/--ws-token-file` or `--ws-token-sha256` is required/);
    const missingFile = await skein(['exec-server', '--ws-auth', 'capability-token', '--ws-token-file', 'no-such-token']);
    expect(missingFile.code).toBe(1);
    expect(missingFile.stderr).toContain(path.join(work, 'no-such-token'));
    const badCount = await skein(['exec-server', '--concurrent-requests', '0']);
    expect(badCount.code).not.toBe(0);
    expect(badCount.stderr).toMatch(/expected a positive integer/);
  });
});
