import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAppServer } from './run-app-server.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(path.join(tmpdir(), 'skein-run-app-server-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function io(env: Record<string, string> = {}) {
  const stderr = new PassThrough();
  let err = '';
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  return { io: { cwd: home, env: { CODEX_HOME: home, ...env }, stdin: new PassThrough(), stdout: new PassThrough(), stderr }, err: () => err };
}

describe('runAppServer', () => {
  it('refuses an unauthenticated WebSocket listener off loopback, naming the auth flags', async () => {
    const { io: streams, err } = io();
    expect(await runAppServer({ listen: 'ws://0.0.0.0:0' }, streams)).toBe(1);
    expect(err()).toMatch(/^error: refusing to start non-loopback websocket listener 0\.0\.0\.0:0 without auth; configure `--ws-auth capability-token`/);
  });

  it('prints its own settings errors as `error: …`', async () => {
    const { io: streams, err } = io();
    expect(await runAppServer({ listen: 'stdio://', wsAuth: 'capability-token', wsTokenSha256: 'a'.repeat(64) }, streams)).toBe(1);
    expect(err()).toBe('error: --ws-auth applies to WebSocket listeners only\n');
  });

  it('names a database store it cannot open in one line, with no stack: no URL, or no database there', async () => {
    writeFileSync(path.join(home, 'config.toml'), '[skein.thread_store]\nkind = "postgres"\n');
    const unset = io();
    expect(await runAppServer({ listen: 'stdio://' }, unset.io)).toBe(1);
    expect(unset.err()).toBe('error: [skein.thread_store] kind = "postgres" reads the database URL from $SKEIN_DATABASE_URL, which is not set\n');
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    const unreachable = io({ SKEIN_DATABASE_URL: 'postgres://skein:secret@127.0.0.1:1/skein' });
    expect(await runAppServer({ listen: 'stdio://' }, unreachable.io)).toBe(1);
    expect(unreachable.err()).toMatch(/^error: could not open the thread store at postgres:\/\/skein:\*+@127\.0\.0\.1:1\/skein: .*ECONNREFUSED.*\n$/);
    expect(unreachable.err()).not.toContain('secret');
  });
});
