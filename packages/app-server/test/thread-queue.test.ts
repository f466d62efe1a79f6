// `thread/queue/*` (issue #35) as Codex 0.171.0 answers it (probed side by side): a message queued
// while a turn runs becomes a turn of its own once the thread is idle, in queue order, with the
// client's id on its user message; one queued on an idle thread starts at once; an interrupted turn
// leaves the queue for the user; every change is announced with `thread/queue/changed`; the queue
// survives a restart; and bad edits are refused in Codex's words. The mock model is the only fake.
import { assistantMessage, completed, held, mockProviderConfigToml, sse, startMockResponsesServer, type AppServerTestClient, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, startInProcess, threadsOn, type InProcessServer, type TestHome } from './support/app-server-harness.js';

let model: MockResponsesServer;
let home: TestHome;
const servers: InProcessServer[] = [];
let client: AppServerTestClient;

beforeEach(async () => {
  model = await startMockResponsesServer();
  home = makeHome(mockProviderConfigToml(model.url));
  client = await connect();
});
afterEach(async () => {
  await client.close();
  for (const server of servers.splice(0)) await server.close();
  try {
    await model.close();
  } finally {
    home.cleanup();
  }
});

async function connect(): Promise<AppServerTestClient> {
  const server = await startInProcess(home, { threads: threadsOn(home) });
  servers.push(server);
  const connected = await server.connect('stdio');
  await connected.initialize({ capabilities: { experimentalApi: true } });
  return connected;
}

const text = (value: string) => [{ type: 'text', text: value, text_elements: [] }];
interface Queued {
  id: string;
  clientUserMessageId: string;
  input: { text: string }[];
}
interface TurnNote {
  turn: { id: string; status: string };
}

async function startThread(): Promise<string> {
  const { thread } = (await client.request('thread/start', { cwd: home.workspace, approvalPolicy: 'never' })) as { thread: { id: string } };
  return thread.id;
}
const add = async (threadId: string, clientUserMessageId: string, message: string) =>
  ((await client.request('thread/queue/add', { threadId, clientUserMessageId, input: text(message) })) as { queuedSubmission: Queued }).queuedSubmission;
const listed = async (threadId: string) => ((await client.request('thread/queue/list', { threadId })) as { data: Queued[] }).data;
const texts = (queue: readonly Queued[]) => queue.map((entry) => entry.input[0]?.text);
/** The user messages the client saw, in order, with the client ids they carried. */
const userMessages = () =>
  client.notificationsOf('item/started').flatMap((params) => {
    const { item } = params as { item: { type: string; clientId: string | null; content: { text: string }[] } };
    return item.type === 'userMessage' ? [{ text: item.content[0]?.text, clientId: item.clientId }] : [];
  });
const completedTurns = () => client.notificationsOf('turn/completed').length;
const waitForTurns = async (count: number) => client.waitFor('turn/completed', () => completedTurns() >= count);

