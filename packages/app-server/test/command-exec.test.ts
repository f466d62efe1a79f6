// `command/exec` and its follow-ups against a real AppServer and real processes (PTYs, pipes,
// bubblewrap): buffered and streamed output, stdin, resize, terminate, timeouts, caps, the sandbox and
// Codex 0.171.0's error answers. The client validates every message against Codex's schema.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { probeSandbox } from '@skein/sandboxing';
import { probeSandboxForTests, type AppServerTestClient } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, startInProcess, type InProcessServer, type TestHome } from './support/app-server-harness.js';
import { b64, deltasOf, streamText, waitForPidGone, waitForText } from './support/standalone-output.js';

const { skip: NO_SANDBOX } = await probeSandboxForTests(() => probeSandbox({ env: process.env, cwd: process.cwd() }));
const DELTA = 'command/exec/outputDelta';
// Most scenarios are about the protocol, not confinement: they run unsandboxed so they need no bubblewrap.
const UNSANDBOXED = { sandboxPolicy: { type: 'dangerFullAccess' } } as const;

let home: TestHome;
let server: InProcessServer;
let client: AppServerTestClient;

beforeEach(async () => {
  home = makeHome();
  server = await startInProcess(home);
  client = await server.connect('stdio');
  await client.initialize();
});
afterEach(async () => {
  await client.close();
  await server.close();
  home.cleanup();
});

