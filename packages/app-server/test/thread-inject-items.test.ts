// `thread/inject_items` (issue #13), as Codex 0.171.0 answers it (probed): `{}`; the items join the
// model-visible history (after the initial context on a fresh thread, with the next request while a
// turn runs), survive a restart, and never show in `thread/read`. In process with the mock model;
// every message is schema-checked by the test client.
import { readFileSync } from 'node:fs';
import {
  assistantMessage,
  completed,
  functionCall,
  held,
  mockProviderConfigToml,
  sse,
  startMockResponsesServer,
  type AppServerTestClient,
  type MockResponsesServer,
} from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, startInProcess, threadsOn, type InProcessServer, type TestHome } from './support/app-server-harness.js';

let model: MockResponsesServer;
let home: TestHome;
let server: InProcessServer;
let client: AppServerTestClient;

async function open(): Promise<void> {
  server = await startInProcess(home, { threads: threadsOn(home) });
  client = await server.connect('stdio');
  await client.initialize();
}

beforeEach(async () => {
  model = await startMockResponsesServer();
  home = makeHome(mockProviderConfigToml(model.url));
  await open();
});
afterEach(async () => {
  await client.close();
  await server.close();
  try {
    await model.close();
  } finally {
    home.cleanup();
  }
});

const text = (value: string) => [{ type: 'text', text: value, text_elements: [] }];
const userItem = (value: string) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text: value }] });

async function startThread(): Promise<{ id: string; path: string }> {
  const { thread } = (await client.request('thread/start', { cwd: home.workspace, approvalPolicy: 'never' })) as { thread: { id: string; path: string } };
  return thread;
}

async function runTurn(threadId: string, input: string): Promise<void> {
  const { turn } = (await client.request('turn/start', { threadId, input: text(input) })) as { turn: { id: string } };
  await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === turn.id);
}

/** Each input item of request `index` as `role:text` (or its type), for order checks. */
function inputOf(index: number): string[] {
  const body = model.requests[index]!.json as { input: { type: string; role?: string; content?: { text?: string }[]; output?: unknown }[] };
  return body.input.map((item) => (item.type === 'message' ? `${item.role}:${item.content?.map((part) => part.text).join('')}` : item.type));
}

/** Resolves once the model has received `count` requests. */
async function requestsReceived(count: number): Promise<void> {
  while (model.requests.length < count) await new Promise((resolve) => setTimeout(resolve, 10));
}

const inject = (threadId: string, items: unknown[]) => client.requestReply('thread/inject_items', { threadId, items });

