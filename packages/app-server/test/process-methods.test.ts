// `process/spawn|writeStdin|resizePty|kill` against a real AppServer and real processes: the answer
// once the process runs, `process/outputDelta` and `process/exited`, PTYs, handle reuse, experimental
// gating, Codex 0.171.0's errors, and no process outliving its connection or the server.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { AppServerTestClient } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, startInProcess, type InProcessServer, type TestHome } from './support/app-server-harness.js';
import { b64, deltasOf, streamText, waitForPidGone, waitForText } from './support/standalone-output.js';

const DELTA = 'process/outputDelta';

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

function exitedOf(handle: string): Promise<unknown> {
  return client.waitFor('process/exited', (params) => (params as { processHandle: string }).processHandle === handle, 20_000);
}

describe('process/*', () => {
  it('answers once the process runs, then reports its buffered output in process/exited; it runs unsandboxed, as in Codex', async () => {
    const outside = path.join(home.home, 'written-by-spawn.txt');
    const spawned = await client.request('process/spawn', {
      command: ['sh', '-c', `echo out; echo err >&2; touch '${outside}'; echo "$ADDED"; exit 3`],
      processHandle: 'buffered',
      cwd: home.workspace,
      env: { ADDED: 'added' },
    });
    expect(spawned).toEqual({});
    expect(await exitedOf('buffered')).toEqual({
      processHandle: 'buffered',
      exitCode: 3,
      outputDrainTimedOut: false,
      stdout: 'out\nadded\n',
      stdoutCapReached: false,
      stderr: 'err\n',
      stderrCapReached: false,
    });
    expect(existsSync(outside)).toBe(true);
  });

  it('streams deltas before process/exited, caps each stream and frees the handle for reuse', async () => {
    await client.request('process/spawn', {
      command: ['sh', '-c', 'printf %0300d 0; echo err >&2'],
      processHandle: 'streamed',
      cwd: home.workspace,
      streamStdoutStderr: true,
      outputBytesCap: 100,
    });
    const exited = await exitedOf('streamed');
    expect(exited).toEqual({
      processHandle: 'streamed',
      exitCode: 0,
      outputDrainTimedOut: false,
      stdout: '',
      stdoutCapReached: true,
      stderr: '',
      stderrCapReached: false,
    });
    expect(streamText(client, DELTA, 'streamed')).toBe('0'.repeat(100));
    expect(streamText(client, DELTA, 'streamed', 'stderr')).toBe('err\n');
    expect(deltasOf(client, DELTA, 'streamed').filter((delta) => delta.stream === 'stdout').at(-1)?.capReached).toBe(true);

    await client.request('process/spawn', { command: ['sh', '-c', 'exit 5'], processHandle: 'streamed', cwd: home.workspace });
    await expect.poll(() => client.notificationsOf('process/exited').filter((params) => (params as { exitCode: number }).exitCode === 5).length).toBe(1);
  });

  it('writes stdin, closes it, resizes a PTY and kills it (exit 137), and times out with 124', async () => {
    await client.request('process/spawn', { command: ['sh', '-c', 'read x; echo "got $x"; cat'], processHandle: 'pipe', cwd: home.workspace, streamStdin: true });
    await client.request('process/writeStdin', { processHandle: 'pipe', deltaBase64: b64('hello\n') });
    await client.request('process/writeStdin', { processHandle: 'pipe', deltaBase64: b64('more\n'), closeStdin: true });
    expect(await exitedOf('pipe')).toMatchObject({ exitCode: 0, stdout: 'got hello\nmore\n' });

    await client.request('process/spawn', {
      command: ['sh', '-c', 'stty size; read x; stty size; sleep 60'],
      processHandle: 'tty',
      cwd: home.workspace,
      tty: true,
      size: { rows: 30, cols: 100 },
    });
    await waitForText(client, DELTA, 'tty', '30 100');
    expect(await client.request('process/resizePty', { processHandle: 'tty', size: { rows: 40, cols: 120 } })).toEqual({});
    await client.request('process/writeStdin', { processHandle: 'tty', deltaBase64: b64('\r') });
    await waitForText(client, DELTA, 'tty', '40 120');
    expect(await client.request('process/kill', { processHandle: 'tty' })).toEqual({});
    expect(await exitedOf('tty')).toMatchObject({ exitCode: 137, stdout: '', stderr: '' });
    expect(await client.requestReply('process/kill', { processHandle: 'tty' })).toEqual({ error: { code: -32600, message: 'no active process for process handle "tty"' } });

    await client.request('process/spawn', { command: ['sh', '-c', 'echo early; sleep 60'], processHandle: 'slow', cwd: home.workspace, timeoutMs: 200 });
    expect(await exitedOf('slow')).toMatchObject({ exitCode: 124, stdout: 'early\n' });
  });

  it('answers bad requests with Codex’s codes and messages', async () => {
    const cwd = home.workspace;
    const spawnCases: [unknown, number, string][] = [
      [{ command: ['true'], cwd }, -32600, 'Invalid request: missing field `processHandle`'],
      [{ command: ['true'], processHandle: 'x' }, -32600, 'Invalid request: missing field `cwd`'],
      [{ command: ['true'], processHandle: 'x', cwd: 'relative' }, -32600, 'Invalid request: AbsolutePathBuf deserialized without a base path'],
      [{ command: [], processHandle: 'x', cwd }, -32600, 'command must not be empty'],
      [{ command: ['true'], processHandle: '', cwd }, -32600, 'processHandle must not be empty'],
      [{ command: ['true'], processHandle: 'x', cwd, size: { rows: 5, cols: 5 } }, -32602, 'process/spawn size requires tty: true'],
      [{ command: ['no-such-program-skein'], processHandle: 'x', cwd }, -32603, 'failed to spawn process: No such file or directory (os error 2)'],
      [{ command: ['true'], processHandle: 'x', cwd: '/no/such/dir' }, -32603, 'failed to spawn process: No such file or directory (os error 2)'],
    ];
    for (const [params, code, message] of spawnCases) expect(await client.requestReply('process/spawn', params), JSON.stringify(params)).toEqual({ error: { code, message } });

    await client.request('process/spawn', { command: ['sleep', '60'], processHandle: 'quiet', cwd });
    const followUps: [string, unknown, number, string][] = [
      ['process/spawn', { command: ['true'], processHandle: 'quiet', cwd }, -32600, 'duplicate active process handle: "quiet"'],
      ['process/writeStdin', { processHandle: 'nope', deltaBase64: b64('x') }, -32600, 'no active process for process handle "nope"'],
      ['process/resizePty', { processHandle: 'nope', size: { rows: 5, cols: 5 } }, -32600, 'no active process for process handle "nope"'],
      ['process/kill', { processHandle: 'nope' }, -32600, 'no active process for process handle "nope"'],
      ['process/writeStdin', { processHandle: 'quiet' }, -32602, 'process/writeStdin requires deltaBase64 or closeStdin'],
      ['process/writeStdin', { processHandle: 'quiet', deltaBase64: '!!' }, -32602, 'invalid deltaBase64: Invalid symbol 33, offset 0.'],
      ['process/writeStdin', { processHandle: 'quiet', deltaBase64: b64('x') }, -32600, 'stdin streaming is not enabled for this process'],
      ['process/resizePty', { processHandle: 'quiet', size: { rows: 0, cols: 5 } }, -32602, 'process size rows and cols must be greater than 0'],
      ['process/resizePty', { processHandle: 'quiet', size: { rows: 5, cols: 5 } }, -32600, 'failed to resize PTY: process is not attached to a PTY'],
    ];
    for (const [method, params, code, message] of followUps) expect(await client.requestReply(method, params), `${method} ${JSON.stringify(params)}`).toEqual({ error: { code, message } });
    await client.request('process/kill', { processHandle: 'quiet' });
    expect(await exitedOf('quiet')).toMatchObject({ exitCode: 137 });
  });

  it('requires the experimentalApi capability', async () => {
    const plain = await server.connect('stdio');
    await plain.initialize({ capabilities: { experimentalApi: false } });
    for (const method of ['process/spawn', 'process/writeStdin', 'process/kill']) {
      const params = method === 'process/spawn' ? { command: ['true'], processHandle: 'x', cwd: home.workspace } : { processHandle: 'x' };
      expect(await plain.requestReply(method, params)).toEqual({ error: { code: -32600, message: `${method} requires experimentalApi capability` } });
    }
    await plain.close();
  });

  it('kills a connection’s processes when it disconnects, and every process when the server stops', async () => {
    const other = await server.connect('websocket');
    await other.initialize();
    const command = { command: ['sh', '-c', 'echo $$; exec sleep 60'], processHandle: 'same', cwd: home.workspace, streamStdoutStderr: true, timeoutMs: null };
    await other.request('process/spawn', command);
    await client.request('process/spawn', command);
    await waitForText(other, DELTA, 'same', '\n');
    await waitForText(client, DELTA, 'same', '\n');
    const otherPid = Number(streamText(other, DELTA, 'same').trim());
    const clientPid = Number(streamText(client, DELTA, 'same').trim());
    await other.close();
    await waitForPidGone(otherPid);
    expect(() => process.kill(clientPid, 0)).not.toThrow();
    // The AppServer itself (the harness's close also waits for the stdio client to hang up).
    await server.server.close();
    await waitForPidGone(clientPid);
  });
});
