// Nothing outlives its client: processes die when a WebSocket client vanishes, when the server is told
// to stop, and when a stdio client closes the server's input.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PathUri } from '@skein/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnExecServer } from '../src/index.js';
import { TEST_ENV, eventually, pidAlive } from './conformance/harness.js';
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
