// Backpressure under load (issue 43): 50 WebSocket clients follow one thread and one of them stops
// reading. The server hangs up on that one as Codex 0.171.0 does (its log line, no JSON-RPC error),
// the others get every notification of every turn in order, the rollout and `thread/read` keep
// everything, and the server goes on serving. A burst past a connection's request queue gets
// exactly the -32001 answers the queue owes. Real loopback sockets; the mock model is the only fake.
import { readFileSync } from 'node:fs';
import { createServer, connect as connectTcp, type Server, type Socket } from 'node:net';
import { loadConfig } from '@skein/config';
import { listenWebSocket, type MessageChannel, type WebSocketListener } from '@skein/json-rpc';
import {
  AppServerTestClient,
  assistantMessage,
  completed,
  mockProviderConfigToml,
  sse,
  startMockResponsesServer,
  type MockResponsesServer,
} from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppServer } from '../src/index.js';
import { makeHome, startInProcess, textInput, threadsOn, type InProcessServer, type TestHome } from './support/app-server-harness.js';

const CLIENTS = 50;
/** Each turn streams this many deltas of `DELTA_CHARS` (256 KiB), then the whole message again in its item/completed. */
const DELTAS_PER_TURN = 16;
const DELTA_CHARS = 16 * 1024;
/**
 * What the server may hold for a client that is not reading: more than one turn sends, so a reader
 * that the single-threaded test lets fall behind for a whole turn is still kept; each turn starts
 * once every reader has the previous one.
 */
const OUTBOUND_BOUND = 1024 * 1024;
/**
 * Turns run at most before the stalled client must have been dropped: loopback's kernel buffers
 * take a few MiB (about 4 on Linux) before the server's own backlog starts to grow.
 */
const MAX_TURNS = 40;
const WAIT_MS = 60_000;
const SLOW_LINE = /disconnecting slow connection after outbound queue filled: ConnectionId\((\d+)\)/;

interface Notification {
  readonly method: string;
  readonly params: unknown;
}

/** The deltas of turn `turn`: each names its turn and place, so a lost or reordered one shows. */
function turnDeltas(turn: number): string[] {
  return Array.from({ length: DELTAS_PER_TURN }, (_, index) => `[turn ${turn} delta ${index}]`.padEnd(DELTA_CHARS, '.'));
}

function threadIdOf(params: unknown): unknown {
  return (params as { threadId?: unknown }).threadId;
}

function turnIdOf(params: unknown): unknown {
  const { turnId, turn } = params as { turnId?: unknown; turn?: { id?: unknown } };
  return turnId ?? turn?.id;
}

/** The thread's notifications, as a client received them. */
function threadNotifications(client: AppServerTestClient, threadId: string): Notification[] {
  return client.notifications.filter(({ params }) => threadIdOf(params) === threadId);
}

/** The thread's notifications of one turn, as a client received them. */
function turnNotifications(client: AppServerTestClient, threadId: string, turnId: string): Notification[] {
  return threadNotifications(client, threadId).filter(({ params }) => turnIdOf(params) === turnId);
}

function deltaText(notifications: readonly Notification[]): string {
  return notifications
    .filter(({ method }) => method === 'item/agentMessage/delta')
    .map(({ params }) => (params as { delta: string }).delta)
    .join('');
}

/** How many whole WebSocket frames `bytes` starts with. */
function wholeFrames(bytes: Buffer): number {
  let count = 0;
  let at = 0;
  while (at + 2 <= bytes.length) {
    const second = bytes[at + 1] ?? 0;
    const short = second & 0x7f;
    const header = short === 126 ? 4 : short === 127 ? 10 : 2;
    if (at + header > bytes.length) break;
    const length = short === 126 ? bytes.readUInt16BE(at + 2) : short === 127 ? Number(bytes.readBigUInt64BE(at + 2)) : short;
    const size = header + ((second & 0x80) === 0 ? 0 : 4) + length;
    if (at + size > bytes.length) break;
    at += size;
    count += 1;
  }
  return count;
}

/**
 * A loopback TCP relay in front of the listener, for one client. `stall()` stops reading what the
 * server sends, as a client does that stopped reading; `gather(n)` holds what the client sends until
 * `n` whole frames arrived and passes them on in one write, so the server reads them as one burst.
 */
interface Relay {
  readonly url: string;
  stall(): void;
  resume(): void;
  gather(frames: number): Promise<void>;
  close(): Promise<void>;
}

