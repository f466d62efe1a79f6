// The mock Realtime server, driven by a real `ws` client the way Codex connects to OpenAI's endpoint.
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, type RawData } from 'ws';
import { MockServerError } from './mock-server-error.js';
import { startMockRealtimeServer } from './mock-realtime-server.js';
import type { MockRealtimeServer, MockRealtimeServerOptions } from './mock-realtime-server.js';
import { realtimeEvents } from './realtime-events.js';

const REALTIME_PATH = '/v1/realtime?model=gpt-realtime-1.5';

/** A client socket with what the server sent it, in order. */
interface TestClient {
  readonly ws: WebSocket;
  readonly messages: unknown[];
  /** Resolves with the n-th message (0-based) once it has arrived. */
  message(index: number): Promise<unknown>;
  readonly closed: Promise<number>;
}

let server: MockRealtimeServer | undefined;
const clients: WebSocket[] = [];

afterEach(async () => {
  for (const ws of clients.splice(0)) ws.terminate();
  await server?.close();
  server = undefined;
});

async function start(options?: MockRealtimeServerOptions): Promise<MockRealtimeServer> {
  server = await startMockRealtimeServer(options);
  return server;
}

function frameText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

async function connect(url: string, headers: Record<string, string> = {}): Promise<TestClient> {
  const ws = new WebSocket(`${url}${REALTIME_PATH}`, { headers });
  clients.push(ws);
  const messages: unknown[] = [];
  const arrivals: (() => void)[] = [];
  ws.on('message', (data: RawData) => {
    messages.push(JSON.parse(frameText(data)));
    for (const arrived of arrivals.splice(0)) arrived();
  });
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const message = async (index: number): Promise<unknown> => {
    while (messages.length <= index) await new Promise<void>((resolve) => arrivals.push(resolve));
    return messages[index];
  };
  return { ws, messages, message, closed };
}

