// The WebSocket listener over real sockets: messages in and out, and each refusal the transport owns
// (browser origins, missing or wrong tokens, unauthenticated listeners off loopback).
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import WebSocket from 'ws';
import { EchoService } from '../test/echo-service.js';
import { CapabilityToken } from './capability-token.js';
import { ListenAddressError } from './listen-address.js';
import { SignedBearerToken } from './signed-bearer-token.js';
import type { UpgradeAuth } from './upgrade-auth.js';
import { listenWebSocket, type WebSocketListener } from './websocket-listener.js';

const TOKEN = 'listener-test-token';
let listener: WebSocketListener | undefined;
afterEach(async () => {
  await listener?.close();
  listener = undefined;
});

async function start(options: { auth?: UpgradeAuth; maxRequestBytes?: number } = {}): Promise<{ url: string; service: EchoService }> {
  const service = new EchoService(options.maxRequestBytes);
  listener = await listenWebSocket({ host: '127.0.0.1', port: 0, server: service, auth: options.auth });
  return { url: listener.url, service };
}

/** Opens a WebSocket; resolves to the socket once open, or to the HTTP status that refused the upgrade. */
function connect(url: string, headers: Record<string, string> = {}): Promise<WebSocket | { status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    ws.once('error', reject);
  });
}

function nextMessage(ws: WebSocket): Promise<unknown> {
  return new Promise((resolve) => ws.once('message', (data: Buffer) => resolve(JSON.parse(data.toString('utf8')))));
}

