// Nothing outlives its client: processes die when a WebSocket client vanishes, when the server is told
// to stop, and when a stdio client closes the server's input.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Socket } from 'node:net';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PathUri } from '@skein/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectExecServer, ExecServerClientError, spawnExecServer, type ProcessEvent } from '../src/index.js';
import { SANDBOX, SANDBOX_SKIP, TEST_ENV, eventually, pidAlive } from './conformance/harness.js';
import { SERVER_BIN, startServer, type RunningServer } from './exec-server-process.js';
import { RawConnection } from './raw-connection.js';

let scratch: string;
let server: RunningServer | undefined;
beforeEach(() => {
  scratch = realpathSync(mkdtempSync(path.join(tmpdir(), 'skein-lifecycle-')));
});
afterEach(async () => {
  await server?.stop();
  server = undefined;
  rmSync(scratch, { recursive: true, force: true });
});

const cwd = () => PathUri.fromNativePath(scratch, 'posix').toString();

/** Starts `echo $$; exec sleep 300` and returns the sleeping pid, read from its output notification. */
async function startSleeper(connection: RawConnection, processId: string, tty: boolean): Promise<number> {
  const answer = await connection.call('process/start', { processId, argv: ['sh', '-c', 'echo $$; exec sleep 300'], cwd: cwd(), env: TEST_ENV, tty });
  expect(answer.result).toMatchObject({ processId });
  const output = await connection.next((message) => message.method === 'process/output' && (message.params as { processId: string }).processId === processId);
  return Number(Buffer.from((output.params as { chunk: string }).chunk, 'base64').toString('utf8').trim());
}

describe('process lifetime', () => {
  it('kills a client’s processes when its connection drops without a goodbye', async () => {
    server = await startServer();
    const connection = await RawConnection.initialized(server.url);
    const pids = [await startSleeper(connection, 'pipe', false), await startSleeper(connection, 'tty', true)];
    expect(pids.every(pidAlive)).toBe(true);
    connection.close();
    await eventually(() => pids.every((pid) => !pidAlive(pid)));
  });

  it('keeps other clients’ processes running when one client goes away', async () => {
    server = await startServer();
    const leaving = await RawConnection.initialized(server.url);
    const staying = await RawConnection.initialized(server.url);
    const gone = await startSleeper(leaving, 'a', false);
    const kept = await startSleeper(staying, 'b', false);
    leaving.close();
    await eventually(() => !pidAlive(gone));
    expect(pidAlive(kept)).toBe(true);
    // The survivor's process is untouched and still readable.
    expect((await staying.call('process/read', { processId: 'b' })).result).toMatchObject({ exited: false });
    staying.close();
    await eventually(() => !pidAlive(kept));
  });

  it('kills every client’s processes when the server is told to stop', async () => {
    server = await startServer();
    const connection = await RawConnection.initialized(server.url);
    const pid = await startSleeper(connection, 'p', false);
    await server.stop();
    expect(server.child.exitCode).toBe(0);
    await eventually(() => !pidAlive(pid));
  });
});

