// Bad input against a real `skein-exec-server` over WebSocket: each gets a JSON-RPC error with a clear
// message, the connection stays usable, and nothing is written.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PathUri } from '@skein/protocol';
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ExecServerClientError, MAX_QUEUED_REQUESTS, connectExecServer } from '../src/index.js';
import { startServer, type RunningServer } from './exec-server-process.js';
import { RawConnection } from './raw-connection.js';
import { SignJWT } from 'jose';

const MAX_REQUEST_BYTES = 64 * 1024;
let server: RunningServer;
let scratch: string;
let connection: RawConnection;

beforeAll(async () => {
  server = await startServer(['--listen', 'ws://127.0.0.1:0', '--max-request-bytes', String(MAX_REQUEST_BYTES)]);
});
afterAll(() => server.stop());
beforeEach(() => {
  scratch = realpathSync(mkdtempSync(path.join(tmpdir(), 'skein-bad-input-')));
});
afterEach(() => {
  connection?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const uri = (name: string) => PathUri.fromNativePath(path.join(scratch, name), 'posix').toString();

/** A request that must still work after the bad one. */
async function stillUsable(): Promise<void> {
  writeFileSync(path.join(scratch, 'probe'), 'ok');
  const answer = await connection.call('fs/readFile', { path: uri('probe') });
  expect(answer.result).toEqual({ dataBase64: Buffer.from('ok').toString('base64') });
}

describe('before the handshake', () => {
  it('refuses methods until initialize and initialized, naming the step that is missing', async () => {
    connection = await RawConnection.open(server.url);
    expect((await connection.call('fs/readFile', { path: uri('x') })).error).toEqual({
      code: -32600,
      message: 'client must call initialize before using filesystem methods',
    });
    expect((await connection.call('process/start', {})).error?.message).toBe('client must call initialize before using exec methods');
    const initialized = (await connection.call('initialize', { clientName: 'x' })).result as { sessionId: unknown };
    expect(typeof initialized.sessionId).toBe('string');
    expect((await connection.call('fs/readFile', { path: uri('x') })).error?.message).toBe('client must send initialized before using filesystem methods');
    expect((await connection.call('initialize', { clientName: 'x' })).error).toEqual({ code: -32600, message: 'initialize may only be sent once per connection' });
    connection.send(JSON.stringify({ method: 'initialized' }));
    await stillUsable();
  });

  it('rejects an initialize without a client name', async () => {
    connection = await RawConnection.open(server.url);
    const answer = await connection.call('initialize', {});
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toContain('clientName');
  });
});

describe('after the handshake', () => {
  beforeEach(async () => {
    connection = await RawConnection.initialized(server.url);
  });

  it('answers malformed JSON and non-messages with -32600 and goes on', async () => {
    connection.send('{not json');
    const broken = await connection.answer(-1);
    expect(broken.error?.code).toBe(-32600);
    expect(broken.error?.message).toMatch(/^failed to parse JSON-RPC message: not valid JSON/);
    connection.send('[]');
    expect((await connection.answer(-1)).error?.message).toMatch(/must be a JSON object/);
    // The id of a broken message is recovered when it can be, so the client can match the answer.
    connection.send('{"id":77,"params":{}}');
    expect((await connection.answer(77)).error?.code).toBe(-32600);
    await stillUsable();
  });

  it('answers unknown methods with -32601 naming the method', async () => {
    expect((await connection.call('fs/explode', {})).error).toEqual({ code: -32601, message: 'exec-server does not implement `fs/explode`' });
    await stillUsable();
  });

  it('answers wrong param types with -32602 naming the field', async () => {
    const cases: [string, unknown, RegExp][] = [
      ['fs/readFile', { path: 5 }, /path: .*expected string/],
      ['fs/readFile', undefined, /expected object/],
      ['fs/walk', { path: uri(''), options: { maxDepth: 'deep' } }, /options\.maxDepth/],
      ['process/start', { processId: 'p', argv: 'ls', cwd: uri(''), env: {}, tty: false }, /argv/],
      ['process/signal', { processId: 'p', signal: 'kill' }, /signal/],
    ];
    for (const [method, params, message] of cases) {
      const answer = await connection.call(method, params);
      expect(answer.error?.code, method).toBe(-32602);
      expect(answer.error?.message, method).toMatch(message);
    }
    // Bytes that are not base64 are an invalid request (-32600), as in Codex.
    const badBytes = await connection.call('fs/writeFile', { path: uri('x'), dataBase64: 'not base64!' });
    expect(badBytes.error?.code).toBe(-32600);
    expect(badBytes.error?.message).toMatch(/dataBase64: expected standard padded base64/);
    const longHandle = await connection.call('fs/open', { handleId: 'h'.repeat(33), path: uri('') });
    expect(longHandle.error).toEqual({ code: -32600, message: 'file handle ID must not exceed 32 bytes' });
    expect(readdirSync(scratch)).toEqual([]);
    await stillUsable();
  });

  it('refuses relative, native, non-file and NUL-bearing paths without writing anything', async () => {
    const inScratch = path.join(scratch, 'x');
    const paths = [
      'relative/x',
      inScratch,
      `http://localhost${inScratch}`,
      'file:relative/x',
      `${uri('a')}%2Fb`,
      `${uri('nul')}\u0000.txt`,
      `${uri('nul')}%00.txt`,
      `${uri('q')}?x=1`,
    ];
    for (const bad of paths) {
      const answer = await connection.call('fs/writeFile', { path: bad, dataBase64: 'aGk=' });
      expect(answer.error?.code, bad).toBe(-32602);
      expect(answer.error?.message, bad).toMatch(/^invalid params: path: /);
    }
    const start = await connection.call('process/start', { processId: 'p', argv: ['true'], cwd: 'relative', env: {}, tty: false });
    expect(start.error?.code).toBe(-32602);
    expect(readdirSync(scratch)).toEqual([]);
    await stillUsable();
  });

  it('answers an oversized request with an error for its id, writes nothing, and stays usable', async () => {
    const data = randomBytes(MAX_REQUEST_BYTES).toString('base64');
    connection.send(JSON.stringify({ id: 'big-1', method: 'fs/writeFile', params: { path: uri('big'), dataBase64: data } }));
    const answer = await connection.answer('big-1');
    expect(answer.error?.code).toBe(-32600);
    expect(answer.error?.message).toMatch(/exceeds the 65536-byte limit/);
    expect(readdirSync(scratch)).toEqual([]);
    await stillUsable();
  });

  it('closes the connection (1009) on a frame too large even to read', async () => {
    connection.send(Buffer.alloc(MAX_REQUEST_BYTES * 3, 0x20));
    expect((await connection.closedByServer()).code).toBe(1009);
  });

  it('answers requests beyond the per-connection queue with -32001, then serves again', async () => {
    const started = await connection.call('process/start', { processId: 'sleeper', argv: ['sleep', '30'], cwd: uri(''), env: {}, tty: false });
    expect(started.result).toMatchObject({ processId: 'sleeper' });
    // One request holds the connection's only worker while a burst arrives behind it.
    connection.send(JSON.stringify({ id: 'hold', method: 'process/read', params: { processId: 'sleeper', afterSeq: 0, waitMs: 1500 } }));
    const burst = MAX_QUEUED_REQUESTS + 40;
    for (let index = 0; index < burst; index += 1) {
      connection.send(JSON.stringify({ id: `q${index}`, method: 'fs/getMetadata', params: { path: uri('') } }));
    }
    const answers = await Promise.all(Array.from({ length: burst }, (_unused, index) => connection.answer(`q${index}`)));
    const overloaded = answers.filter((answer) => answer.error?.code === -32001);
    expect(overloaded.length).toBeGreaterThanOrEqual(40);
    expect(overloaded[0]?.error?.message).toMatch(/too many requests in flight/);
    expect(answers.filter((answer) => answer.result !== undefined).length).toBe(burst - overloaded.length);
    await connection.answer('hold');
    await connection.call('process/terminate', { processId: 'sleeper' });
    await stillUsable();
  });
});

describe('capability-token authentication', () => {
  const token = randomBytes(16).toString('hex');
  let guarded: RunningServer;
  let digestGuarded: RunningServer;
  let tokenDir: string;
  beforeAll(async () => {
    tokenDir = mkdtempSync(path.join(tmpdir(), 'skein-token-'));
    const file = path.join(tokenDir, 'token');
    writeFileSync(file, `${token}\n`);
    guarded = await startServer(['--listen', 'ws://127.0.0.1:0', '--ws-auth', 'capability-token', '--ws-token-file', file]);
    const digest = createHash('sha256').update(token).digest('hex');
    digestGuarded = await startServer(['--listen', 'ws://127.0.0.1:0', '--ws-auth', 'capability-token', '--ws-token-sha256', digest]);
  });
  afterAll(async () => {
    await guarded.stop();
    await digestGuarded.stop();
    rmSync(tokenDir, { recursive: true, force: true });
  });

  async function refusal(url: string, headers: Record<string, string>): Promise<{ status: number; body: unknown }> {
    const socket = new WebSocket(url, { headers });
    return new Promise((resolve, reject) => {
      socket.once('open', () => reject(new Error('the upgrade was accepted')));
      socket.once('unexpected-response', (_request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(body) as unknown }));
      });
    });
  }

  it('refuses an upgrade without a token or with the wrong one, with a JSON-RPC error body', async () => {
    expect(await refusal(guarded.url, {})).toEqual({
      status: 401,
      body: { error: { code: -32600, message: 'missing websocket bearer token: send `Authorization: Bearer <token>`' }, id: -1 },
    });
    expect(await refusal(guarded.url, { Authorization: 'Bearer wrong' })).toMatchObject({ status: 401, body: { error: { message: 'invalid websocket bearer token' } } });
    expect(await refusal(digestGuarded.url, { Authorization: `Basic ${token}` })).toMatchObject({ status: 401 });
  });

  it('accepts the right token, whether configured as a file or as its SHA-256', async () => {
    for (const url of [guarded.url, digestGuarded.url]) {
      const remote = await connectExecServer({ url, token });
      expect(remote.client.environment?.executorVersion).toBe('0.171.0');
      await remote.close();
    }
  });

  it('accepts a signed bearer token (HS256 JWT) under --ws-auth signed-bearer-token and refuses a forged or expired one', async () => {
    const secret = 'exec-server-shared-secret-of-32+bytes';
    const secretFile = path.join(tokenDir, 'secret');
    writeFileSync(secretFile, `${secret}\n`);
    const signed = await startServer(['--listen', 'ws://127.0.0.1:0', '--ws-auth', 'signed-bearer-token', '--ws-shared-secret-file', secretFile, '--ws-audience', 'executors']);
    try {
      const now = Math.floor(Date.now() / 1000);
      const sign = (claims: Record<string, unknown>, key = secret) => new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(key));
      expect(await refusal(signed.url, { Authorization: `Bearer ${await sign({ exp: now + 60, aud: 'executors' }, 'a-different-secret-of-32-bytes-or-more')}` })).toMatchObject({ status: 401, body: { error: { message: 'invalid websocket jwt' } } });
      expect(await refusal(signed.url, { Authorization: `Bearer ${await sign({ exp: now - 3600, aud: 'executors' })}` })).toMatchObject({ status: 401, body: { error: { message: 'expired websocket jwt' } } });
      expect(await refusal(signed.url, { Authorization: `Bearer ${await sign({ exp: now + 60, aud: 'others' })}` })).toMatchObject({ status: 401, body: { error: { message: 'websocket jwt audience mismatch' } } });
      const remote = await connectExecServer({ url: signed.url, token: await sign({ exp: now + 60, aud: 'executors' }) });
      expect(remote.client.environment?.executorVersion).toBe('0.171.0');
      await remote.close();
    } finally {
      await signed.stop();
    }
  });

  it('makes the client report the refusal as Unauthorized', async () => {
    const error = await connectExecServer({ url: guarded.url, token: 'wrong' }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ExecServerClientError);
    expect((error as ExecServerClientError).code).toBe('Unauthorized');
  });
});
