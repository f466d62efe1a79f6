// Realtime conversations as a Codex client holds them through the app-server: `thread/realtime/*`
// against the mock realtime endpoint (the Realtime API v2 over a WebSocket) and the mock Responses
// server. Text in, transcripts out, a handoff that becomes a turn and whose answer goes back, audio
// relayed in order with its metadata, stop, the record that `thread/realtime/list` and a resume
// read, a dropped socket, and the refusals.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  assistantMessage,
  completed,
  held,
  mockProviderConfigToml,
  realtimeEvents,
  sse,
  startMockRealtimeServer,
  startMockResponsesServer,
  type AppServerTestClient,
  type MockRealtimeConnection,
  type MockRealtimeServer,
  type MockResponsesServer,
  type RealtimeClientEvent,
} from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeHome, runTurnToEnd, spawnStdioClient, type TestHome } from './support/app-server-harness.js';

let model: MockResponsesServer;
let realtime: MockRealtimeServer;
let home: TestHome;
const clients: AppServerTestClient[] = [];

beforeEach(async () => {
  model = await startMockResponsesServer();
  realtime = await startMockRealtimeServer();
  home = makeHome(`experimental_realtime_ws_base_url = "${realtime.url}"\n${mockProviderConfigToml(model.url)}`);
  writeFileSync(path.join(home.home, 'auth.json'), JSON.stringify({ auth_mode: 'apikey', OPENAI_API_KEY: 'sk-realtime-test' }));
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await realtime.close();
  await model.close();
  home.cleanup();
});

async function appServer(): Promise<AppServerTestClient> {
  const client = spawnStdioClient(home);
  clients.push(client);
  await client.initialize();
  return client;
}

async function startThread(client: AppServerTestClient): Promise<string> {
  const { thread } = (await client.request('thread/start', { cwd: home.workspace })) as { thread: { id: string } };
  return thread.id;
}

/** Starts a conversation and waits for the endpoint to be set up and the client told. */
async function startConversation(client: AppServerTestClient, threadId: string, params: Record<string, unknown> = {}): Promise<MockRealtimeConnection> {
  expect(await client.request('thread/realtime/start', { threadId, outputModality: 'text', ...params })).toEqual({});
  const connection = await realtime.nextConnection().catch((error: unknown) => {
    throw new Error(`${(error as Error).message}; the client heard ${JSON.stringify(client.notificationsOf('thread/realtime/error'))}`);
  });
  await connection.waitFor('session.update');
  await client.waitFor('thread/realtime/started', (p) => (p as { threadId: string }).threadId === threadId);
  return connection;
}

const itemText = (event: RealtimeClientEvent) => ((event['item'] as { content?: { text: string }[] }).content ?? []).map((part) => part.text).join('');
const isMessage = (text: string) => (event: RealtimeClientEvent) => event.type === 'conversation.item.create' && (event['item'] as { type: string }).type === 'message' && itemText(event) === text;
const isCallOutput = (callId: string) => (event: RealtimeClientEvent) => event.type === 'conversation.item.create' && (event['item'] as { call_id?: string }).call_id === callId;

interface Listed {
  data: { position: number; item: { id: string; type: string; realtimeSessionId: string; [key: string]: unknown } }[];
  nextCursor: string | null;
  snapshotEnd: number;
  coverage: string;
}

