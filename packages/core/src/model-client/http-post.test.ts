import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { httpPost, type ModelHttpPost } from './http-post.js';

let server: Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  server = undefined;
});

/** A server answering each request with `answer`; resolves to its base URL. */
async function serve(answer: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(answer);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('httpPost', () => {
  it('sends the body with its length and headers, and streams the answer', async () => {
    let received: { method?: string | undefined; headers?: Record<string, unknown>; body?: string } = {};
    const base = await serve((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received = { method: request.method, headers: request.headers, body };
        response.writeHead(200, { 'content-type': 'text/event-stream', 'retry-after-ms': '5' });
        response.write('data: one\n\n');
        response.end('data: two\n\n');
      });
    });
    const answer = await httpPost(new URL(`${base}/v1/responses?x=1`), { method: 'POST', headers: { authorization: 'Bearer k' }, body: '{"é":1}' });
    expect(received).toMatchObject({ method: 'POST', body: '{"é":1}', headers: { authorization: 'Bearer k', 'content-length': '8' } });
    expect([answer.ok, answer.status, answer.headers.get('Retry-After-Ms'), answer.headers.get('missing')]).toEqual([true, 200, '5', null]);
    let text = '';
    for await (const chunk of answer.body!) text += Buffer.from(chunk).toString();
    expect(text).toBe('data: one\n\ndata: two\n\n');
  });

  it('resolves an error status with its body as text', async () => {
    const base = await serve((_request, response) => {
      response.writeHead(429, 'Too Many Requests', { 'content-type': 'application/json' });
      response.end('{"error":{"message":"slow down"}}');
    });
    const answer = await httpPost(new URL(base), { method: 'POST', headers: {}, body: '' });
    expect([answer.ok, answer.status, answer.statusText]).toEqual([false, 429, 'Too Many Requests']);
    expect(await answer.text()).toBe('{"error":{"message":"slow down"}}');
  });

  it('rejects with the socket error when nothing listens, and with an AbortError when cancelled', async () => {
    await expect(httpPost(new URL('http://127.0.0.1:9/'), { method: 'POST', headers: {}, body: '' })).rejects.toThrow(/ECONNREFUSED/);
    const base = await serve(() => undefined);
    const controller = new AbortController();
    const pending = httpPost(new URL(base), { method: 'POST', headers: {}, body: '', signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('hands a socket whose body was read back to the pool, where a later abort of its request cannot reach it', async () => {
    let connections = 0;
    const base = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end('data: done\n\n');
    });
    server!.on('connection', () => (connections += 1));
    const controllers: AbortController[] = [];
    for (let round = 0; round < 3; round += 1) {
      const controller = new AbortController();
      controllers.push(controller);
      const answer = await httpPost(new URL(base), { method: 'POST', headers: {}, body: '', signal: controller.signal });
      const reader = answer.bodyReader!();
      while ((await reader.next()) !== undefined);
      reader.stop();
      await new Promise((resolve) => setImmediate(resolve));
      // The turn ends and its signal fires: the pooled socket must survive it for the next request.
      controller.abort();
    }
    expect(connections).toBe(1);
  });

  it('refuses a scheme other than http and https', async () => {
    await expect(httpPost(new URL('ftp://example.com/'), { method: 'POST', headers: {}, body: '' })).rejects.toThrow('unsupported URL scheme ftp:');
  });

  it('has the shape of the global fetch, which callers may pass instead', () => {
    const viaFetch: ModelHttpPost = fetch;
    expect(typeof viaFetch).toBe('function');
  });
});
