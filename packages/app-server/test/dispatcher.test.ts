// The dispatcher, in process over both transports: unknown and unimplemented methods, params that
// fail their schema, malformed input, crashing handlers, overload, experimental gating and
// server→client requests. Extra methods stand in for the ones the thread and turn groups add.
import { AppServerTestClientError } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AppServerRequestError, ServerRequestError, defineMethod, type AppServerMethod, type ClientConnection } from '../src/index.js';
import { makeHome, startInProcess, type InProcessServer, type TestHome, type Transport } from './support/app-server-harness.js';

interface Gate {
  readonly opened: Promise<void>;
  open(): void;
  started: number;
}

function gate(): Gate {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open, started: 0 };
}

describe.each<Transport>(['stdio', 'websocket'])('dispatcher over %s', (transport) => {
  let home: TestHome;
  let running: InProcessServer;
  let blocker: Gate;
  let lastConnection: ClientConnection | undefined;
  let serverRequestOutcome: Promise<unknown> | undefined;

  const testMethods = new Map<string, AppServerMethod>([
    ['test/echo', defineMethod({ params: z.object({ value: z.object({ count: z.number().int() }) }), handle: (params) => params.value })],
    ['test/crash', defineMethod({ params: z.object({}), handle: () => { throw new TypeError('handler bug'); } })],
    [
      'test/block',
      defineMethod({
        params: z.object({}),
        async handle() {
          blocker.started += 1;
          await blocker.opened;
          return {};
        },
      }),
    ],
    ['test/experimental', defineMethod({ params: z.object({}), experimental: true, handle: () => ({}) })],
    ['test/fields', defineMethod({ params: z.object({ plain: z.string().optional(), fancy: z.string().nullish() }), experimentalFields: ['fancy'], handle: () => ({}) })],
    [
      'test/askClient',
      defineMethod({
        params: z.object({ method: z.string() }),
        handle(params, { connection }) {
          lastConnection = connection;
          serverRequestOutcome = connection.request(params.method, { threadId: 't', turnId: 'u', itemId: 'i', reason: null, startedAtMs: 1 }).then(
            (result) => ({ result }),
            (error: unknown) => ({ error }),
          );
          return {};
        },
      }),
    ],
    ['test/refuse', defineMethod({ params: z.object({}), handle: () => { throw new AppServerRequestError(-32600, 'refused on purpose'); } })],
  ]);

  beforeEach(async () => {
    home = makeHome();
    blocker = gate();
    running = await startInProcess(home, { methods: testMethods, maxQueuedRequests: 3, concurrentRequests: 1 });
  });
  afterEach(async () => {
    blocker.open();
    await running.close();
    home.cleanup();
  });

  it('answers an unknown method with -32600 in Codex’s words, a Codex method Skein lacks with -32601 naming it, a request without a method with -32600', async () => {
    const client = await running.connect(transport);
    await client.initialize();
    // Codex 0.171.0's answer word for word (issue #35): every method it parses, legacy v1 names included.
    const unknown = (await client.requestReply('no/such', {})) as { error: { code: number; message: string } };
    expect(unknown.error.code).toBe(-32600);
    expect(unknown.error.message.startsWith('Invalid request: unknown variant `no/such`, expected one of `initialize`, `server/diagnostics`, `userVerification/status`,')).toBe(true);
    expect(unknown.error.message.endsWith('`account/read`, `getConversationSummary`, `gitDiffToRemote`, `getAuthStatus`, `fuzzyFileSearch`, `fuzzyFileSearch/sessionStart`, `fuzzyFileSearch/sessionUpdate`, `fuzzyFileSearch/sessionStop`')).toBe(true);
    expect(unknown.error.message.match(/`[^`]+`/g)).toHaveLength(193);
    expect(await client.requestReply('getAuthStatus', {})).toEqual({ error: { code: -32601, message: 'method not found: `getAuthStatus` is not implemented by this server' } });
    expect(await client.sendRawRequest(JSON.stringify({ id: 77, params: {} }), { id: 77, method: '(none)' })).toEqual({
      error: { code: -32600, message: 'Invalid request: missing field `method`' },
    });
    expect(await client.requestReply('thread/sample', {})).toEqual({
      error: { code: -32601, message: 'method not found: `thread/sample` is not implemented by this server' },
    });
    await client.close();
  });

  it('names the zod issue path when params fail their schema', async () => {
    const client = await running.connect(transport);
    await client.initialize();
    expect(await client.requestReply('test/echo', { value: { count: 'three' } })).toEqual({
      error: { code: -32600, message: 'Invalid request: value.count: Invalid input: expected number, received string' },
    });
    expect(await client.requestReply('test/echo', {})).toEqual({ error: { code: -32600, message: 'Invalid request: missing field `value`' } });
    expect(await client.requestReply('test/echo', null)).toEqual({ error: { code: -32600, message: 'Invalid request: missing field `params`' } });
    expect(await client.request('test/echo', { value: { count: 3 } })).toEqual({ count: 3 });
    await client.close();
  });

  // Unparseable JSON and requests without a usable id cannot be answered within Codex's schema (an
  // error needs the request's id), so they are dropped, as Codex drops them.
  it('ignores malformed JSON, non-requests and unknown notifications, and keeps serving', async () => {
    const client = await running.connect(transport);
    await client.initialize();
    client.sendRaw('{not json');
    client.sendRaw('[1, 2, 3]');
    client.sendRaw('{"id": null, "method": "model/list", "params": {}}');
    client.notify('no/such/notification', { x: 1 });
    // A `jsonrpc` member is accepted on what clients send.
    const reply = client.sendRawRequest(JSON.stringify({ jsonrpc: '2.0', id: 'after', method: 'test/echo', params: { value: { count: 1 } } }), { id: 'after', method: 'test/echo' });
    expect(await reply).toEqual({ result: { count: 1 } });
    await client.close();
  });

  it('survives a handler that throws: -32603 with its message, then the next request works', async () => {
    const client = await running.connect(transport);
    await client.initialize();
    expect(await client.requestReply('test/crash', {})).toEqual({ error: { code: -32603, message: 'handler bug' } });
    expect(await client.requestReply('test/refuse', {})).toEqual({ error: { code: -32600, message: 'refused on purpose' } });
    expect(await client.request('test/echo', { value: { count: 2 } })).toEqual({ count: 2 });
    await client.close();
  });

  it('answers -32001 once the connection has its limit of requests waiting or running', async () => {
    const client = await running.connect(transport);
    await client.initialize();
    const blocked = [client.requestReply('test/block', {}), client.requestReply('test/block', {}), client.requestReply('test/block', {})];
    expect(await client.requestReply('test/echo', { value: { count: 4 } })).toEqual({ error: { code: -32001, message: 'Server overloaded; retry later.' } });
    expect(blocker.started).toBe(1);
    blocker.open();
    expect(await Promise.all(blocked)).toEqual([{ result: {} }, { result: {} }, { result: {} }]);
    expect(await client.request('test/echo', { value: { count: 5 } })).toEqual({ count: 5 });
    await client.close();
  });

  it('keeps experimental methods and fields to clients that opted in', async () => {
    const plain = await running.connect(transport);
    await plain.initialize({ capabilities: { experimentalApi: false } });
    expect(await plain.requestReply('test/experimental', {})).toEqual({ error: { code: -32600, message: 'test/experimental requires experimentalApi capability' } });
    expect(await plain.requestReply('test/fields', { fancy: 'yes' })).toEqual({ error: { code: -32600, message: 'test/fields.fancy requires experimentalApi capability' } });
    expect(await plain.request('test/fields', { plain: 'ok', fancy: null })).toEqual({});
    await plain.close();

    const opted = await running.connect(transport);
    await opted.initialize({ capabilities: { experimentalApi: true } });
    expect(await opted.request('test/experimental', {})).toEqual({});
    expect(await opted.request('test/fields', { fancy: 'yes' })).toEqual({});
    await opted.close();
  });

  it('sends server→client requests with ids from 0 and resolves them with the client\'s answer', async () => {
    const client = await running.connect(transport);
    await client.initialize();
    client.onServerRequest((request) => ({ decision: request.id === 0 ? 'accept' : 'decline' }));
    await client.request('test/askClient', { method: 'item/fileChange/requestApproval' });
    expect(await serverRequestOutcome).toEqual({ result: { decision: 'accept' } });
    await client.request('test/askClient', { method: 'item/fileChange/requestApproval' });
    expect(await serverRequestOutcome).toEqual({ result: { decision: 'decline' } });
    expect(client.serverRequests.map((request) => request.id)).toEqual([0, 1]);
    await client.close();
  });

  it('rejects a pending server request when the client disconnects', async () => {
    const client = await running.connect(transport);
    await client.initialize();
    await client.request('test/askClient', { method: 'item/fileChange/requestApproval' });
    const closed = new Promise<void>((resolve) => lastConnection!.onClose(resolve));
    await client.close();
    await closed;
    const outcome = (await serverRequestOutcome) as { error: ServerRequestError };
    expect(outcome.error).toBeInstanceOf(ServerRequestError);
    expect(outcome.error.code).toBe('ConnectionClosed');
    expect(lastConnection!.closed.aborted).toBe(true);
  });

  it('fails the test client when the server sends a message outside Codex\'s schema', async () => {
    const client = await running.connect(transport);
    await client.initialize();
    lastConnection = undefined;
    await client.request('test/askClient', { method: 'item/fileChange/requestApproval' });
    lastConnection!.notify('thread/started', { thread: { id: 42 } });
    await expect(client.waitFor('never/sent', () => true, 5_000)).rejects.toThrow(AppServerTestClientError);
    expect(client.schemaFailures.join('\n')).toContain('ServerNotification');
    await expect(client.close()).rejects.toThrow(/fail Codex's schema/);
  });
});