describe('a connection that dies', () => {
  it('reports each running process `lost` and fails the requests in flight, rather than leave them waiting', async () => {
    server = await startServer();
    const remote = await connectExecServer({ url: server.url });
    const events: ProcessEvent[] = [];
    remote.processes.subscribe((event) => events.push(event));
    const at = PathUri.fromNativePath(scratch, 'posix');
    await remote.processes.start({ processId: 'running', argv: ['sh', '-c', 'echo $$; exec sleep 300'], cwd: at, env: TEST_ENV, tty: false });
    await remote.processes.start({ processId: 'done', argv: ['true'], cwd: at, env: TEST_ENV, tty: false });
    await eventually(() => events.some((event) => event.type === 'output' && event.processId === 'running') && events.some((event) => event.type === 'closed' && event.processId === 'done'));
    const waiting = remote.processes.read('running', { afterSeq: 1, waitMs: 10_000 });
    server.child.kill('SIGKILL');
    await expect(waiting).rejects.toSatisfy((error) => error instanceof ExecServerClientError && error.code === 'ConnectionClosed');
    await eventually(() => events.some((event) => event.type === 'lost'));
    const lost = events.filter((event) => event.type === 'lost');
    expect(lost.map((event) => event.processId)).toEqual(['running']);
    expect(lost[0]?.type === 'lost' ? lost[0].reason : '').toMatch(/^the exec-server connection closed: WebSocket closed \(\d+/);
    await expect(remote.processes.start({ processId: 'later', argv: ['true'], cwd: at, env: TEST_ENV, tty: false })).rejects.toMatchObject({ code: 'ConnectionClosed' });
    // Nothing is left to wait for: closing the dead client returns at once.
    await remote.close();
    // The server died without ending it: the orphan is this test's to end.
    const output = events.find((event) => event.type === 'output' && event.processId === 'running');
    process.kill(Number(Buffer.from(output?.type === 'output' ? output.chunk : new Uint8Array()).toString('utf8').trim()), 'SIGKILL');
  });
});

describe('a connection that goes silent', () => {
  it('is dropped when keep-alive pings get no answer, and its processes are reported lost', async () => {
    server = await startServer();
    const target = new URL(server.url);
    // Forwards both ways until frozen, then holds both sockets open and passes nothing: a vanished machine.
    let frozen = false;
    const sockets = new Set<Socket>();
    const proxy = createServer((inbound) => {
      const upstream = connect(Number(target.port), target.hostname);
      for (const socket of [inbound, upstream]) {
        sockets.add(socket);
        socket.on('error', () => undefined);
      }
      inbound.on('data', (chunk: Buffer) => frozen || upstream.write(chunk));
      upstream.on('data', (chunk: Buffer) => frozen || inbound.write(chunk));
      inbound.on('close', () => upstream.destroy());
      upstream.on('close', () => inbound.destroy());
    });
    proxy.listen(0, '127.0.0.1');
    await once(proxy, 'listening');
    // A second between pings: a busy CI machine may stall the event loop for a good part of one.
    const remote = await connectExecServer({ url: `ws://127.0.0.1:${(proxy.address() as { port: number }).port}`, keepAliveIntervalMs: 1000 });
    const events: ProcessEvent[] = [];
    remote.processes.subscribe((event) => events.push(event));
    await remote.processes.start({ processId: 'p', argv: ['sh', '-c', 'echo up; exec sleep 300'], cwd: PathUri.fromNativePath(scratch, 'posix'), env: TEST_ENV, tty: false });
    await eventually(() => events.some((event) => event.type === 'output'));
    // Several intervals of pings answered: a quiet but live connection stays.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(remote.client.closed).toBe(false);

    frozen = true;
    const waiting = remote.processes.read('p', { afterSeq: 1, waitMs: 10_000 });
    await expect(waiting).rejects.toMatchObject({ code: 'ConnectionClosed', message: 'the exec-server connection closed: no answer from the exec-server to a keep-alive ping within 1000 ms' });
    expect(events.filter((event) => event.type === 'lost').map((event) => event.processId)).toEqual(['p']);
    // The proxy passes the client's going on: the server ends the connection's processes.
    await eventually(() => [...sockets].every((socket) => socket.destroyed));
    proxy.close();
  });
});

describe('stdio transport', () => {
  it('serves one client on stdin/stdout and ends it, with its processes, when input closes', async () => {
    writeFileSync(path.join(scratch, 'hello.txt'), 'over stdio');
    const remote = await spawnExecServer({ command: [process.execPath, SERVER_BIN, '--listen', 'stdio'], cwd: scratch });
    expect(await remote.fileSystem.readFileText(PathUri.fromNativePath(path.join(scratch, 'hello.txt'), 'posix'))).toBe('over stdio');
    const outputs: string[] = [];
    remote.processes.subscribe((event) => {
      if (event.type === 'output') outputs.push(Buffer.from(event.chunk).toString('utf8'));
    });
    await remote.processes.start({ processId: 'p', argv: ['sh', '-c', 'echo $$; exec sleep 300'], cwd: PathUri.fromNativePath(scratch, 'posix'), env: TEST_ENV, tty: false });
    await eventually(() => /\d+/.test(outputs.join('')));
    const pid = Number(outputs.join('').trim());
    await remote.close();
    await eventually(() => !pidAlive(pid));
  });
});

// A container may run an uid with no passwd entry (OpenShift assigns one): os.userInfo() throws there.
// Here the server runs with an empty /etc/passwd bound over the real one (bubblewrap), so its uid has none.
const BWRAP = SANDBOX.available && SANDBOX.platform === 'linux' ? SANDBOX.bwrapPath : undefined;
describe.skipIf(BWRAP === undefined)(`a user without a passwd entry${BWRAP === undefined ? SANDBOX_SKIP || ' (skipped: needs bubblewrap)' : ''}`, () => {
  it('still answers initialize, with $HOME as the home and the POSIX shell', async () => {
    const home = path.join(scratch, 'home');
    mkdirSync(home);
    const emptyPasswd = path.join(scratch, 'passwd');
    writeFileSync(emptyPasswd, '');
    server = await startServer(['--listen', 'ws://127.0.0.1:0'], {
      command: [BWRAP!, '--unshare-user', '--uid', '4242', '--gid', '4242', '--dev-bind', '/', '/', '--ro-bind', emptyPasswd, '/etc/passwd', '--', process.execPath],
      env: { PATH: process.env.PATH, HOME: home },
    });
    const connection = await RawConnection.open(server.url);
    const answer = await connection.call('initialize', { clientName: 'raw-test' });
    const info = (answer.result as { environmentInfo: { userHomeDir: string; shell: { path: string } } }).environmentInfo;
    expect(info.userHomeDir).toBe(PathUri.fromNativePath(home, 'posix').toString());
    expect(info.shell.path).toBe('/bin/sh');
    connection.close();
  });
});
