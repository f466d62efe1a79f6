// Skein's exec-server next to the real `codex exec-server` (0.171.0): the same requests get answers of
// the same shape, the same error codes and, where Codex's wording is the contract, the same messages;
// and Skein's remote client works against Codex's server.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PathUri } from '@skein/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileSystemError, connectExecServer } from '../src/index.js';
import { resolveCodexBinary } from '@skein/test-support';
import { startServer, type RunningServer } from './exec-server-process.js';
import { RawConnection, type Received } from './raw-connection.js';

const codex = resolveCodexBinary(import.meta.url);
const SKIP = codex.missing === undefined ? '' : ` (skipped: ${codex.missing})`;
// Codex refuses to keep helper binaries under TMPDIR, so its home lives in the package.
const CODEX_HOME = path.join(import.meta.dirname, '..', '.codex-compat-home');

let scratch: string;
let codexServer: RunningServer;
let skeinServer: RunningServer;
let ours: RawConnection;
let theirs: RawConnection;

beforeAll(async () => {
  if (codex.binary === undefined) return;
  scratch = realpathSync(mkdtempSync(path.join(tmpdir(), 'skein-codex-compat-')));
  mkdirSync(path.join(scratch, 'dir/sub'), { recursive: true });
  writeFileSync(path.join(scratch, 'file.txt'), 'hello');
  symlinkSync('file.txt', path.join(scratch, 'link'));
  mkdirSync(CODEX_HOME, { recursive: true });
  codexServer = await startServer(['exec-server', '--listen', 'ws://127.0.0.1:0'], { command: [codex.binary], bin: null, env: { ...process.env, CODEX_HOME } });
  skeinServer = await startServer();
  [ours, theirs] = await Promise.all([RawConnection.initialized(skeinServer.url), RawConnection.initialized(codexServer.url)]);
});
afterAll(async () => {
  if (codex.binary === undefined) return;
  ours.close();
  theirs.close();
  await Promise.all([codexServer.stop(), skeinServer.stop()]);
  rmSync(scratch, { recursive: true, force: true });
  rmSync(CODEX_HOME, { recursive: true, force: true });
});

const uri = (relative: string) => PathUri.fromNativePath(path.join(scratch, relative), 'posix').toString();

