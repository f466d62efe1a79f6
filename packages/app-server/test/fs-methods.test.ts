// The `fs/*` methods over stdio and WebSocket against the built binary: shapes, defaults and the
// error codes Codex 0.171.0 answers with (CODEX-FACTS §12.10). Every message is schema-checked.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AppServerTestClient } from '@skein/test-support';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeHome, spawnStdioClient, startWebSocketProcess, TOKEN, type TestHome, type Transport, type WebSocketProcess } from './support/app-server-harness.js';

const b64 = (text: string): string => Buffer.from(text).toString('base64');

describe.each<Transport>(['stdio', 'websocket'])('fs/* over %s', (transport) => {
  let home: TestHome;
  let wsServer: WebSocketProcess | undefined;
  let client: AppServerTestClient;

  beforeAll(async () => {
    home = makeHome();
    if (transport === 'websocket') wsServer = await startWebSocketProcess(home);
  });
  afterAll(async () => {
    await wsServer?.stop();
    home.cleanup();
  });
  afterEach(async () => {
    await client.close();
  });

  async function connect(): Promise<AppServerTestClient> {
    client = wsServer === undefined ? spawnStdioClient(home) : await AppServerTestClient.connectWebSocket(wsServer.url, { token: TOKEN });
    await client.initialize();
    return client;
  }

  it('writes, reads back, describes, lists, copies and removes files', async () => {
    const c = await connect();
    const dir = path.join(home.workspace, `${transport}-tree`);
    const file = path.join(dir, 'hello.txt');

    expect(await c.request('fs/createDirectory', { path: path.join(dir, 'nested', 'deeper') })).toEqual({});
    expect(await c.request('fs/writeFile', { path: file, dataBase64: b64('hi there') })).toEqual({});
    expect(readFileSync(file, 'utf8')).toBe('hi there');
    expect(await c.request('fs/readFile', { path: file })).toEqual({ dataBase64: b64('hi there') });

    const metadata = (await c.request('fs/getMetadata', { path: file })) as Record<string, unknown>;
    expect(metadata).toMatchObject({ isDirectory: false, isFile: true, isSymlink: false });
    expect(Object.keys(metadata).sort()).toEqual(['createdAtMs', 'isDirectory', 'isFile', 'isSymlink', 'modifiedAtMs']);

    const listing = (await c.request('fs/readDirectory', { path: dir })) as { entries: { fileName: string }[] };
    expect(listing.entries.toSorted((a, b) => a.fileName.localeCompare(b.fileName))).toEqual([
      { fileName: 'hello.txt', isDirectory: false, isFile: true },
      { fileName: 'nested', isDirectory: true, isFile: false },
    ]);

    const copy = path.join(home.workspace, `${transport}-copy.txt`);
    expect(await c.request('fs/copy', { sourcePath: file, destinationPath: copy })).toEqual({});
    expect(readFileSync(copy, 'utf8')).toBe('hi there');
    const treeCopy = path.join(home.workspace, `${transport}-tree-copy`);
    expect(await c.request('fs/copy', { sourcePath: dir, destinationPath: treeCopy, recursive: true })).toEqual({});
    expect(existsSync(path.join(treeCopy, 'nested', 'deeper'))).toBe(true);

    // remove defaults to recursive and force: a whole tree goes, a missing path is fine.
    expect(await c.request('fs/remove', { path: dir })).toEqual({});
    expect(existsSync(dir)).toBe(false);
    expect(await c.request('fs/remove', { path: dir })).toEqual({});
  });

  it('answers OS failures with -32603 and the OS message, request problems with -32600', async () => {
    const c = await connect();
    const missing = path.join(home.workspace, 'missing.txt');
    const osError = { error: { code: -32603, message: 'No such file or directory (os error 2)' } };
    expect(await c.requestReply('fs/readFile', { path: missing })).toEqual(osError);
    expect(await c.requestReply('fs/getMetadata', { path: missing })).toEqual(osError);
    expect(await c.requestReply('fs/readDirectory', { path: missing })).toEqual(osError);
    expect(await c.requestReply('fs/remove', { path: missing, force: false })).toEqual(osError);
    expect(await c.requestReply('fs/writeFile', { path: path.join(missing, 'child'), dataBase64: b64('x') })).toEqual(osError);

    const existing = path.join(home.workspace, 'existing');
    mkdirSync(existing, { recursive: true });
    writeFileSync(path.join(existing, 'a.txt'), 'a');
    expect(await c.requestReply('fs/createDirectory', { path: existing, recursive: false })).toEqual({
      error: { code: -32603, message: 'File exists (os error 17)' },
    });
    expect(await c.requestReply('fs/readFile', { path: existing })).toEqual({ error: { code: -32600, message: `path \`${existing}\` is not a file` } });
    expect(await c.requestReply('fs/copy', { sourcePath: existing, destinationPath: `${existing}-2` })).toEqual({
      error: { code: -32600, message: 'fs/copy requires recursive: true when sourcePath is a directory' },
    });
    expect(await c.requestReply('fs/readFile', { path: 'relative.txt' })).toEqual({
      error: { code: -32600, message: 'Invalid request: AbsolutePathBuf deserialized without a base path' },
    });
    const badBase64 = await c.requestReply('fs/writeFile', { path: path.join(existing, 'b.txt'), dataBase64: '!!!' });
    expect(badBase64).toMatchObject({ error: { code: -32600, message: expect.stringMatching(/^fs\/writeFile requires valid base64 dataBase64: /) as unknown } });
  });
});