describe('startMockRealtimeServer', () => {
  it('captures the path and the upgrade headers of each connection, in order', async () => {
    const mock = await start();
    expect(mock.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
    await connect(mock.url, { Authorization: 'Bearer sk-test', 'X-Session-Id': 'thread-1' });
    await connect(mock.url);

    const first = await mock.nextConnection();
    const second = await mock.nextConnection();
    expect(first.path).toBe(REALTIME_PATH);
    expect(first.headers).toMatchObject({ authorization: 'Bearer sk-test', 'x-session-id': 'thread-1' });
    expect(second.headers.authorization).toBeUndefined();
    expect(mock.connections).toEqual([first, second]);
  });

  it('answers session.update with session.updated, numbered per connection, or as the option says', async () => {
    const mock = await start();
    const client = await connect(mock.url);
    client.ws.send(JSON.stringify({ type: 'session.update', session: { type: 'realtime' } }));
    expect(await client.message(0)).toEqual({ type: 'session.updated', session: { id: 'sess_mock_1', type: 'realtime' } });
    await mock.close();

    const seen: number[] = [];
    const custom = await start({
      sessionUpdated: (update, connectionIndex) => {
        seen.push(connectionIndex);
        return update.session === 'silent' ? undefined : { type: 'session.updated', session: { id: 'sess_custom' } };
      },
    });
    const other = await connect(custom.url);
    other.ws.send(JSON.stringify({ type: 'session.update', session: 'silent' }));
    other.ws.send(JSON.stringify({ type: 'session.update', session: {} }));
    expect(await other.message(0)).toEqual({ type: 'session.updated', session: { id: 'sess_custom' } });
    expect(other.messages).toHaveLength(1);
    expect(seen).toEqual([0, 0]);
  });

  it('waitFor counts events already received and those still to come, by type or by predicate', async () => {
    const mock = await start({ sessionUpdated: () => undefined });
    const client = await connect(mock.url);
    const connection = await mock.nextConnection();
    for (const audio of ['a', 'b', 'c']) client.ws.send(JSON.stringify({ type: 'input_audio_buffer.append', audio }));

    await expect(connection.waitFor('input_audio_buffer.append', { count: 2 })).resolves.toMatchObject({ audio: 'b' });
    const item = connection.waitFor((event) => event.type === 'conversation.item.create' && event.item !== undefined);
    client.ws.send(JSON.stringify({ type: 'conversation.item.create' }));
    client.ws.send(JSON.stringify({ type: 'conversation.item.create', item: { type: 'message' } }));
    await expect(item).resolves.toEqual({ type: 'conversation.item.create', item: { type: 'message' } });
    await expect(connection.waitFor('input_audio_buffer.append', { count: 4, timeoutMs: 20 })).rejects.toThrow(
      /fewer than 4 "input_audio_buffer.append" events \(3 so far\) within 20 ms/,
    );
    expect(connection.received.map((event) => event.type)).toEqual([
      'input_audio_buffer.append',
      'input_audio_buffer.append',
      'input_audio_buffer.append',
      'conversation.item.create',
      'conversation.item.create',
    ]);
  });

  it('waitFor times out with the types received so far', async () => {
    const mock = await start();
    const client = await connect(mock.url);
    const connection = await mock.nextConnection();
    client.ws.send(JSON.stringify({ type: 'session.update' }));
    client.ws.send(JSON.stringify({ type: 'input_audio_buffer.append' }));
    client.ws.send(JSON.stringify({ type: 'input_audio_buffer.append' }));
    await connection.waitFor('input_audio_buffer.append', { count: 2 });

    const error: unknown = await connection.waitFor('response.create', { timeoutMs: 30 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MockServerError);
    expect(error).toMatchObject({ code: 'Timeout' });
    expect((error as Error).message).toBe(
      `connections[0] ${REALTIME_PATH}: no "response.create" event within 30 ms; received 3 events: session.update, input_audio_buffer.append ×2`,
    );
  });

  it('sends server events as JSON text frames', async () => {
    const mock = await start();
    const client = await connect(mock.url);
    const connection = await mock.nextConnection();
    connection.send(realtimeEvents.handoff({ callId: 'call_1', prompt: 'run the tests' }));
    connection.send(realtimeEvents.outputAudioDelta({ itemId: 'item_2', data: 'AAAA', sampleRate: 24000 }));

    expect(await client.message(0)).toEqual({
      type: 'conversation.item.done',
      item: { id: 'item_call_1', type: 'function_call', name: 'background_agent', call_id: 'call_1', arguments: '{"prompt":"run the tests"}' },
    });
    expect(await client.message(1)).toEqual({ type: 'response.output_audio.delta', item_id: 'item_2', delta: 'AAAA', sample_rate: 24000 });
  });

  it('drop() cuts the socket: the client sees 1006, closed settles and waits end', async () => {
    const mock = await start();
    const client = await connect(mock.url);
    const connection = await mock.nextConnection();
    // The expectation is attached now: the wait rejects while the test awaits the close.
    const waiting = expect(connection.waitFor('response.create')).rejects.toMatchObject({ code: 'ConnectionClosed' });

    connection.drop();
    expect(await client.closed).toBe(1006);
    expect(await connection.closed).toEqual({ code: 1006, reason: '' });
    await waiting;
    expect(() => connection.send(realtimeEvents.error('late'))).toThrow(/after the socket closed/);
  });

  it('close(code, reason) closes cleanly', async () => {
    const mock = await start();
    const client = await connect(mock.url);
    const connection = await mock.nextConnection();
    connection.close(4000, 'done');
    expect(await client.closed).toBe(4000);
    expect(await connection.closed).toEqual({ code: 4000, reason: 'done' });
  });

  it('close() of the server ends pending nextConnection waits and terminates open connections', async () => {
    const mock = await start();
    const client = await connect(mock.url);
    const open = await mock.nextConnection();
    const pending = expect(mock.nextConnection()).rejects.toMatchObject({ code: 'ServerClosed' });

    await mock.close();
    await pending;
    expect(await client.closed).toBe(1006);
    expect((await open.closed).code).toBe(1006);
    await expect(mock.nextConnection()).rejects.toMatchObject({ code: 'ServerClosed' });
  });

  it('nextConnection times out when nobody connects', async () => {
    const mock = await start();
    await expect(mock.nextConnection({ timeoutMs: 20 })).rejects.toThrow(/no new connection within 20 ms \(0 accepted, all taken\)/);
  });

  it('records frames that are not JSON events in problems and keeps the rest', async () => {
    const mock = await start();
    const client = await connect(mock.url);
    const connection = await mock.nextConnection();
    client.ws.send('not json');
    client.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    client.ws.send(JSON.stringify({ kind: 'no type' }));
    client.ws.send(JSON.stringify({ type: 'input_audio_buffer.commit' }));

    await connection.waitFor('input_audio_buffer.commit');
    expect(connection.received).toEqual([{ type: 'input_audio_buffer.commit' }]);
    expect(connection.problems).toEqual([
      'frame 0: not JSON: not json',
      'frame 1: a binary frame of 3 bytes; the Realtime API takes JSON text frames',
      'frame 2: not a JSON object with a string `type`: {"kind":"no type"}',
    ]);
  });
});

describe('realtimeEvents', () => {
  it('builds GA server events, leaving out what was not given', () => {
    expect(realtimeEvents.remainSilent({ callId: 'call_9' })).toEqual({
      type: 'conversation.item.done',
      item: { id: 'item_call_9', type: 'function_call', name: 'remain_silent', call_id: 'call_9', arguments: '{}' },
    });
    expect(realtimeEvents.outputAudioDelta({ itemId: 'i', data: 'AA' })).toEqual({ type: 'response.output_audio.delta', item_id: 'i', delta: 'AA' });
    expect(realtimeEvents.inputTranscriptCompleted('i', 'hello')).toEqual({
      type: 'conversation.item.input_audio_transcription.completed',
      item_id: 'i',
      transcript: 'hello',
    });
    expect(realtimeEvents.responseDone('resp_1')).toEqual({ type: 'response.done', response: { id: 'resp_1' } });
    expect(realtimeEvents.error('boom')).toEqual({ type: 'error', error: { message: 'boom', type: 'server_error' } });
  });
});