/** The JSON type skeleton of a value: what must match between the two servers. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? [] : [shape(value[0])];
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([key, item]) => [key, shape(item)]));
  }
  return value === null ? 'null' : typeof value;
}

async function both(method: string, params: unknown): Promise<[Received, Received]> {
  return Promise.all([ours.call(method, params), theirs.call(method, params)]);
}

describe.skipIf(codex.missing !== undefined)(`next to codex exec-server 0.171.0${SKIP}`, () => {
  it('answers successful calls with results of the same shape', async () => {
    const cases: [string, unknown][] = [
      ['fs/getMetadata', { path: uri('file.txt') }],
      ['fs/getMetadata', { path: uri('link') }],
      ['fs/readFile', { path: uri('file.txt') }],
      ['fs/readDirectory', { path: uri('dir') }],
      ['fs/canonicalize', { path: uri('link') }],
      ['fs/walk', { path: uri(''), options: { maxDepth: 3, maxDirectories: 10, maxEntries: 10, followDirectorySymlinks: false } }],
      ['environment/info', {}],
      ['process/terminate', { processId: 'never' }],
      ['process/signal', { processId: 'never', signal: 'interrupt' }],
      ['process/write', { processId: 'never', chunk: '', writeId: 'w' }],
    ];
    for (const [method, params] of cases) {
      const [mine, codexAnswer] = await both(method, params);
      expect(codexAnswer.error, `${method} on codex`).toBeUndefined();
      const [ourShape, codexShape] = [shape(mine.result), shape(codexAnswer.result)] as Record<string, unknown>[];
      if (method === 'environment/info') {
        // Codex lists the directory of its own bundled helper binaries here; Skein has none.
        expect(ourShape!.prependPathDirs).toEqual([]);
        delete ourShape!.prependPathDirs;
        delete codexShape!.prependPathDirs;
      }
      expect(ourShape, method).toEqual(codexShape);
    }
    const [mine, codexAnswer] = await both('fs/readFile', { path: uri('file.txt') });
    expect(mine.result).toEqual(codexAnswer.result);
  });

  it('refuses bad calls with the same codes, and Codex’s words where they are the contract', async () => {
    const cases: [string, unknown, 'code' | 'message'][] = [
      ['fs/getMetadata', { path: uri('missing') }, 'message'],
      ['fs/getMetadata', { path: uri('link'), followSymlinks: false }, 'message'],
      ['fs/getMetadata', { path: path.join(scratch, 'file.txt') }, 'code'],
      ['fs/getMetadata', { path: 'file://server/share/x' }, 'code'],
      ['fs/getMetadata', {}, 'code'],
      ['fs/readFile', { path: uri('dir') }, 'message'],
      ['fs/readDirectory', { path: uri('file.txt') }, 'message'],
      ['fs/createDirectory', { path: uri('dir'), recursive: false }, 'message'],
      ['fs/createDirectory', { path: uri('file.txt'), recursive: true }, 'message'],
      ['fs/remove', { path: uri('dir'), recursive: false, force: false }, 'message'],
      ['fs/remove', { path: uri('missing'), recursive: false, force: false }, 'message'],
      ['fs/copy', { sourcePath: uri('dir'), destinationPath: uri('copy'), recursive: false }, 'message'],
      ['fs/copy', { sourcePath: uri('dir'), destinationPath: uri('dir/sub/x'), recursive: true }, 'message'],
      ['fs/writeFile', { path: uri('x'), dataBase64: '!!!' }, 'code'],
      ['fs/writeFile', { path: uri('dir'), dataBase64: 'aGk=' }, 'code'],
      ['fs/walk', { path: uri('') }, 'code'],
      ['fs/walk', { path: uri(''), options: { maxDepth: 1, maxDirectories: 0, maxEntries: 1, followDirectorySymlinks: false } }, 'message'],
      ['fs/walk', { path: uri(''), options: { maxDepth: 65, maxDirectories: 1, maxEntries: 1, followDirectorySymlinks: false } }, 'message'],
      ['fs/walk', { path: uri('missing'), options: { maxDepth: 1, maxDirectories: 1, maxEntries: 1, followDirectorySymlinks: false } }, 'message'],
      ['fs/readBlock', { handleId: 'nope', offset: 0, len: 10 }, 'message'],
      ['fs/open', { handleId: 'h'.repeat(33), path: uri('file.txt') }, 'message'],
      ['fs/open', { handleId: 'd', path: uri('dir') }, 'message'],
      ['process/start', { processId: 'e', argv: [], cwd: uri(''), env: {}, tty: false }, 'message'],
      ['process/start', { processId: 'e', argv: ['true'], cwd: 'relative', env: {}, tty: false }, 'code'],
      ['process/start', { processId: 'e', argv: ['/no/such/program'], cwd: uri(''), env: {}, tty: false }, 'code'],
      ['process/read', { processId: 'never' }, 'message'],
      ['process/signal', { processId: 'never', signal: 'kill' }, 'code'],
      ['initialize', { clientName: 'again' }, 'message'],
      ['no/such/method', {}, 'code'],
    ];
    for (const [method, params, compare] of cases) {
      const [mine, codexAnswer] = await both(method, params);
      const label = `${method} ${JSON.stringify(params)}`;
      expect(codexAnswer.error, `codex answered ${label}`).toBeDefined();
      expect(mine.error?.code, label).toBe(codexAnswer.error?.code);
      if (compare === 'message') expect(mine.error?.message, label).toBe(codexAnswer.error?.message);
    }
    const [mine, codexAnswer] = await both('process/start', { processId: 'spawn', argv: ['/no/such/program'], cwd: uri(''), env: {}, tty: false });
    expect((mine.error?.data as { kind?: string }).kind).toBe((codexAnswer.error?.data as { kind?: string }).kind);
  });

  it('numbers a process’s notifications the same way and reports the same read', async () => {
    const run = async (connection: RawConnection) => {
      await connection.call('process/start', { processId: 'seq', argv: ['sh', '-c', 'echo out; exit 4'], cwd: uri(''), env: { PATH: '/usr/bin:/bin' }, tty: false });
      const notifications: Received[] = [];
      for (;;) {
        const message = await connection.next((item) => typeof item.method === 'string' && (item.params as { processId?: string }).processId === 'seq');
        notifications.push(message);
        if (message.method === 'process/closed') break;
      }
      const read = await connection.call('process/read', { processId: 'seq' });
      return { notifications: notifications.map((item) => ({ method: item.method, params: item.params })), read: read.result };
    };
    const [mine, codexRun] = await Promise.all([run(ours), run(theirs)]);
    // Output and exit race inside either server (Codex's order varies under load too): each numbers
    // its notifications 1, 2, 3 in the order it sends them, ends with process/closed, and sends the
    // same notifications and the same read.
    const numbered = (result: typeof mine) => result.notifications.map((item) => (item.params as { seq: number }).seq);
    expect(numbered(mine)).toEqual(numbered(codexRun).map((_, index) => index + 1));
    expect(numbered(codexRun)).toEqual(numbered(mine).map((_, index) => index + 1));
    expect(mine.notifications.at(-1)?.method).toBe('process/closed');
    const unordered = (result: typeof mine) =>
      result.notifications
        .map(({ method, params }) => {
          const { seq: _seq, ...rest } = params as Record<string, unknown>;
          return JSON.stringify({ method, rest });
        })
        .sort();
    expect(unordered(mine)).toEqual(unordered(codexRun));
    const read = (result: typeof mine) => {
      const { chunks, ...rest } = result.read as { chunks: { seq: number }[] };
      return { ...rest, chunks: chunks.map(({ seq: _seq, ...chunk }) => chunk) };
    };
    expect(read(mine)).toEqual(read(codexRun));
  });

  it('lets Skein’s remote client use Codex’s server, with the same error classes', async () => {
    const remote = await connectExecServer({ url: codexServer.url });
    expect(await remote.fileSystem.readFileText(PathUri.parse(uri('file.txt')))).toBe('hello');
    expect(await remote.fileSystem.getMetadata(PathUri.parse(uri('link')))).toMatchObject({ isFile: true, isSymlink: true, size: 5 });
    const chunks: Uint8Array[] = [];
    for await (const chunk of remote.fileSystem.readFileStream(PathUri.parse(uri('file.txt')))) chunks.push(chunk);
    expect(Buffer.concat(chunks).toString()).toBe('hello');
    for (const [call, code] of [
      [remote.fileSystem.readFile(PathUri.parse(uri('missing'))), 'NotFound'],
      [remote.fileSystem.readFile(PathUri.parse(uri('dir'))), 'NotAFile'],
      [remote.fileSystem.createDirectory(PathUri.parse(uri('dir'))), 'AlreadyExists'],
      [remote.fileSystem.remove(PathUri.parse(uri('dir'))), 'DirectoryNotEmpty'],
    ] as const) {
      const error = await call.then(() => undefined, (thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(FileSystemError);
      expect((error as FileSystemError).code).toBe(code);
    }
    await remote.close();
  });
});
