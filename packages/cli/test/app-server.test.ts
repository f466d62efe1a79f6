// `skein app-server` as an IDE starts it: the built `skein` binary over stdio and over WebSocket
// with a capability token, with the global config flags applied. Every message is schema-checked.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AppServerTestClient, type AppServerTestClientError } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const BIN = path.join(import.meta.dirname, '..', 'dist', 'bin.cjs');
const TOKEN = 'cli-app-server-token';

let root: string;
let env: Record<string, string | undefined>;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'skein-cli-app-server-'));
  mkdirSync(path.join(root, 'home'));
  writeFileSync(path.join(root, 'home', 'config.toml'), 'model = "gpt-5.5"\n');
  writeFileSync(path.join(root, 'token'), TOKEN);
  env = { PATH: process.env.PATH, HOME: root, CODEX_HOME: path.join(root, 'home'), TERM: 'xterm' };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('skein app-server', () => {
  it('serves a client over stdio, applies -c overrides, and exits 0 when stdin closes', async () => {
    const client = AppServerTestClient.spawn(process.execPath, [BIN, '-c', 'features.multi_agent_v2=true', 'app-server'], { cwd: root, env });
    const result = (await client.initialize({ clientInfo: { name: 'cli_test', version: '1' } })) as { codexHome: string; userAgent: string };
    expect(result.codexHome).toBe(path.join(root, 'home'));
    expect(result.userAgent).toMatch(/^cli_test\/0\.171\.0 /);
    const features = (await client.request('experimentalFeature/list', {})) as { data: { name: string; enabled: boolean }[] };
    expect(features.data.find((feature) => feature.name === 'multi_agent_v2')?.enabled).toBe(true);
    const exited = new Promise<number | null>((resolve) => client.process.once('exit', resolve));
    client.process.stdin.end();
    expect(await exited).toBe(0);
    await client.close();
  });

  it('listens on WebSocket with a capability token, refusing clients without it', async () => {
    const server = spawn(process.execPath, [BIN, 'app-server', '--listen', 'ws://127.0.0.1:0', '--ws-auth', 'capability-token', '--ws-token-file', path.join(root, 'token')], {
      cwd: root,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const url = await new Promise<string>((resolve) => {
      let stderr = '';
      server.stderr.setEncoding('utf8');
      server.stderr.on('data', (chunk: string) => {
        stderr += chunk;
        const match = /listening on: (ws:\/\/\S+)/.exec(stderr);
        if (match?.[1] !== undefined) resolve(match[1]);
      });
    });
    await expect(AppServerTestClient.connectWebSocket(url)).rejects.toMatchObject({ code: 'ConnectFailed', rpcCode: 401 } satisfies Partial<AppServerTestClientError>);
    const client = await AppServerTestClient.connectWebSocket(url, { token: TOKEN });
    await client.initialize();
    const models = (await client.request('model/list', {})) as { data: { id: string; isDefault: boolean }[] };
    expect(models.data.filter((model) => model.isDefault).map((model) => model.id)).toEqual(['gpt-6.2-sol']);
    await client.close();
    const code = new Promise<number | null>((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    expect(await code).toBe(0);
  });

  it('refuses a bad --listen with an error naming the expected form', async () => {
    const child = spawn(process.execPath, [BIN, 'app-server', '--listen', 'ws://localhost:1'], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('expected `ws://IP:PORT`');
  });

  it('exits quietly when its client closes stdout before the answers (EPIPE), as a hung-up client', async () => {
    const child = spawn(process.execPath, [BIN, 'app-server'], { cwd: root, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    child.stdout.destroy();
    const initialize = { id: 1, method: 'initialize', params: { clientInfo: { name: 'gone', version: '1' } } };
    child.stdin.write(`${JSON.stringify(initialize)}\n${JSON.stringify({ method: 'initialized' })}\n${JSON.stringify({ id: 2, method: 'model/list', params: {} })}\n`);
    // 'close', not 'exit': stderr is read to its end before it is checked.
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(stderr).not.toContain('EPIPE');
    expect(code).toBe(0);
  });
});