describe('listenWebSocket', () => {
  it('carries one JSON-RPC message per frame both ways', async () => {
    const { url, service } = await start();
    expect(url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
    const ws = await connect(url);
    if (!(ws instanceof WebSocket)) throw new Error(`refused with ${ws.status}`);
    ws.send(JSON.stringify({ id: 1, method: 'echo', params: { a: 1 } }));
    expect(await nextMessage(ws)).toEqual({ id: 1, result: { a: 1 } });
    expect(service.received).toHaveLength(1);
    ws.close();
  });

  it('refuses an upgrade with a browser Origin header with 403, before it reaches the service', async () => {
    const { url, service } = await start();
    for (const origin of ['https://evil.example', 'http://127.0.0.1', 'null']) {
      const refused = await connect(url, { Origin: origin });
      expect(refused, origin).toMatchObject({ status: 403 });
      const body = JSON.parse((refused as { body: string }).body) as { error: { code: number; message: string } };
      expect(body.error.code).toBe(-32600);
      expect(body.error.message).toMatch(/Origin/);
    }
    expect(service.connections.size).toBe(0);
    const ws = await connect(url);
    expect(ws).toBeInstanceOf(WebSocket);
    (ws as WebSocket).close();
  });

  it('refuses a browser origin even when it brings the right token', async () => {
    const { url } = await start({ auth: CapabilityToken.fromToken(TOKEN) });
    expect(await connect(url, { Origin: 'https://evil.example', Authorization: `Bearer ${TOKEN}` })).toMatchObject({ status: 403 });
  });

  it('accepts a signed bearer token and refuses an expired one with the reason', async () => {
    const secret = 'a-shared-secret-of-at-least-32-bytes!';
    const { url } = await start({ auth: SignedBearerToken.fromSecret(secret) });
    const key = new TextEncoder().encode(secret);
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(now - 3600).sign(key);
    expect(await connect(url, { Authorization: `Bearer ${expired}` })).toMatchObject({ status: 401, body: expect.stringContaining('expired websocket jwt') as unknown });
    const valid = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(now + 60).sign(key);
    const ws = await connect(url, { Authorization: `Bearer ${valid}` });
    expect(ws).toBeInstanceOf(WebSocket);
    (ws as WebSocket).close();
  });

  it('refuses a missing or wrong bearer token with 401 and accepts the right one', async () => {
    const { url } = await start({ auth: CapabilityToken.fromToken(TOKEN) });
    const missing = (await connect(url)) as { status: number; body: string };
    expect(missing.status).toBe(401);
    expect(missing.body).toMatch(/missing websocket bearer token/);
    const wrong = (await connect(url, { Authorization: 'Bearer nope' })) as { status: number; body: string };
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatch(/invalid websocket bearer token/);
    const ws = await connect(url, { Authorization: `Bearer ${TOKEN}` });
    expect(ws).toBeInstanceOf(WebSocket);
    (ws as WebSocket).close();
  });

  it('refuses to listen without auth on a non-loopback address, and listens there with auth', async () => {
    const service = new EchoService();
    await expect(listenWebSocket({ host: '0.0.0.0', port: 0, server: service })).rejects.toThrow(ListenAddressError);
    await expect(listenWebSocket({ host: '0.0.0.0', port: 0, server: service })).rejects.toMatchObject({ code: 'UnauthenticatedNonLoopback' });
    await expect(listenWebSocket({ host: '::', port: 0, server: service })).rejects.toThrow(/--ws-auth capability-token/);
    listener = await listenWebSocket({ host: '0.0.0.0', port: 0, server: service, auth: CapabilityToken.fromToken(TOKEN) });
    const port = new URL(listener.url).port;
    const ws = await connect(`ws://127.0.0.1:${port}`, { Authorization: `Bearer ${TOKEN}` });
    expect(ws).toBeInstanceOf(WebSocket);
    (ws as WebSocket).close();
  });

  it('answers /readyz and /healthz over plain HTTP', async () => {
    const { url } = await start();
    const status = (path: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(`${url.replace(/^ws:/, 'http:')}${path}`, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        req.once('error', reject);
        req.end();
      });
    expect(await status('/readyz')).toBe(200);
    expect(await status('/healthz')).toBe(200);
    expect(await status('/elsewhere')).toBe(404);
  });

  it('disconnects every client when closed', async () => {
    const { url, service } = await start();
    const ws = await connect(url);
    if (!(ws instanceof WebSocket)) throw new Error('refused');
    const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
    await listener?.close();
    listener = undefined;
    await closed;
    expect(service.connections.size).toBe(0);
  });

  it('lets a service hang up on a client: the socket ends without a close frame and the service disconnects it', async () => {
    const { url, service } = await start();
    const ws = await connect(url);
    if (!(ws instanceof WebSocket)) throw new Error('refused');
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    const [connection] = service.connections;
    expect(connection?.channel.disconnect).toBeTypeOf('function');
    connection?.channel.disconnect?.();
    expect(await closed).toBe(1006);
    expect(service.connections.size).toBe(0);
  });

  it('reports as buffered what waits behind the message being written to a client that stopped reading', async () => {
    const { url, service } = await start();
    const ws = await connect(url);
    if (!(ws instanceof WebSocket)) throw new Error('refused');
    const [connection] = service.connections;
    if (connection === undefined) throw new Error('no connection');
    ws.pause();
    // Far more than loopback's kernel buffers take, so it is still being written while the rest queues.
    const big = JSON.stringify({ method: 'big', params: 'x'.repeat(32 * 1024 * 1024) });
    const small = JSON.stringify({ method: 'small', params: 'y'.repeat(1000) });
    connection.channel.send(big);
    expect(connection.channel.bufferedBytes).toBe(0);
    for (let index = 0; index < 3; index += 1) connection.channel.send(small);
    expect(connection.channel.bufferedBytes).toBe(3 * small.length);
    const received = new Promise<void>((resolve) => {
      let count = 0;
      ws.on('message', () => {
        count += 1;
        if (count === 4) resolve();
      });
    });
    ws.resume();
    await received;
    // A round trip, so the server has also seen its writes complete.
    ws.send(JSON.stringify({ id: 1, method: 'echo' }));
    expect(await nextMessage(ws)).toEqual({ id: 1, result: null });
    expect(connection.channel.bufferedBytes).toBe(0);
    ws.close();
  });
});
