import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExecServerSettingsError, parseExecServerArgs, runExecServer } from './run-exec-server.js';

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'skein-run-exec-server-')));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function streams() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  return { io: { cwd: dir, env: process.env, stdin, stdout, stderr }, out: () => out, err: () => err, stdin };
}

describe('parseExecServerArgs', () => {
  it('reads Codex’s flags', () => {
    expect(parseExecServerArgs(['--listen', 'stdio', '--concurrent-requests', '4', '--exit-on-stdin-close'])).toMatchObject({
      listen: 'stdio',
      concurrentRequests: 4,
      exitOnStdinClose: true,
      help: false,
    });
  });

  it('refuses unknown flags and bad numbers with the usage', () => {
    expect(() => parseExecServerArgs(['--bogus'])).toThrow(ExecServerSettingsError);
    expect(() => parseExecServerArgs(['--concurrent-requests', '0'])).toThrow(/positive integer/);
  });
});

describe('runExecServer', () => {
  it('prints `error: …` and returns 1 for settings it cannot use', async () => {
    const cases: [Parameters<typeof runExecServer>[0], RegExp][] = [
      [{ listen: 'http://127.0.0.1:0' }, /expected `ws:\/\/IP:PORT`/],
      [{ listen: 'ws://example.com:80' }, /expected `ws:\/\/IP:PORT`/],
      [{ wsAuth: 'signed-bearer-token', wsTokenFile: 'x' }, /`--ws-token-file` and `--ws-token-sha256` require `--ws-auth capability-token`, not `signed-bearer-token`/],
      [{ wsAuth: 'oauth' }, /unsupported --ws-auth `oauth`; use `capability-token` or `signed-bearer-token`/],
      [{ wsAuth: 'signed-bearer-token' }, /`--ws-shared-secret-file` is required/],
      [{ wsAuth: 'capability-token', wsTokenFile: 'a', wsTokenSha256: 'b' }, /either/],
      [{ wsAuth: 'capability-token', wsTokenSha256: 'xyz' }, /64 hex digits/],
      [{ listen: 'stdio', wsAuth: 'capability-token', wsTokenSha256: 'a'.repeat(64) }, /WebSocket listeners only/],
      [{ listen: 'ws://0.0.0.0:0' }, /refusing to start non-loopback websocket listener 0\.0\.0\.0:0 without auth; configure `--ws-auth capability-token`/],
    ];
    for (const [settings, message] of cases) {
      const { io, err } = streams();
      expect(await runExecServer(settings, io)).toBe(1);
      expect(err()).toMatch(/^error: /);
      expect(err()).toMatch(message);
    }
  });

  it('serves stdio until input ends', async () => {
    writeFileSync(path.join(dir, 'f.txt'), 'stdio!');
    const { io, out, stdin } = streams();
    const done = runExecServer({ listen: 'stdio' }, io);
    stdin.write('{"id":1,"method":"initialize","params":{"clientName":"t"}}\n{"method":"initialized"}\n');
    stdin.write(`${JSON.stringify({ id: 2, method: 'fs/readFile', params: { path: `file://${dir}/f.txt` } })}\n`);
    stdin.end();
    expect(await done).toBe(0);
    const answers = out().trim().split('\n').map((line) => JSON.parse(line) as { id: number; result?: { dataBase64?: string } });
    expect(answers.find((answer) => answer.id === 2)?.result?.dataBase64).toBe(Buffer.from('stdio!').toString('base64'));
  });

  it('prints the WebSocket URL and stops when told to', async () => {
    const { io, out } = streams();
    const controller = new AbortController();
    const done = runExecServer({ listen: 'ws://127.0.0.1:0' }, { ...io, shutdown: controller.signal });
    while (!out().includes('\n')) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(out()).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\n$/);
    controller.abort();
    expect(await done).toBe(0);
  });
});