describe('thread/queue', () => {
  it('delivers messages queued during a turn one turn each, in the edited order, with their client ids', async () => {
    let release!: () => void;
    model.expect([
      held(sse(assistantMessage('First answer.'), completed()), { before: 'completed', until: new Promise<void>((resolve) => (release = resolve)) }),
      sse(assistantMessage('Second answer.'), completed()),
      sse(assistantMessage('Third answer.'), completed()),
    ]);
    const threadId = await startThread();
    await client.request('turn/start', { threadId, input: text('Start') });
    await client.waitFor('turn/started');

    const first = await add(threadId, 'client-1', 'queued first');
    const second = await add(threadId, 'client-2', 'queued second');
    expect(first).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown, input: text('queued first'), clientUserMessageId: 'client-1', responsesapiClientMetadata: null });
    const edited = (await client.request('thread/queue/update', { threadId, queuedSubmissionId: second.id, input: text('second, edited') })) as { queuedSubmission: Queued };
    expect(edited.queuedSubmission).toMatchObject({ id: second.id, clientUserMessageId: 'client-2', input: text('second, edited') });
    expect(await client.request('thread/queue/reorder', { threadId, queuedSubmissionIds: [second.id, first.id] })).toEqual({});
    expect(texts(await listed(threadId))).toEqual(['second, edited', 'queued first']);
    // A queued message waits for the running turn; starting one now is refused.
    expect(await client.requestReply('thread/queue/start', { threadId })).toEqual({ error: { code: -32600, message: 'thread already has an active or pending turn' } });

    release();
    await waitForTurns(3);
    expect(userMessages()).toEqual([
      { text: 'Start', clientId: null },
      { text: 'second, edited', clientId: 'client-2' },
      { text: 'queued first', clientId: 'client-1' },
    ]);
    expect(model.requests.map((request) => request.messageTexts('user').at(-1))).toEqual(['Start', 'second, edited', 'queued first']);
    expect(await listed(threadId)).toEqual([]);
    // Added, added, updated, reordered, and one per delivery.
    expect(client.notificationsOf('thread/queue/changed').filter((params) => (params as { threadId: string }).threadId === threadId)).toHaveLength(6);
    expect(client.schemaFailures).toEqual([]);
  });

  it('starts a message queued on an idle thread at once; after an interrupt the queue waits for thread/queue/start', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    model.expect([held(sse(assistantMessage('Cut short'), completed()), { before: 'completed', until: gate }), sse(assistantMessage('Picked up.'), completed())]);
    const threadId = await startThread();
    await add(threadId, 'client-1', 'right away');
    const { turn } = (await client.waitFor('turn/started')) as TurnNote;
    expect(await listed(threadId)).toEqual([]);
    // The model is answering when the user interrupts.
    await client.waitFor('item/agentMessage/delta');

    const waiting = await add(threadId, 'client-2', 'after the interrupt');
    await client.request('turn/interrupt', { threadId, turnId: turn.id });
    await waitForTurns(1);
    release();
    expect(texts(await listed(threadId))).toEqual(['after the interrupt']);

    const started = (await client.request('thread/queue/start', { threadId, queuedSubmissionId: waiting.id })) as TurnNote;
    expect(started.turn.status).toBe('inProgress');
    await waitForTurns(2);
    expect(userMessages().map((message) => message.text)).toEqual(['right away', 'after the interrupt']);
    expect(await listed(threadId)).toEqual([]);
  });

  it('keeps a stored thread’s queue across a restart of the server', async () => {
    model.expect([sse(assistantMessage('Done.'), completed())]);
    const threadId = await startThread();
    await client.request('turn/start', { threadId, input: text('Go') });
    await waitForTurns(1);
    await client.request('thread/unsubscribe', { threadId });
    await client.close();
    await servers.pop()?.close();

    client = await connect();
    // The thread is stored but not loaded: a message waits for a client to resume it.
    const queued = await add(threadId, 'client-1', 'for later');
    expect(await client.requestReply('thread/queue/start', { threadId })).toEqual({ error: { code: -32600, message: `thread not loaded: ${threadId}` } });
    await client.close();
    await servers.pop()?.close();

    client = await connect();
    expect(await listed(threadId)).toEqual([queued]);
  });

  it('refuses bad edits in Codex’s words and changes nothing', async () => {
    const threadId = await startThread();
    let release!: () => void;
    model.expect([held(sse(assistantMessage('Busy.'), completed()), { before: 'completed', until: new Promise<void>((resolve) => (release = resolve)) })]);
    await client.request('turn/start', { threadId, input: text('Busy') });
    await client.waitFor('turn/started');
    const queued = await add(threadId, 'client-1', 'kept');

    const refusal = (message: string) => ({ error: { code: -32600, message } });
    expect(await client.requestReply('thread/queue/update', { threadId, queuedSubmissionId: 'nope', input: text('x') })).toEqual(refusal('queued submission not found: nope'));
    expect(await client.requestReply('thread/queue/reorder', { threadId, queuedSubmissionIds: ['nope'] })).toEqual(refusal('queue reorder must include every queued submission exactly once'));
    expect(await client.requestReply('thread/queue/reorder', { threadId, queuedSubmissionIds: [queued.id, queued.id] })).toEqual(refusal('queue reorder must include every queued submission exactly once'));
    expect(await client.request('thread/queue/delete', { threadId, queuedSubmissionId: 'nope' })).toEqual({ deleted: false });
    expect(await listed(threadId)).toEqual([queued]);
    expect(await client.request('thread/queue/delete', { threadId, queuedSubmissionId: queued.id })).toEqual({ deleted: true });
    // A message already delivered (or deleted) is no longer queued.
    expect(await client.request('thread/queue/delete', { threadId, queuedSubmissionId: queued.id })).toEqual({ deleted: false });
    expect(await client.requestReply('thread/queue/update', { threadId, queuedSubmissionId: queued.id, input: text('x') })).toEqual(refusal(`queued submission not found: ${queued.id}`));
    release();
    await waitForTurns(1);
    expect(await client.requestReply('thread/queue/start', { threadId })).toEqual(refusal('queue is empty'));
    expect(await client.requestReply('thread/queue/start', { threadId, queuedSubmissionId: 'nope' })).toEqual(refusal('queued submission not found: nope'));

    const unknown = '019a0000-0000-7000-8000-000000000000';
    expect(await client.requestReply('thread/queue/list', { threadId: unknown })).toEqual({
      error: { code: -32603, message: `failed to read thread: invalid thread-store request: no rollout found for thread id ${unknown}` },
    });
    expect(await client.requestReply('thread/queue/add', { threadId, clientUserMessageId: 'c' })).toMatchObject({ error: { code: -32600 } });
    expect(client.schemaFailures).toEqual([]);
  });
});