async function startRelay(target: string): Promise<Relay> {
  const { hostname, port } = new URL(target);
  const pairs: { client: Socket; upstream: Socket }[] = [];
  const server: Server = createServer((client) => {
    const upstream = connectTcp(Number(port), hostname);
    pairs.push({ client, upstream });
    client.pipe(upstream);
    upstream.pipe(client);
    const end = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.once('error', end);
    upstream.once('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address !== 'object') throw new Error('the relay has no TCP address');
  return {
    url: `ws://127.0.0.1:${address.port}`,
    stall() {
      for (const { client, upstream } of pairs) {
        upstream.unpipe(client);
        upstream.pause();
      }
    },
    resume() {
      for (const { client, upstream } of pairs) upstream.pipe(client);
    },
    gather(frames) {
      const pair = pairs.at(-1);
      if (pair === undefined) return Promise.reject(new Error('no client is connected through the relay'));
      const { client, upstream } = pair;
      client.unpipe(upstream);
      const held: Buffer[] = [];
      return new Promise((resolve) => {
        const hold = (chunk: Buffer): void => {
          held.push(chunk);
          const bytes = Buffer.concat(held);
          if (wholeFrames(bytes) < frames) return;
          client.off('data', hold);
          upstream.write(bytes);
          client.pipe(upstream);
          resolve();
        };
        // Unpiped, the socket was paused: it flows again into `hold`.
        client.on('data', hold).resume();
      });
    },
    async close() {
      for (const { client, upstream } of pairs) {
        client.destroy();
        upstream.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The server's log lines. */
class ServerLog {
  readonly lines: string[] = [];
  readonly write = (line: string): void => void this.lines.push(line);

  matching(pattern: RegExp): string[] {
    return this.lines.filter((line) => pattern.test(line));
  }
}

/** A transport whose backlog the test sets; it can hang up on its client only if `canDisconnect`. */
class FakeChannel implements MessageChannel {
  readonly sent: Record<string, unknown>[] = [];
  bufferedBytes = 0;
  disconnects = 0;
  readonly disconnect?: () => void;

  constructor(canDisconnect: boolean) {
    if (canDisconnect) this.disconnect = () => void (this.disconnects += 1);
  }

  send(text: string): void {
    this.sent.push(JSON.parse(text) as Record<string, unknown>);
  }
}

let model: MockResponsesServer;
let home: TestHome;
let log: ServerLog;
let server: InProcessServer | undefined;
let listener: WebSocketListener | undefined;
let relay: Relay | undefined;
const clients: AppServerTestClient[] = [];

beforeEach(async () => {
  model = await startMockResponsesServer();
  home = makeHome(mockProviderConfigToml(model.url));
  log = new ServerLog();
});
afterEach(async () => {
  // A client the server hung up on is already closed; closing it again is a no-op.
  for (const client of clients.splice(0)) await client.close();
  await relay?.close();
  await listener?.close();
  await server?.close();
  relay = undefined;
  listener = undefined;
  server = undefined;
  try {
    await model.close();
  } finally {
    home.cleanup();
  }
});

async function startServer(limits: { maxOutboundBufferedBytes?: number; maxQueuedRequests?: number }): Promise<{ url: string; app: AppServer }> {
  server = await startInProcess(home, { threads: threadsOn(home), log: log.write, ...limits });
  listener = await listenWebSocket({ host: '127.0.0.1', port: 0, server: server.server });
  return { url: listener.url, app: server.server };
}

async function connectClient(url: string): Promise<AppServerTestClient> {
  const client = await AppServerTestClient.connectWebSocket(url, { timeoutMs: WAIT_MS });
  clients.push(client);
  await client.initialize();
  return client;
}

describe('a WebSocket client that stops reading (issue 43)', () => {
  it('is dropped as Codex drops it, while 49 others get every notification and nothing recorded is lost', { timeout: 120_000 }, async () => {
    const { url, app } = await startServer({ maxOutboundBufferedBytes: OUTBOUND_BOUND });
    const owner = await connectClient(url);
    const { thread } = (await owner.request('thread/start', { cwd: home.workspace, approvalPolicy: 'never', sandbox: 'read-only' })) as { thread: { id: string; path: string } };
    const threadId = thread.id;
    const readers = [owner];
    for (let index = 1; index < CLIENTS - 1; index += 1) readers.push(await connectClient(url));
    relay = await startRelay(url);
    const slow = await connectClient(relay.url);
    const slowConnection = app.connections.at(-1);
    if (slowConnection === undefined) throw new Error('the slow client has no connection');
    const slowClosed = new Promise<void>((resolve) => slow.onClose(resolve));
    // thread/resume of a loaded thread makes each client one of its subscribers.
    await Promise.all([...readers.slice(1), slow].map((client) => client.request('thread/resume', { threadId, excludeTurns: true })));
    expect(app.subscriptions.subscribers(threadId)).toHaveLength(CLIENTS);

    relay.stall();
    const messages: string[] = [];
    const turnIds: string[] = [];
    /** The notifications of the turns run while the slow client stalled, in order. */
    const broadcast: string[] = [];
    while (log.matching(SLOW_LINE).length === 0) {
      const turnNumber = messages.length + 1;
      if (turnNumber > MAX_TURNS) throw new Error(`the stalled client was still connected after ${MAX_TURNS} turns`);
      const deltas = turnDeltas(turnNumber);
      messages.push(deltas.join(''));
      model.expect([sse(assistantMessage(deltas), completed())]);
      const { turn } = (await owner.request('turn/start', { threadId, input: textInput(`turn ${turnNumber}`) })) as { turn: { id: string } };
      turnIds.push(turn.id);
      await Promise.all(readers.map((client) => client.waitFor('turn/completed', (params) => turnIdOf(params) === turn.id, WAIT_MS)));
      // Every reader saw the same notifications of the turn, in the same order, ending with the
      // turn's end, and every delta.
      const expected = turnNotifications(owner, threadId, turn.id).map(({ method }) => method);
      expect(expected).toContain('item/agentMessage/delta');
      broadcast.push(...expected);
      for (const client of readers) {
        const seen = turnNotifications(client, threadId, turn.id);
        expect(seen.map(({ method }) => method)).toEqual(expected);
        expect(deltaText(seen)).toBe(messages.at(-1));
        expect(seen.at(-1)).toMatchObject({ method: 'turn/completed', params: { turn: { id: turn.id, status: 'completed' } } });
        // What is checked is let go, so 50 clients do not hold every megabyte of every turn.
        client.notifications.splice(0);
      }
    }

    // Codex's log line, once, naming the stalled connection; the server's disconnect path ran.
    expect(log.matching(SLOW_LINE)).toEqual([expect.stringContaining(`ConnectionId(${slowConnection.id})`)]);
    expect(slowConnection.closed.aborted).toBe(true);
    expect(app.connections).not.toContain(slowConnection);
    expect(app.subscriptions.subscribers(threadId)).toHaveLength(CLIENTS - 1);

    // Read again, the stalled client gets what its socket still held, then the end of the connection:
    // a beginning of what the others got, and no error answer.
    relay.resume();
    await slowClosed;
    expect(slow.schemaFailures).toEqual([]);
    const slowSaw = threadNotifications(slow, threadId)
      .filter(({ params }) => turnIds.includes(turnIdOf(params) as string))
      .map(({ method }) => method);
    expect(slowSaw.length).toBeLessThan(broadcast.length);
    expect(slowSaw).toEqual(broadcast.slice(0, slowSaw.length));

    // Nothing recorded is lost: thread/read and the rollout hold every turn's whole message.
    const read = (await readers[1]?.request('thread/read', { threadId, includeTurns: true })) as { thread: { turns: { items: { type: string; text?: string }[] }[] } };
    expect(read.thread.turns.map((turn) => turn.items.filter((item) => item.type === 'agentMessage').map((item) => item.text))).toEqual(messages.map((message) => [message]));
    const recorded = readFileSync(thread.path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; payload: { type?: string; role?: string; content?: { text?: string }[] } })
      .filter(({ type, payload }) => type === 'response_item' && payload.type === 'message' && payload.role === 'assistant')
      .map(({ payload }) => payload.content?.map((part) => part.text).join(''));
    expect(recorded).toEqual(messages);

    // The server goes on serving: a newcomer joins the thread and runs a turn every reader sees whole.
    const newcomer = await connectClient(url);
    await newcomer.request('thread/resume', { threadId, excludeTurns: true });
    const lastDeltas = turnDeltas(messages.length + 1).slice(0, 8);
    model.expect([sse(assistantMessage(lastDeltas), completed())]);
    const { turn } = (await newcomer.request('turn/start', { threadId, input: textInput('one more') })) as { turn: { id: string } };
    for (const client of [...readers, newcomer]) {
      await client.waitFor('turn/completed', (params) => turnIdOf(params) === turn.id, WAIT_MS);
      expect(deltaText(turnNotifications(client, threadId, turn.id))).toBe(lastDeltas.join(''));
    }
  });
});

describe('a burst past a connection request queue', () => {
  it('is answered -32001 for exactly the requests the queue had no room for; other clients are unaffected', async () => {
    const maxQueuedRequests = 4;
    const burstSize = 20;
    const { url } = await startServer({ maxQueuedRequests });
    relay = await startRelay(url);
    const [burster, peer] = [await connectClient(relay.url), await connectClient(url)];
    // The server reads the whole burst at once, so none of it is answered before the rest arrives:
    // the first `maxQueuedRequests` take the queue and the others are refused.
    const gathered = relay.gather(burstSize);
    const burst = Array.from({ length: burstSize }, () => burster.requestReply('model/list', { limit: 1 }));
    const peerReplies = Array.from({ length: maxQueuedRequests }, () => peer.requestReply('model/list', { limit: 1 }));
    await gathered;
    const replies = await Promise.all(burst);
    const overloaded = { error: { code: -32001, message: 'Server overloaded; retry later.' } };
    expect(replies.slice(maxQueuedRequests)).toEqual(Array.from({ length: replies.length - maxQueuedRequests }, () => overloaded));
    // Every other request, the burster's and its peer's, is answered as usual (all alike).
    const answered = [...replies.slice(0, maxQueuedRequests), ...(await Promise.all(peerReplies))];
    expect(answered[0]).toHaveProperty('result.data');
    expect(answered).toEqual(answered.map(() => answered[0]));
    // The queue is free again once its requests are answered.
    expect(await burster.requestReply('model/list', { limit: 1 })).toHaveProperty('result');
  });
});

describe('the outbound bound of one connection', () => {
  async function connected(canDisconnect: boolean) {
    const app = new AppServer({ config: await loadConfig({ cwd: home.workspace, env: home.env }), maxOutboundBufferedBytes: 1000, log: log.write });
    const channel = new FakeChannel(canDisconnect);
    const connection = app.connect(channel);
    connection.receive(JSON.stringify({ id: 1, method: 'initialize', params: { clientInfo: { name: 'unit', version: '1' } } }));
    await connection.drain();
    channel.sent.length = 0;
    return { app, channel, connection };
  }

  it('hangs up on a client that can be dropped at its next message of any kind, once, and sends it nothing more', async () => {
    const { app, channel, connection } = await connected(true);
    connection.notify('skills/changed', {});
    channel.bufferedBytes = 1001;
    connection.receive(JSON.stringify({ id: 2, method: 'model/list', params: { limit: 1 } }));
    await connection.drain();
    connection.notify('skills/changed', {});
    expect(connection.sendRequest(7, 'item/tool/requestUserInput', {})).toBe(false);
    expect(channel.sent.map((message) => message['method'] ?? message['id'])).toEqual(['skills/changed']);
    expect(channel.disconnects).toBe(1);
    expect(log.matching(SLOW_LINE)).toEqual([`disconnecting slow connection after outbound queue filled: ConnectionId(${connection.id})`]);
    expect(connection.droppedNotifications).toBe(0);
    await app.close();
  });

  it('keeps answering a stdio client over the bound but drops its notifications, logging each run of drops once', async () => {
    const { app, channel, connection } = await connected(false);
    channel.bufferedBytes = 1001;
    connection.notify('skills/changed', {});
    connection.notify('skills/changed', {});
    connection.receive(JSON.stringify({ id: 2, method: 'model/list', params: { limit: 1 } }));
    await connection.drain();
    channel.bufferedBytes = 0;
    connection.notify('skills/changed', {});
    expect(channel.sent.map((message) => message['method'] ?? message['id'])).toEqual([2, 'skills/changed']);
    expect(channel.sent[0]).toHaveProperty('result');
    expect(connection.droppedNotifications).toBe(2);
    expect(log.matching(/dropping notifications/)).toHaveLength(1);
    expect(log.matching(SLOW_LINE)).toEqual([]);
    await app.close();
  });
});