describe('command/exec', () => {
  it('answers a command’s buffered stdout, stderr and exit code, in a cwd relative to the server’s, with env overrides', async () => {
    mkdirSync(path.join(home.workspace, 'sub'));
    process.env.SKEIN_CMDEXEC_INHERITED = 'inherited';
    try {
      const result = await client.request('command/exec', {
        command: ['sh', '-c', 'echo out; echo err >&2; pwd; echo "$ADDED-${SKEIN_CMDEXEC_INHERITED:-unset}"; exit 3'],
        cwd: 'sub',
        env: { ADDED: 'added', SKEIN_CMDEXEC_INHERITED: null },
        ...UNSANDBOXED,
      });
      expect(result).toEqual({ exitCode: 3, stdout: `out\n${path.join(home.workspace, 'sub')}\nadded-unset\n`, stderr: 'err\n' });
    } finally {
      delete process.env.SKEIN_CMDEXEC_INHERITED;
    }
  });

  it('keeps the first outputBytesCap bytes of each stream and reports a timeout as exit code 124', async () => {
    const capped = await client.request('command/exec', { command: ['sh', '-c', 'printf %0300d 0; printf %050d 0 >&2'], outputBytesCap: 10, ...UNSANDBOXED });
    expect(capped).toEqual({ exitCode: 0, stdout: '0000000000', stderr: '0000000000' });
    const uncapped = (await client.request('command/exec', { command: ['sh', '-c', 'head -c 2000000 /dev/zero'], disableOutputCap: true, ...UNSANDBOXED })) as { stdout: string };
    expect(uncapped.stdout.length).toBe(2_000_000);
    const defaultCap = (await client.request('command/exec', { command: ['sh', '-c', 'head -c 2000000 /dev/zero'], ...UNSANDBOXED })) as { stdout: string };
    expect(defaultCap.stdout.length).toBe(1024 * 1024);
    expect(await client.request('command/exec', { command: ['sleep', '60'], timeoutMs: 200, ...UNSANDBOXED })).toEqual({ exitCode: 124, stdout: '', stderr: '' });
  });

  it('streams output as base64 deltas that all arrive before the answer, which then holds no output', async () => {
    const result = await client.request('command/exec', {
      command: ['sh', '-c', 'echo out; echo err >&2; printf %02000d 0; exit 2'],
      processId: 'streamed',
      streamStdoutStderr: true,
      outputBytesCap: 1000,
      ...UNSANDBOXED,
    });
    expect(result).toEqual({ exitCode: 2, stdout: '', stderr: '' });
    expect(streamText(client, DELTA, 'streamed', 'stderr')).toBe('err\n');
    const stdout = deltasOf(client, DELTA, 'streamed').filter((delta) => delta.stream === 'stdout');
    expect(streamText(client, DELTA, 'streamed')).toBe(`out\n${'0'.repeat(996)}`);
    // Only the chunk that reached the cap says so, and nothing follows it.
    expect(stdout.map((delta) => delta.capReached)).toEqual([...stdout.slice(1).map(() => false), true]);
  });

  it('writes stdin to a PTY, resizes it and terminates it; the id is free again afterwards', async () => {
    const running = client.request('command/exec', {
      command: ['sh', '-c', 'stty size; read x; stty size; read y; echo "got $y"; sleep 60'],
      processId: 'tty',
      tty: true,
      size: { rows: 30, cols: 100 },
      ...UNSANDBOXED,
    });
    await waitForText(client, DELTA, 'tty', '30 100');
    expect(await client.request('command/exec/resize', { processId: 'tty', size: { rows: 40, cols: 120 } })).toEqual({});
    expect(await client.request('command/exec/write', { processId: 'tty', deltaBase64: b64('\r') })).toEqual({});
    await waitForText(client, DELTA, 'tty', '40 120');
    expect(await client.requestReply('command/exec', { command: ['true'], processId: 'tty', ...UNSANDBOXED })).toEqual({
      error: { code: -32600, message: 'duplicate active command/exec process id: "tty"' },
    });
    await client.request('command/exec/write', { processId: 'tty', deltaBase64: b64('hello\r') });
    await waitForText(client, DELTA, 'tty', 'got hello');
    expect(await client.request('command/exec/terminate', { processId: 'tty' })).toEqual({});
    expect(await running).toEqual({ exitCode: 137, stdout: '', stderr: '' });
    expect(deltasOf(client, DELTA, 'tty').every((delta) => delta.stream === 'stdout')).toBe(true);
    expect(await client.requestReply('command/exec/terminate', { processId: 'tty' })).toEqual({
      error: { code: -32600, message: 'no active command/exec for process id "tty"' },
    });
    expect(await client.request('command/exec', { command: ['true'], processId: 'tty', ...UNSANDBOXED })).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });

  it('closes a piped command’s stdin after the last write', async () => {
    const running = client.request('command/exec', {
      command: ['sh', '-c', 'echo ready; read x; echo "got $x"; cat'],
      processId: 'pipe',
      streamStdin: true,
      streamStdoutStderr: true,
      ...UNSANDBOXED,
    });
    // Follow-ups address a command once it runs; its first output says it does.
    await waitForText(client, DELTA, 'pipe', 'ready');
    await client.request('command/exec/write', { processId: 'pipe', deltaBase64: b64('hello\n') });
    await client.request('command/exec/write', { processId: 'pipe', deltaBase64: b64('more\n'), closeStdin: true });
    expect(await running).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(streamText(client, DELTA, 'pipe')).toBe('ready\ngot hello\nmore\n');
    expect(await client.requestReply('command/exec/write', { processId: 'pipe', deltaBase64: b64('late') })).toEqual({
      error: { code: -32600, message: 'no active command/exec for process id "pipe"' },
    });
  });

  it('answers bad requests with Codex’s codes and messages', async () => {
    const cases: [unknown, number, string][] = [
      [{}, -32600, 'Invalid request: missing field `command`'],
      [{ command: [] }, -32600, 'command must not be empty'],
      [{ command: ['true'], tty: true }, -32600, 'command/exec tty or streaming requires a client-supplied processId'],
      [{ command: ['true'], streamStdin: true }, -32600, 'command/exec tty or streaming requires a client-supplied processId'],
      [{ command: ['true'], streamStdoutStderr: true }, -32600, 'command/exec tty or streaming requires a client-supplied processId'],
      [{ command: ['true'], processId: 'p', size: { rows: 5, cols: 5 } }, -32602, 'command/exec size requires tty: true'],
      [{ command: ['true'], processId: 'p', tty: true, size: { rows: 0, cols: 5 } }, -32602, 'command/exec size rows and cols must be greater than 0'],
      [{ command: ['true'], timeoutMs: 5, disableTimeout: true }, -32602, 'command/exec cannot set both timeoutMs and disableTimeout'],
      [{ command: ['true'], outputBytesCap: 5, disableOutputCap: true }, -32602, 'command/exec cannot set both outputBytesCap and disableOutputCap'],
      [{ command: ['true'], timeoutMs: -5 }, -32602, 'command/exec timeoutMs must be non-negative, got -5'],
      [{ command: ['true'], sandboxPolicy: { type: 'dangerFullAccess' }, permissionProfile: ':read-only' }, -32600, '`permissionProfile` cannot be combined with `sandboxPolicy`'],
      [{ command: ['true'], permissionProfile: 'custom' }, -32600, 'invalid permission profile: default_permissions requires a `[permissions]` table'],
      [{ command: ['no-such-program-skein'], ...UNSANDBOXED }, -32603, 'failed to spawn command: No such file or directory (os error 2)'],
      [{ command: ['true'], cwd: '/no/such/dir', ...UNSANDBOXED }, -32603, 'failed to spawn command: No such file or directory (os error 2)'],
    ];
    for (const [params, code, message] of cases) expect(await client.requestReply('command/exec', params), JSON.stringify(params)).toEqual({ error: { code, message } });

    const running = client.request('command/exec', { command: ['sh', '-c', 'echo ready; exec sleep 60'], processId: 'quiet', streamStdoutStderr: true, ...UNSANDBOXED });
    const followUps: [string, unknown, number, string][] = [
      ['command/exec/write', { processId: 'nope', deltaBase64: b64('x') }, -32600, 'no active command/exec for process id "nope"'],
      ['command/exec/resize', { processId: 'nope', size: { rows: 5, cols: 5 } }, -32600, 'no active command/exec for process id "nope"'],
      ['command/exec/terminate', { processId: 'nope' }, -32600, 'no active command/exec for process id "nope"'],
      ['command/exec/write', {}, -32600, 'Invalid request: missing field `processId`'],
      ['command/exec/write', { processId: 'quiet' }, -32602, 'command/exec/write requires deltaBase64 or closeStdin'],
      ['command/exec/write', { processId: 'quiet', deltaBase64: '!!!' }, -32602, 'invalid deltaBase64: Invalid symbol 33, offset 0.'],
      ['command/exec/write', { processId: 'quiet', deltaBase64: 'eA' }, -32602, 'invalid deltaBase64: Invalid padding'],
      ['command/exec/write', { processId: 'quiet', deltaBase64: b64('x') }, -32600, 'stdin streaming is not enabled for this command/exec'],
      ['command/exec/resize', { processId: 'quiet' }, -32600, 'Invalid request: missing field `size`'],
      ['command/exec/resize', { processId: 'quiet', size: { rows: 0, cols: 0 } }, -32602, 'command/exec size rows and cols must be greater than 0'],
      ['command/exec/resize', { processId: 'quiet', size: { rows: 5, cols: 5 } }, -32600, 'failed to resize PTY: process is not attached to a PTY'],
    ];
    await waitForText(client, DELTA, 'quiet', 'ready');
    for (const [method, params, code, message] of followUps) expect(await client.requestReply(method, params), `${method} ${JSON.stringify(params)}`).toEqual({ error: { code, message } });
    await client.request('command/exec/terminate', { processId: 'quiet' });
    expect(await running).toEqual({ exitCode: 137, stdout: '', stderr: '' });
  });

  it('kills a connection’s commands when it disconnects, and leaves other connections’ alone', async () => {
    const other = await server.connect('websocket');
    await other.initialize();
    const command = { command: ['sh', '-c', 'echo $$; exec sleep 60'], processId: 'same-id', streamStdoutStderr: true, disableTimeout: true, ...UNSANDBOXED };
    const doomed = other.requestReply('command/exec', command);
    const kept = client.request('command/exec', command);
    await waitForText(other, DELTA, 'same-id', '\n');
    await waitForText(client, DELTA, 'same-id', '\n');
    const doomedPid = Number(streamText(other, DELTA, 'same-id').trim());
    const keptPid = Number(streamText(client, DELTA, 'same-id').trim());
    await other.close();
    await doomed.catch(() => undefined);
    await waitForPidGone(doomedPid);
    expect(() => process.kill(keptPid, 0)).not.toThrow();
    await client.request('command/exec/terminate', { processId: 'same-id' });
    expect(await kept).toEqual({ exitCode: 137, stdout: '', stderr: '' });
  });
});