describe('thread/inject_items', () => {
  it('puts the items after the initial context of a fresh thread and before the next turn, without showing them in thread/read', async () => {
    model.expect([sse(assistantMessage('One.'), completed()), sse(assistantMessage('Two.'), completed())]);
    const thread = await startThread();
    expect(await inject(thread.id, [userItem('Injected first.'), { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Injected answer.' }] }])).toEqual({ result: {} });
    // A type this version does not model is accepted and dropped, as Codex drops it.
    expect(await inject(thread.id, [{ type: 'some_future_item', payload: 1 }])).toEqual({ result: {} });
    await runTurn(thread.id, 'Hello.');
    const first = inputOf(0);
    const injectedAt = first.indexOf('user:Injected first.');
    // The initial context (developer message, environment context) comes first, once.
    expect(first.slice(0, injectedAt).some((entry) => entry.startsWith('user:<environment_context>'))).toBe(true);
    expect(first.slice(injectedAt)).toEqual(['user:Injected first.', 'assistant:Injected answer.', 'user:Hello.']);
    expect(first.filter((entry) => entry.startsWith('user:<environment_context>'))).toHaveLength(1);
    expect(JSON.stringify(model.requests[0]!.json)).not.toContain('some_future_item');

    expect(await inject(thread.id, [userItem('Between turns.')])).toEqual({ result: {} });
    await runTurn(thread.id, 'Again.');
    expect(inputOf(1).slice(-4)).toEqual(['user:Hello.', 'assistant:One.', 'user:Between turns.', 'user:Again.']);

    const read = (await client.request('thread/read', { threadId: thread.id, includeTurns: true })) as { thread: { turns: { items: { type: string; content?: { text: string }[] }[] }[] } };
    const shown = read.thread.turns.flatMap((turn) => turn.items.flatMap((item) => item.content?.map((part) => part.text) ?? []));
    expect(shown).toEqual(['Hello.', 'Again.']);
    // Recorded in the rollout, tagged with no turn, without the dropped item.
    const lines = readFileSync(thread.path, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; payload: { metadata?: { turn_id?: string }; content?: { text?: string }[]; type?: string } });
    const injected = lines.filter((line) => line.type === 'response_item' && line.payload.content?.[0]?.text === 'Between turns.');
    expect(injected).toHaveLength(1);
    expect(injected[0]!.payload.metadata?.turn_id).toBeUndefined();
    expect(lines.some((line) => line.payload.type === 'some_future_item')).toBe(false);
  });

  it('gives items injected during a turn to its next request, and what no request carried to the next turn', async () => {
    let releaseCall!: () => void;
    let releaseAnswer!: () => void;
    const callGate = new Promise<void>((resolve) => (releaseCall = resolve));
    const answerGate = new Promise<void>((resolve) => (releaseAnswer = resolve));
    model.expect([
      held(sse(functionCall('no_such_tool', '{}', { callId: 'call_1' }), completed()), { before: 'start', until: callGate }),
      held(sse(assistantMessage('Done.'), completed()), { before: 'start', until: answerGate }),
      sse(assistantMessage('Next.'), completed()),
    ]);
    const thread = await startThread();
    const { turn } = (await client.request('turn/start', { threadId: thread.id, input: text('Go.') })) as { turn: { id: string } };
    await requestsReceived(1);
    expect(await inject(thread.id, [userItem('While sampling.')])).toEqual({ result: {} });
    releaseCall();
    await requestsReceived(2);
    expect(await inject(thread.id, [userItem('After the last request.')])).toEqual({ result: {} });
    releaseAnswer();
    await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === turn.id);
    // The running turn's first request never saw it; its next one carries it after the tool's output.
    expect(inputOf(0)).not.toContain('user:While sampling.');
    expect(inputOf(1).slice(-4)).toEqual(['user:Go.', 'function_call', 'function_call_output', 'user:While sampling.']);
    // The turn did not sample again for the late item; the next turn has it before its input.
    expect(model.requests).toHaveLength(2);
    await runTurn(thread.id, 'Then.');
    expect(inputOf(2).slice(-3)).toEqual(['assistant:Done.', 'user:After the last request.', 'user:Then.']);
  });

  it('keeps injected items across a restart; a thread that is not loaded is not found', async () => {
    model.expect([sse(assistantMessage('Later.'), completed())]);
    const thread = await startThread();
    expect(await inject(thread.id, [userItem('Kept.')])).toEqual({ result: {} });
    await client.close();
    await server.close();
    await open();
    expect(await inject(thread.id, [userItem('Too early.')])).toEqual({ error: { code: -32600, message: `thread not found: ${thread.id}` } });
    await client.request('thread/resume', { threadId: thread.id });
    await runTurn(thread.id, 'Resumed.');
    const input = inputOf(0);
    expect(input.slice(-2)).toEqual(['user:Kept.', 'user:Resumed.']);
    expect(input).not.toContain('user:Too early.');
    expect(input.filter((entry) => entry.startsWith('user:<environment_context>'))).toHaveLength(1);
  });

  it('refuses what is not a list of items, naming the item', async () => {
    const thread = await startThread();
    expect(await inject(thread.id, [])).toEqual({ error: { code: -32600, message: 'items must not be empty' } });
    expect(await inject('no-such-thread', [])).toEqual({
      error: { code: -32600, message: 'invalid thread id: invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `n` at 1' },
    });
    expect(await inject(thread.id, [userItem('fine'), 5])).toEqual({ error: { code: -32600, message: 'items[1] is not a valid response item: expected an object, got number' } });
    expect(await inject(thread.id, [{ type: 'message', role: 'user' }])).toEqual({ error: { code: -32600, message: 'items[0] is not a valid response item: missing field `content`' } });
    expect(await inject(thread.id, [{ role: 'user' }])).toEqual({ error: { code: -32600, message: 'items[0] is not a valid response item: missing field `type`' } });
    const reply = await client.requestReply('thread/inject_items', { threadId: thread.id });
    expect((reply as { error: { code: number } }).error.code).toBe(-32600);
    // A refused request changes nothing: the first item of the refused list was not kept.
    model.expect([sse(assistantMessage('Ok.'), completed())]);
    await runTurn(thread.id, 'Now.');
    expect(inputOf(0)).not.toContain('user:fine');
  });
});