describe('a realtime conversation', () => {
  it('relays text, transcripts and audio, hands a request to the agent and its answer back, stops, and is recorded', async () => {
    const client = await appServer();
    const threadId = await startThread(client);
    const connection = await startConversation(client, threadId);

    // The endpoint: Codex's URL and headers, then a v2 session that delegates through background_agent.
    expect(connection.path).toBe('/v1/realtime?model=gpt-realtime-1.5');
    expect(connection.headers).toMatchObject({ authorization: 'Bearer sk-realtime-test', 'thread-id': threadId, 'session-id': threadId });
    const update = connection.received[0]!;
    const session = update['session'] as { type: string; output_modalities: string[]; tools: { name: string }[]; audio: { output: { voice: string } }; instructions: string };
    expect(session.type).toBe('realtime');
    expect(session.output_modalities).toEqual(['text']);
    expect(session.tools.map((tool) => tool.name)).toEqual(['background_agent', 'remain_silent']);
    expect(session.audio.output.voice).toBe('marin');
    expect(session.instructions).toContain('<startup_context>');
    expect(session.instructions).toContain(`Working directory: ${home.workspace}`);
    const started = (await client.waitFor('thread/realtime/started')) as { realtimeSessionId: string; version: string };
    expect(started.version).toBe('v2');
    expect(connection.headers['x-session-id']).toBe(started.realtimeSessionId);

    // Text in: the user's typed text is marked as such.
    await client.request('thread/realtime/appendText', { threadId, text: 'hello there' });
    await connection.waitFor(isMessage('[USER] hello there'));

    // Transcript out: a segment opens, grows and closes; the role-wide transcript follows.
    connection.send(realtimeEvents.outputTextDelta('it1', 'Hi '));
    connection.send(realtimeEvents.outputTextDone('it1', 'Hi you'));
    expect(await client.waitFor('thread/realtime/transcript/done')).toEqual({ threadId, role: 'assistant', text: 'Hi you' });
    const segment = (client.notificationsOf('thread/realtime/item/completed') as { item: { type: string; role?: string; text?: string } }[]).map((p) => p.item).find((item) => item.type === 'transcriptSegment');
    expect(segment).toMatchObject({ role: 'assistant', text: 'Hi ' });
    expect(client.notificationsOf('thread/realtime/transcript/delta')).toEqual([{ threadId, role: 'assistant', delta: 'Hi ' }]);

    // A handoff: the request becomes a turn whose answer goes back, then the call is closed.
    model.expect([sse(assistantMessage('There are three files.'), completed())]);
    connection.send(realtimeEvents.handoff({ callId: 'call_1', prompt: 'list the files' }));
    const added = (await client.waitFor('thread/realtime/itemAdded')) as { item: Record<string, unknown> };
    expect(added.item).toEqual({ type: 'handoff_request', handoff_id: 'call_1', item_id: 'item_call_1', input_transcript: 'list the files', active_transcript: [{ role: 'assistant', text: 'Hi you' }, { role: 'user', text: 'list the files' }] });
    await client.waitFor('turn/completed');
    const answer = await connection.waitFor(isMessage('[BACKEND] There are three files.'));
    const output = await connection.waitFor(isCallOutput('call_1'));
    expect(connection.received.indexOf(output)).toBeGreaterThan(connection.received.indexOf(answer));
    await connection.waitFor((event) => event.type === 'response.create' && connection.received.indexOf(event) > connection.received.indexOf(output));
    const request = model.requests[0]!;
    expect(request.messageTexts('user')).toContain('<realtime_delegation>\n  <input>list the files</input>\n  <transcript_delta>assistant: Hi you\nuser: list the files</transcript_delta>\n</realtime_delegation>');
    expect(request.messageTexts('developer').some((text) => text.startsWith('<realtime_conversation>\nRealtime conversation started.'))).toBe(true);
    expect(JSON.parse(request.header('x-codex-turn-metadata') ?? '{}')).toMatchObject({ turn_trigger: 'realtime' });

    // Audio: the user's chunks in order; the model's with their sample metadata.
    await client.request('thread/realtime/appendAudio', { threadId, audio: { data: 'AAAA', sampleRate: 24000, numChannels: 1, samplesPerChannel: 2 } });
    await client.request('thread/realtime/appendAudio', { threadId, audio: { data: 'BBBB', sampleRate: 24000, numChannels: 1 } });
    await connection.waitFor('input_audio_buffer.append', { count: 2 });
    expect(connection.received.filter((event) => event.type === 'input_audio_buffer.append').map((event) => event['audio'])).toEqual(['AAAA', 'BBBB']);
    connection.send(realtimeEvents.outputAudioDelta({ itemId: 'it2', data: 'QUJD', sampleRate: 24000, channels: 1, samplesPerChannel: 3 }));
    connection.send(realtimeEvents.outputAudioDelta({ itemId: 'it2', data: 'REVG' }));
    await client.waitFor('thread/realtime/outputAudio/delta', (p) => (p as { audio: { data: string } }).audio.data === 'REVG');
    expect(client.notificationsOf('thread/realtime/outputAudio/delta')).toEqual([
      { threadId, audio: { data: 'QUJD', sampleRate: 24000, numChannels: 1, samplesPerChannel: 3, itemId: 'it2' } },
      { threadId, audio: { data: 'REVG', sampleRate: 24000, numChannels: 1, samplesPerChannel: null, itemId: 'it2' } },
    ]);

    // Stop: the endpoint is let go and the client told why.
    await client.request('thread/realtime/stop', { threadId });
    expect(await client.waitFor('thread/realtime/closed')).toEqual({ threadId, reason: 'requested' });
    expect((await connection.closed).code).toBe(1000);

    // The record: the session's start and end, the transcript frame and the accepted handoff, in file order.
    const listed = (await client.request('thread/realtime/list', { threadId })) as Listed;
    expect(listed.coverage).toBe('ready');
    expect(listed.data.map((entry) => entry.item.type)).toEqual(['realtimeSessionStarted', 'frame', 'turnInputAccepted', 'realtimeSessionClosed']);
    expect(listed.data.every((entry) => entry.item.realtimeSessionId === started.realtimeSessionId)).toBe(true);
    expect(listed.data[1]!.item['channels']).toEqual({ voice_transcript: { role: 'assistant', text: 'Hi ' } });
    expect(listed.data[2]!.item).toMatchObject({ handoff_id: 'call_1', input: 'list the files', mode: 'start' });
    expect(listed.data[3]!.item['outcome']).toBe('ended');
    const positions = listed.data.map((entry) => entry.position);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    // Paged: one at a time through the cursor, the same items.
    const first = (await client.request('thread/realtime/list', { threadId, limit: 2 })) as Listed;
    const second = (await client.request('thread/realtime/list', { threadId, limit: 2, cursor: first.nextCursor })) as Listed;
    expect([...first.data, ...second.data]).toEqual(listed.data);
    expect(second.nextCursor).toBeNull();

    // The timeline shows the items between the turn's entries, and which session was live where a page starts.
    type Timeline = { data: { type: string; position: number }[]; activeRealtimeSessionAtPageStart: string | null };
    const timeline = (await client.request('thread/timeline/list', { threadId })) as Timeline;
    expect(timeline.data.filter((entry) => entry.type === 'realtime').map((entry) => entry.position)).toEqual(positions);
    expect(timeline.data.map((entry) => entry.position)).toEqual([...timeline.data.map((entry) => entry.position)].sort((a, b) => a - b));
    expect(timeline.activeRealtimeSessionAtPageStart).toBeNull();
    expect(timeline.data.find((entry) => entry.type === 'realtime' && (entry as unknown as { item: { type: string } }).item.type === 'transcriptSegment')).toMatchObject({ item: { role: 'assistant', text: 'Hi ' } });
    const afterStart = timeline.data.findIndex((entry) => entry.type === 'realtime') + 1;
    expect(((await client.request('thread/timeline/list', { threadId, cursor: String(afterStart) })) as Timeline).activeRealtimeSessionAtPageStart).toBe(started.realtimeSessionId);

    // The next typed turn: the model is told the conversation ended.
    model.expect([sse(assistantMessage('ok'), completed())]);
    await runTurnToEnd(client, threadId, 'typed again');
    expect(model.requests[1]!.messageTexts('developer').some((text) => text.startsWith('<realtime_conversation>\nRealtime conversation ended.'))).toBe(true);

    // A resumed thread lists the same items, and its model is not told again.
    await client.close();
    const again = await appServer();
    await again.request('thread/resume', { threadId });
    expect(((await again.request('thread/realtime/list', { threadId })) as Listed).data).toEqual(listed.data);
    model.expect([sse(assistantMessage('ok'), completed())]);
    await runTurnToEnd(again, threadId, 'after resume');
    const told = (index: number) => model.requests[index]!.messageTexts('developer').filter((text) => text.startsWith('<realtime_conversation>'));
    expect(told(2)).toEqual(told(1));
  });

  it('routes answers as developer items with the prefix, steers a running turn, stays silent, and leaves routing to the client when asked', async () => {
    const client = await appServer();
    const threadId = await startThread(client);
    const connection = await startConversation(client, threadId, { codexResponsesAsItems: true, codexResponseItemPrefix: 'PFX:', realtimeStartInstructions: 'Voice mode is on.' });

    let release = () => undefined as void;
    const released = new Promise<void>((resolve) => (release = resolve));
    model.expect([held(sse(assistantMessage('Tests pass.'), completed()), { before: 'completed', until: released }), sse(assistantMessage('Lint is clean too.'), completed())]);
    connection.send(realtimeEvents.handoff({ callId: 'call_a', prompt: 'run the tests' }));
    // A second request while the agent waits on the model steers its turn; the call is answered at once.
    await vi.waitFor(() => expect(model.requests.length).toBe(1));
    connection.send(realtimeEvents.handoff({ callId: 'call_b', prompt: 'and lint' }));
    const steered = await connection.waitFor(isCallOutput('call_b'));
    expect((steered['item'] as { output: string }).output).not.toBe('');
    connection.send(realtimeEvents.remainSilent({ callId: 'call_s' }));
    expect(((await connection.waitFor(isCallOutput('call_s')))['item'] as { output: string }).output).toBe('');
    release();
    await client.waitFor('turn/completed');
    await connection.waitFor(isCallOutput('call_a'));
    const answers = connection.received.filter((event) => event.type === 'conversation.item.create' && (event['item'] as { role?: string }).role === 'developer').map(itemText);
    expect(answers).toEqual(['PFX:\n\n[BACKEND] Tests pass.', 'PFX:\n\n[BACKEND] Lint is clean too.']);
    expect(((await connection.waitFor(isCallOutput('call_a')))['item'] as { output: string }).output).toBe('');
    // The client's start instructions are what the model was told; the steer reached the same turn.
    expect(model.requests[0]!.messageTexts('developer')).toContain('<realtime_conversation>\nVoice mode is on.\n</realtime_conversation>');
    expect(model.requests[1]!.messageTexts('user').some((text) => text.includes('<input>and lint</input>'))).toBe(true);
    const listed = (await client.request('thread/realtime/list', { threadId })) as Listed;
    expect(listed.data.filter((entry) => entry.item.type === 'turnInputAccepted').map((entry) => entry.item['mode'])).toEqual(['start', 'steer']);

    // A client that routes answers itself: the turn runs, nothing goes back on its own.
    const managed = await startConversation(client, threadId, { clientManagedHandoffs: true });
    expect(await client.waitFor('thread/realtime/closed')).toEqual({ threadId, reason: 'requested' });
    model.expect([sse(assistantMessage('It is noon.'), completed())]);
    const turns = client.notificationsOf('turn/completed').length;
    managed.send(realtimeEvents.handoff({ callId: 'call_m', prompt: 'what time is it' }));
    await client.waitFor('turn/completed', () => client.notificationsOf('turn/completed').length > turns);
    await client.request('thread/realtime/appendSpeech', { threadId, text: 'It is noon.' });
    await managed.waitFor(isMessage('[BACKEND] It is noon.'));
    await managed.waitFor('response.create');
    expect(managed.received.some(isCallOutput('call_m'))).toBe(false);
  });

  it('ends with closed when the realtime socket drops, and leaves the thread usable', async () => {
    const client = await appServer();
    const threadId = await startThread(client);
    const connection = await startConversation(client, threadId);
    connection.send(realtimeEvents.inputTranscriptDelta('u1', 'run the '));
    await client.waitFor('thread/realtime/transcript/delta');
    connection.drop();
    const error = (await client.waitFor('thread/realtime/error')) as { message: string };
    expect(error.message).toMatch(/realtime connection was lost/);
    expect(await client.waitFor('thread/realtime/closed')).toEqual({ threadId, reason: 'error' });
    // The half-said segment is closed and kept; the session's end is recorded as failed.
    const listed = (await client.request('thread/realtime/list', { threadId })) as Listed;
    expect(listed.data.map((entry) => [entry.item.type, entry.item['outcome'] ?? entry.item['channels']])).toEqual([
      ['realtimeSessionStarted', undefined],
      ['frame', { voice_transcript: { role: 'user', text: 'run the ' } }],
      ['realtimeSessionClosed', 'failed'],
    ]);
    await expect(client.request('thread/realtime/appendText', { threadId, text: 'still there?' })).rejects.toThrow(/no realtime conversation is running/);
    model.expect([sse(assistantMessage('Still here.'), completed())]);
    await runTurnToEnd(client, threadId, 'are you there?');
    // An endpoint error ends the next conversation the same way.
    const next = await startConversation(client, threadId);
    next.send(realtimeEvents.error('rate limited'));
    expect(await client.waitFor('thread/realtime/error', (p) => (p as { message: string }).message === 'rate limited')).toEqual({ threadId, message: 'rate limited' });
    await client.waitFor('thread/realtime/closed', () => client.notificationsOf('thread/realtime/closed').length === 2);
  });

  it('queues appends made before the socket opens, answers unknown and repeated calls once, and stops cleanly while connecting', async () => {
    const client = await appServer();
    const threadId = await startThread(client);
    // Appended at once after start: sent after session.update, in order.
    expect(await client.request('thread/realtime/start', { threadId, outputModality: 'audio' })).toEqual({});
    await client.request('thread/realtime/appendText', { threadId, text: 'first' });
    await client.request('thread/realtime/appendText', { threadId, text: 'a note', role: 'developer' });
    const connection = await realtime.nextConnection();
    await connection.waitFor(isMessage('a note'));
    expect(connection.received.map((event) => (event.type === 'session.update' ? 'session.update' : itemText(event)))).toEqual(['session.update', '[USER] first', 'a note']);
    await client.waitFor('thread/realtime/started');

    // A tool the session never offered is answered with an error; a repeated call id is ignored.
    connection.send({ type: 'conversation.item.done', item: { id: 'fx', type: 'function_call', name: 'shell', call_id: 'call_x', arguments: '{}' } });
    const unknown = await connection.waitFor(isCallOutput('call_x'));
    expect(JSON.parse((unknown['item'] as { output: string }).output)).toEqual({ error: 'there is no tool named shell' });
    model.expect([sse(assistantMessage('Done.'), completed())]);
    connection.send(realtimeEvents.handoff({ callId: 'call_1', prompt: 'do it' }));
    connection.send(realtimeEvents.handoff({ callId: 'call_1', prompt: 'do it' }));
    await client.waitFor('turn/completed');
    await connection.waitFor(isCallOutput('call_1'));
    expect(client.notificationsOf('turn/started')).toHaveLength(1);
    expect(client.notificationsOf('thread/realtime/itemAdded')).toHaveLength(1);

    // A stop right after a start: the conversation ends before or as it connects, once.
    await client.request('thread/realtime/stop', { threadId });
    await client.waitFor('thread/realtime/closed');
    await client.request('thread/realtime/start', { threadId, outputModality: 'text' });
    await client.request('thread/realtime/stop', { threadId });
    await client.waitFor('thread/realtime/closed', () => client.notificationsOf('thread/realtime/closed').length === 2);
    await expect(client.request('thread/realtime/appendText', { threadId, text: 'late' })).rejects.toThrow(/no realtime conversation is running/);
    const listed = (await client.request('thread/realtime/list', { threadId })) as Listed;
    // The first session's start and end; the second ended before it started, so it recorded nothing or both ends.
    const types = listed.data.map((entry) => entry.item.type);
    expect(types.slice(0, 2)).toEqual(['realtimeSessionStarted', 'turnInputAccepted']);
    expect(types.filter((type) => type === 'realtimeSessionStarted').length).toBe(types.filter((type) => type === 'realtimeSessionClosed').length);
  });

  it('refuses what it cannot do with -32600 and keeps serving', async () => {
    const client = await appServer();
    const threadId = await startThread(client);
    const refused = async (method: string, params: unknown, message: RegExp) => {
      expect(await client.requestReply(method, params)).toMatchObject({ error: { code: -32600, message: expect.stringMatching(message) as unknown } });
    };
    await refused('thread/realtime/start', { threadId, outputModality: 'audio', transport: { type: 'webrtc', sdp: 'v=0' } }, /webrtc realtime transport is not supported/);
    await refused('thread/realtime/start', { threadId, outputModality: 'audio', version: 'v3' }, /realtime v3 is not supported/);
    await refused('thread/realtime/start', { threadId, outputModality: 'audio', voice: 'juniper' }, /not a realtime v2 voice/);
    await refused('thread/realtime/start', { threadId: 'no-such-thread', outputModality: 'text' }, /invalid thread id/);
    await refused('thread/realtime/appendText', { threadId, text: 'hi' }, /no realtime conversation is running/);
    const connection = await startConversation(client, threadId);
    await refused('thread/realtime/appendAudio', { threadId, audio: { data: 'AAAA', sampleRate: 16000, numChannels: 2 } }, /24000 Hz mono/);
    await refused('thread/realtime/appendAudio', { threadId, audio: { data: 'not base64!', sampleRate: 24000, numChannels: 1 } }, /base64/);
    await refused('thread/realtime/appendAudio', { threadId, audio: { data: '', sampleRate: 24000, numChannels: 1 } }, /non-empty base64/);
    await refused('thread/realtime/list', { threadId, cursor: 'bogus' }, /invalid cursor/);
    expect(connection.received.some((event) => event.type === 'input_audio_buffer.append')).toBe(false);
    expect(((await client.request('thread/realtime/listVoices', {})) as { voices: { defaultV2: string; v2: string[] } }).voices.defaultV2).toBe('marin');
    // Without an API key there is no conversation.
    await client.close();
    writeFileSync(path.join(home.home, 'auth.json'), JSON.stringify({ auth_mode: 'chatgpt', OPENAI_API_KEY: null }));
    const keyless = await appServer();
    const other = await startThread(keyless);
    expect(await keyless.requestReply('thread/realtime/start', { threadId: other, outputModality: 'text' })).toMatchObject({ error: { code: -32600, message: 'realtime conversation requires API key auth' } });
    // Nor one that would carry the key in clear text to another machine (192.0.2.1: a documentation address).
    await keyless.close();
    writeFileSync(path.join(home.home, 'auth.json'), JSON.stringify({ auth_mode: 'apikey', OPENAI_API_KEY: 'sk-realtime-test' }));
    writeFileSync(path.join(home.home, 'config.toml'), `experimental_realtime_ws_base_url = "http://192.0.2.1:9"\n${mockProviderConfigToml(model.url)}`);
    const plain = await appServer();
    const third = await startThread(plain);
    expect(await plain.requestReply('thread/realtime/start', { threadId: third, outputModality: 'text' })).toMatchObject({ error: { code: -32600, message: expect.stringMatching(/would send your API key in clear text: use wss:\/\/ or https:\/\//) as unknown } });
  });
});