describe.skipIf(NO_SANDBOX !== '')(`command/exec in the sandbox${NO_SANDBOX}`, () => {
  it('runs under the configured sandbox by default (read-only here): a write in the workspace is refused', async () => {
    const target = path.join(home.workspace, 'refused.txt');
    const result = (await client.request('command/exec', { command: ['sh', '-c', `touch '${target}'; echo "rc=$?"; echo "net=$CODEX_SANDBOX_NETWORK_DISABLED"`] })) as {
      exitCode: number;
      stdout: string;
      stderr: string;
    };
    expect(result.stdout).toBe('rc=1\nnet=1\n');
    expect(result.stderr).toContain('Read-only file system');
    expect(existsSync(target)).toBe(false);
  });

  it('lets a workspaceWrite command write in its cwd and refuses a write outside the workspace', async () => {
    const inside = path.join(home.workspace, 'inside.txt');
    const outside = path.join(home.home, 'outside.txt');
    const result = (await client.request('command/exec', {
      command: ['sh', '-c', `touch '${inside}'; echo "in=$?"; touch '${outside}'; echo "out=$?"`],
      sandboxPolicy: { type: 'workspaceWrite', excludeSlashTmp: true, excludeTmpdirEnvVar: true },
    })) as { stdout: string; stderr: string };
    expect(result.stdout).toBe('in=0\nout=1\n');
    expect(result.stderr).toContain('Read-only file system');
    expect(existsSync(inside)).toBe(true);
    expect(existsSync(outside)).toBe(false);
  });
});
