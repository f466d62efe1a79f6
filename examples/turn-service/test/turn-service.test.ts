// The service against @skein/test-support's mock model: a turn streamed as server-sent events, a
// second turn on the same thread (closed between requests, resumed from its file), the thread
// listed, and the refusals an exposed endpoint needs.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { createRuntime, type SkeinRuntime } from '@skein/core/host';
import { assistantMessage, completed, functionCall, held, mockProviderConfigToml, sse, startMockResponsesServer, type MockResponsesServer } from '@skein/test-support';
import { createParser } from 'eventsource-parser';
import { createTurnService } from '../src/turn-service.js';

const TOKEN = 'test-token-0123456789';
let model: MockResponsesServer;
let runtime: SkeinRuntime;
let base: string;
let root: string;
let closeServer: () => Promise<void>;

before(async () => {
  model = await startMockResponsesServer();
  root = mkdtempSync(path.join(tmpdir(), 'turn-service-'));
  const home = path.join(root, 'home');
  const work = path.join(root, 'work');
  mkdirSync(home);
  mkdirSync(work);
  writeFileSync(path.join(home, 'config.toml'), mockProviderConfigToml(model.url));
  runtime = await createRuntime({ home, cwd: work, env: { PATH: process.env['PATH'], HOME: root }, settings: { sandbox_mode: 'danger-full-access', approval_policy: 'never' } });
  const server = createTurnService({ runtime, token: TOKEN });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closeServer = () => new Promise((resolve) => server.close(() => resolve()));
});

after(async () => {
  await closeServer();
  await runtime.close();
  await model.close();
  rmSync(root, { recursive: true, force: true });
});

const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

/** POSTs a turn and reads its whole event stream. */
async function turn(body: unknown): Promise<{ event: string; data: any }[]> {
  const response = await fetch(`${base}/turns`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
  assert.equal(response.status, 200, await response.clone().text());
  assert.equal(response.headers.get('content-type'), 'text/event-stream');
  const events: { event: string; data: any }[] = [];
  const parser = createParser({ onEvent: (message) => events.push({ event: message.event ?? 'message', data: JSON.parse(message.data) }) });
  const decoder = new TextDecoder();
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(chunk, { stream: true }));
  return events;
}

test('streams a turn with a command as server-sent events, ending with its result', async () => {
  model.expect([sse(functionCall('exec_command', { cmd: 'echo from-the-turn' }, { callId: 'call_echo' }), completed()), sse(assistantMessage(['It ', 'printed.']), completed())]);
  const events = await turn({ prompt: 'print something' });
  const names = events.map((event) => event.event);
  assert.equal(names[0], 'thread');
  assert.equal(names[1], 'turn/started');
  assert.equal(names.at(-2), 'turn/completed');
  assert.equal(names.at(-1), 'result');
  const completedTypes = events.filter((event) => event.event === 'item/completed').map((event) => event.data.item.type);
  assert.deepEqual(completedTypes, ['userMessage', 'commandExecution', 'agentMessage']);
  const command = events.find((event) => event.event === 'item/completed' && event.data.item.type === 'commandExecution');
  assert.match(command?.data.item.aggregatedOutput, /from-the-turn/);
  const result = events.at(-1)?.data;
  assert.equal(result.status, 'completed');
  assert.equal(result.finalResponse, 'It printed.');
  assert.match(model.requests[1]!.toolOutputText('call_echo') ?? '', /from-the-turn/);
});

test('continues a thread by id, and lists it', async () => {
  model.expect([sse(assistantMessage('First answer.'), completed())]);
  const first = await turn({ prompt: 'remember this' });
  const threadId = first[0]!.data.threadId as string;
  model.expect([sse(assistantMessage('Second answer.'), completed())]);
  // Each request's thread is closed when its turn ends: the service holds only threads in use.
  assert.deepEqual(runtime.loadedThreads(), []);
  const second = await turn({ prompt: 'what did you say?', threadId });
  assert.equal(second[0]!.data.threadId, threadId);
  assert.deepEqual(runtime.loadedThreads(), []);
  assert.match(JSON.stringify(model.requests.at(-1)!.body!.input), /First answer\./);
  const listed = (await (await fetch(`${base}/threads?limit=50`, { headers: auth })).json()) as { data: { id: string }[] };
  assert.ok(listed.data.some((thread) => thread.id === threadId));
});

test('refuses what it should, with a status and a code', async () => {
  const post = (headers: Record<string, string>, body: string) => fetch(`${base}/turns`, { method: 'POST', headers, body });
  assert.equal((await post({ 'content-type': 'application/json' }, '{"prompt":"x"}')).status, 401);
  assert.equal((await post({ ...auth, authorization: `Bearer ${TOKEN}x` }, '{"prompt":"x"}')).status, 401);
  assert.equal((await post({ ...auth, origin: 'https://evil.example' }, '{"prompt":"x"}')).status, 403);
  assert.equal((await post(auth, 'not json')).status, 400);
  const empty = await post(auth, '{"prompt":""}');
  assert.equal(empty.status, 400);
  assert.match(((await empty.json()) as { error: { message: string } }).error.message, /prompt must not be empty/);
  assert.equal((await post(auth, JSON.stringify({ prompt: 'x', extra: 1 }))).status, 400);
  assert.equal((await post(auth, JSON.stringify({ prompt: 'x'.repeat(2 * 1024 * 1024) }))).status, 413);
  const unknown = await post(auth, JSON.stringify({ prompt: 'x', threadId: '019b0000-0000-7000-8000-000000000000' }));
  assert.equal(unknown.status, 404);
  assert.equal(((await unknown.json()) as { error: { code: string } }).error.code, 'ThreadNotFound');
  assert.equal((await fetch(`${base}/nope`, { headers: auth })).status, 404);
  // Nothing above reached the model.
  assert.equal(model.requests.length, 4);
});

test('answers 409 to a second turn on a thread whose turn is running, and closes the thread after', async () => {
  model.expect([sse(assistantMessage('First.'), completed())]);
  const threadId = (await turn({ prompt: 'start a thread' }))[0]!.data.threadId as string;
  let letGo!: () => void;
  const until = new Promise<void>((resolve) => (letGo = resolve));
  model.expect([held(sse(assistantMessage('Slow.'), completed()), { before: 'completed', until })]);
  const asked = model.requests.length;
  const slow = turn({ prompt: 'take your time', threadId });
  for (let waited = 0; model.requests.length === asked; waited += 10) {
    assert.ok(waited < 10_000, 'the slow turn never reached the model');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const busy = await fetch(`${base}/turns`, { method: 'POST', headers: auth, body: JSON.stringify({ prompt: 'me too', threadId }) });
  assert.equal(busy.status, 409);
  assert.equal(((await busy.json()) as { error: { code: string } }).error.code, 'TurnRunning');
  letGo();
  assert.equal((await slow).at(-1)?.data.status, 'completed');
  assert.deepEqual(runtime.loadedThreads(), []);
});
