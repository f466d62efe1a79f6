// The WebSocket transport of the built binary: capability-token and signed-bearer-token auth on the upgrade, the health
// endpoints, and several clients at once with their own state and thread subscriptions.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { AppServerTestClient, AppServerTestClientError } from '@skein/test-support';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHome, startInProcess, startWebSocketProcess, TOKEN, type TestHome, type WebSocketProcess } from './support/app-server-harness.js';

function httpStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { headers }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.once('error', reject);
    request.end();
  });
}

async function refusal(url: string, token?: string): Promise<number | undefined> {
  try {
    const client = await AppServerTestClient.connectWebSocket(url, token === undefined ? {} : { token });
    await client.close();
    return undefined;
  } catch (error) {
    if (error instanceof AppServerTestClientError && error.code === 'ConnectFailed') return error.rpcCode;
    throw error;
  }
}

describe('WebSocket transport (token file)', () => {
  let home: TestHome;
  let server: WebSocketProcess;

  beforeAll(async () => {
    home = makeHome();
    server = await startWebSocketProcess(home);
  });
  afterAll(async () => {
    await server.stop();
    home.cleanup();
  });

  it('refuses upgrades without the token or with a wrong one (401, not upgraded)', async () => {
    expect(await refusal(server.url)).toBe(401);
    expect(await refusal(server.url, 'not-the-token')).toBe(401);
    expect(await refusal(server.url, TOKEN)).toBeUndefined();
  });

  it('answers /readyz and /healthz with 200 on the same port', async () => {
    const http = server.url.replace('ws:', 'http:');
    expect(await httpStatus(`${http}/readyz`)).toBe(200);
    expect(await httpStatus(`${http}/healthz`)).toBe(200);
  });

  it('serves two clients at once, each with its own handshake', async () => {
    const first = await AppServerTestClient.connectWebSocket(server.url, { token: TOKEN });
    const second = await AppServerTestClient.connectWebSocket(server.url, { token: TOKEN });
    await first.initialize({ clientInfo: { name: 'first', version: '1' } });
    // The second has not initialized: the first's handshake is not shared.
    expect(await second.requestReply('model/list', {})).toEqual({ error: { code: -32600, message: 'Not initialized' } });
    await second.initialize({ clientInfo: { name: 'second', version: '2' } });
    const [a, b] = await Promise.all([first.request('experimentalFeature/list', { limit: 2 }), second.request('experimentalFeature/list', { limit: 3 })]);
    expect((a as { data: unknown[] }).data).toHaveLength(2);
    expect((b as { data: unknown[] }).data).toHaveLength(3);
    // One leaving does not disturb the other.
    await first.close();
    expect(await second.request('model/list', { limit: 1 })).toMatchObject({ data: [{ id: 'gpt-6.2-sol' }] });
    await second.close();
  });
});

describe('WebSocket transport (token digest)', () => {
  it('accepts the token whose SHA-256 was configured', async () => {
    const home = makeHome();
    const digest = createHash('sha256').update(TOKEN).digest('hex');
    const server = await startWebSocketProcess(home, ['--ws-auth', 'capability-token', '--ws-token-sha256', digest]);
    const { url } = server;
    expect(await refusal(url, 'wrong')).toBe(401);
    const client = await AppServerTestClient.connectWebSocket(url, { token: TOKEN });
    await client.initialize();
    await client.close();
    await server.stop();
    home.cleanup();
  });
});

describe('WebSocket transport (signed bearer token)', () => {
  it('accepts an HS256 JWT signed with the shared secret and refuses a forged or expired one', async () => {
    const home = makeHome();
    const secret = 'app-server-shared-secret-of-32+bytes';
    const secretFile = path.join(home.home, 'ws-secret');
    writeFileSync(secretFile, `${secret}\n`);
    const server = await startWebSocketProcess(home, ['--ws-auth', 'signed-bearer-token', '--ws-shared-secret-file', secretFile, '--ws-issuer', 'ide']);
    try {
      const now = Math.floor(Date.now() / 1000);
      const sign = (claims: Record<string, unknown>, key = secret) => new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(key));
      expect(await refusal(server.url)).toBe(401);
      expect(await refusal(server.url, await sign({ exp: now + 60, iss: 'ide' }, 'a-different-secret-of-32-bytes-or-more'))).toBe(401);
      expect(await refusal(server.url, await sign({ exp: now - 3600, iss: 'ide' }))).toBe(401);
      expect(await refusal(server.url, await sign({ exp: now + 60, iss: 'someone-else' }))).toBe(401);
      const client = await AppServerTestClient.connectWebSocket(server.url, { token: await sign({ exp: now + 60, iss: 'ide' }) });
      await client.initialize();
      await client.close();
    } finally {
      await server.stop();
      home.cleanup();
    }
  });

  it('refuses to start with a secret shorter than 32 bytes, or without the secret file', async () => {
    const home = makeHome();
    try {
      const short = path.join(home.home, 'short-secret');
      writeFileSync(short, 'short\n');
      await expect(startWebSocketProcess(home, ['--ws-auth', 'signed-bearer-token', '--ws-shared-secret-file', short])).rejects.toThrow(/must be at least 32 bytes/);
      await expect(startWebSocketProcess(home, ['--ws-auth', 'signed-bearer-token'])).rejects.toThrow(/--ws-shared-secret-file` is required/);
    } finally {
      home.cleanup();
    }
  });
});

describe('thread subscriptions across clients', () => {
  it('broadcasts a thread\'s notifications to its subscribers only, and forgets a client that leaves', async () => {
    const home = makeHome();
    const running = await startInProcess(home);
    const [one, two, three] = await Promise.all([running.connect('websocket'), running.connect('websocket'), running.connect('stdio')]);
    for (const [index, client] of [one, two, three].entries()) await client.initialize({ clientInfo: { name: `client_${index + 1}`, version: '1' } });
    const byName = (name: string) => running.server.connections.find((connection) => connection.initializeParams.clientInfo.name === name);
    const [c1, c2, c3] = [byName('client_1'), byName('client_2'), byName('client_3')];
    running.server.subscriptions.subscribe('thread-a', c1!);
    running.server.subscriptions.subscribe('thread-a', c3!);
    running.server.subscriptions.subscribe('thread-b', c2!);

    const params = { threadId: 'thread-a', status: { type: 'idle' } };
    expect(running.server.broadcast('thread-a', 'thread/status/changed', params)).toBe(2);
    expect(await one.waitFor('thread/status/changed')).toEqual(params);
    expect(await three.waitFor('thread/status/changed')).toEqual(params);
    await two.request('model/list', {});
    expect(two.notificationsOf('thread/status/changed')).toEqual([]);

    await one.close();
    await expect.poll(() => running.server.subscriptions.subscribers('thread-a').length, { timeout: 10_000 }).toBe(1);
    expect(running.server.broadcast('thread-a', 'thread/status/changed', params)).toBe(1);
    await two.close();
    await three.close();
    await running.close();
    home.cleanup();
  });
});
