import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { EchoService } from '../test/echo-service.js';
import { runJsonRpcProgram, type JsonRpcProgram } from './run-json-rpc-program.js';

class DemoSettingsError extends Error {}
class DemoConfigError extends Error {}

function program(overrides: Partial<JsonRpcProgram<EchoService>> = {}, stdout: Writable = new PassThrough()) {
  const stdin = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const service = new EchoService();
  let created = 0;
  const controller = new AbortController();
  const urls: string[] = [];
  const run = runJsonRpcProgram<EchoService>({
    flags: {},
    defaultListen: 'stdio://',
    io: { cwd: process.cwd(), stdin, stdout, stderr, shutdown: controller.signal },
    settingsError: DemoSettingsError,
    usageErrors: [DemoConfigError],
    createServer: () => {
      created += 1;
      return Promise.resolve(service);
    },
    onListening: (listener) => urls.push(listener.url),
    ...overrides,
  });
  return { run, stdin, service, controller, urls, out: () => out, err: () => err, created: () => created };
}

/** A stdout whose reader has gone: every write fails as a closed pipe's does. */
function brokenPipe(): Writable {
  return new Writable({
    write: (_chunk, _encoding, callback) => callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })),
  });
}

describe('runJsonRpcProgram', () => {
  it('serves one stdio client until its input ends, then closes the server', async () => {
    const { run, stdin, service, out } = program();
    stdin.end('{"id":1,"method":"m","params":[1]}\n');
    expect(await run).toBe(0);
    expect(JSON.parse(out())).toEqual({ id: 1, result: [1] });
    expect(service.closed).toBe(1);
  });

  it('ends a stdio session whose output fails (the client closed it) instead of throwing', async () => {
    const { run, stdin, service } = program({}, brokenPipe());
    stdin.write('{"id":1,"method":"m","params":[1]}\n');
    expect(await run).toBe(0);
    expect(service.received).toHaveLength(1);
    expect(service.closed).toBe(1);
    expect(stdin.destroyed).toBe(true);
  });

  it('does not wait for work in flight once the client has hung up', async () => {
    const service = new EchoService();
    const connect = service.connect.bind(service);
    // A request still running (a long command/exec, say): its connection never drains by itself.
    service.connect = (channel) => ({ ...connect(channel), drain: () => new Promise<void>(() => undefined) });
    const { run, stdin } = program({ createServer: () => Promise.resolve(service) }, brokenPipe());
    stdin.write('{"id":1,"method":"m","params":[1]}\n');
    expect(await run).toBe(0);
    expect(service.closed).toBe(1);
  });

  it('announces a WebSocket listener and stops on shutdown', async () => {
    const { run, urls, controller, service } = program({ flags: { listen: 'ws://127.0.0.1:0' } });
    while (urls.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const ws = new WebSocket(urls[0] ?? '');
    await new Promise((resolve) => ws.once('open', resolve));
    controller.abort();
    expect(await run).toBe(0);
    expect(service.closed).toBe(1);
  });

  it('stops a WebSocket server when stdin ends, if asked to', async () => {
    const { run, urls, stdin } = program({ flags: { listen: 'ws://127.0.0.1:0' }, exitOnStdinClose: true });
    while (urls.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    stdin.end();
    expect(await run).toBe(0);
  });

  it('prints `error: …` and returns 1 for settings it refuses, before building the server', async () => {
    const cases: [JsonRpcProgram<EchoService>['flags'], RegExp][] = [
      [{ listen: 'http://127.0.0.1:0' }, /expected `ws:\/\/IP:PORT`/],
      [{ listen: 'ws://0.0.0.0:0' }, /refusing to start non-loopback websocket listener 0\.0\.0\.0:0 without auth; configure `--ws-auth capability-token`/],
      [{ wsAuth: 'capability-token', wsTokenSha256: 'xyz' }, /64 hex digits/],
      [{ wsTokenFile: 'x' }, /require `--ws-auth capability-token`/],
      [{ listen: 'stdio', wsAuth: 'capability-token', wsTokenSha256: 'a'.repeat(64) }, /WebSocket listeners only/],
    ];
    for (const [flags, message] of cases) {
      const { run, err, created } = program({ flags });
      expect(await run, JSON.stringify(flags)).toBe(1);
      expect(err()).toMatch(/^error: /);
      expect(err()).toMatch(message);
      expect(created()).toBe(0);
    }
  });

  it('prints the program\'s own usage errors and rethrows anything else', async () => {
    const usage = program({ createServer: () => Promise.reject(new DemoConfigError('bad config.toml')) });
    expect(await usage.run).toBe(1);
    expect(usage.err()).toBe('error: bad config.toml\n');
    const crash = program({ createServer: () => Promise.reject(new TypeError('bug')) });
    await expect(crash.run).rejects.toThrow(TypeError);
  });
});
