// Threads and turns over the app-server, end to end: a real AppServer with a real rollout store and
// the local sandboxed environment, the model scripted by the mock Responses server, and clients that
// validate every message against Codex's schema. Asserts on the notifications clients see, the
// requests the model receives, and what lands on disk.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { probeSandbox } from '@skein/sandboxing';
import {
  assistantMessage,
  completed,
  customToolCall,
  functionCall,
  mockProviderConfigToml,
  probeSandboxForTests,
  PLAIN_TURN_NOTIFICATIONS,
  sse,
  startMockResponsesServer,
  type AppServerTestClient,
  type MockResponsesServer,
  type ReceivedServerRequest,
} from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppServerOptions } from '../src/index.js';
import { makeHome, startInProcess, threadsOn, type InProcessServer, type TestHome } from './support/app-server-harness.js';

const { skip: NO_SANDBOX } = await probeSandboxForTests(() => probeSandbox({ env: process.env, cwd: process.cwd() }));

let model: MockResponsesServer;
let home: TestHome;
const servers: InProcessServer[] = [];
const clients: AppServerTestClient[] = [];

beforeEach(async () => {
  model = await startMockResponsesServer();
  home = makeHome(mockProviderConfigToml(model.url));
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const server of servers.splice(0)) await server.close();
  // Closing verifies the mock model: no unexpected request, no unused response.
  try {
    await model.close();
  } finally {
    home.cleanup();
  }
});

/** An in-process server with threads on `home`. */
async function serve(options: Partial<AppServerOptions> = {}): Promise<InProcessServer> {
  const server = await startInProcess(home, { threads: threadsOn(home), ...options });
  servers.push(server);
  return server;
}

async function connect(server: InProcessServer, transport: 'stdio' | 'websocket' = 'stdio'): Promise<AppServerTestClient> {
  const client = await server.connect(transport);
  clients.push(client);
  await client.initialize();
  return client;
}

const text = (value: string) => [{ type: 'text', text: value, text_elements: [] }];

interface Started {
  readonly thread: { readonly id: string; readonly path: string };
}

async function startThread(client: AppServerTestClient, params: Record<string, unknown> = {}): Promise<string> {
  const result = (await client.request('thread/start', { cwd: home.workspace, approvalPolicy: 'never', sandbox: 'workspace-write', ...params })) as Started;
  return result.thread.id;
}

/** Notification methods about `threadId`, in arrival order, from `from` on. */
function methodsFor(client: AppServerTestClient, threadId: string, from = 0): string[] {
  return client.notifications
    .slice(from)
    .filter((notification) => (notification.params as { threadId?: string; thread?: { id?: string } }).threadId === threadId || (notification.params as { thread?: { id?: string } }).thread?.id === threadId)
    .map((notification) => notification.method);
}

/** A promise and the function that resolves it (Node 20 has no Promise.withResolvers). */
function deferred<T>(): { readonly promise: Promise<T>; readonly resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

const turnCompleted = (client: AppServerTestClient, turnId: string) =>
  client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === turnId) as Promise<{ turn: { status: string; items: unknown[]; itemsView: string } }>;

describe('thread/start and turn/start', () => {
  it('runs a plain turn with Codex’s notifications, in Codex’s order', async () => {
    model.expect([sse(assistantMessage(['Hel', 'lo.']), completed())]);
    const client = await connect(await serve());
    const started = (await client.request('thread/start', { cwd: home.workspace, approvalPolicy: 'never', sandbox: 'workspace-write' })) as Record<string, unknown> & Started;
    expect(started).toMatchObject({ model: 'gpt-5.5', modelProvider: 'mock', cwd: home.workspace, approvalPolicy: 'never', sandbox: { type: 'workspaceWrite' }, multiAgentMode: 'explicitRequestOnly' });
    expect(started.thread).toMatchObject({ status: { type: 'idle' }, source: 'vscode', originator: 'skein_test', historyMode: 'paginated', ephemeral: false, turns: [] });
    expect(existsSync(started.thread.path)).toBe(true);
    const threadId = started.thread.id;
    await client.waitFor('thread/started');

    const { turn } = (await client.request('turn/start', { threadId, input: text('Say hello') })) as { turn: { id: string; status: string; itemsView: string } };
    expect(turn).toMatchObject({ status: 'inProgress', itemsView: 'notLoaded', items: [] });
    const done = await turnCompleted(client, turn.id);
    expect(done.turn).toMatchObject({ status: 'completed', itemsView: 'summary', items: [{ type: 'agentMessage', text: 'Hello.' }] });
    expect(methodsFor(client, threadId)).toEqual(PLAIN_TURN_NOTIFICATIONS);
    expect(client.notificationsOf('thread/status/changed')).toEqual([
      { threadId, status: { type: 'active', activeFlags: [] } },
      { threadId, status: { type: 'idle' } },
    ]);
    expect(model.requests[0]!.messageTexts('user').at(-1)).toBe('Say hello');
  });

  it('interrupts a turn at a spent rollout budget, its error Codex’s sessionBudgetExceeded, before its command runs', async () => {
    writeFileSync(path.join(home.home, 'config.toml'), `${mockProviderConfigToml(model.url)}\n[features.rollout_budget]\nenabled = true\nlimit_tokens = 50\n`);
    model.expect([sse(functionCall('exec_command', { cmd: 'touch spent.txt' }, { callId: 'call_spent' }), completed())]);
    const client = await connect(await serve());
    const threadId = await startThread(client);
    const { turn } = (await client.request('turn/start', { threadId, input: text('Spend it') })) as { turn: { id: string } };
    const done = await turnCompleted(client, turn.id);
    const error = { message: 'budget reached', codexErrorInfo: 'sessionBudgetExceeded', additionalDetails: null };
    expect(done.turn).toMatchObject({ status: 'interrupted', error });
    expect(client.notificationsOf('error')).toEqual([]);
    expect(existsSync(path.join(home.workspace, 'spent.txt'))).toBe(false);
  });

  it.skipIf(NO_SANDBOX !== '')(`shows a sandboxed command as a commandExecution item and answers the model in Codex’s format${NO_SANDBOX}`, async () => {
    model.expect([sse(functionCall('exec_command', { cmd: 'echo hi' }, { callId: 'call_1' }), completed()), sse(assistantMessage('It printed hi.'), completed())]);
    const client = await connect(await serve());
    const threadId = await startThread(client);
    const { turn } = (await client.request('turn/start', { threadId, input: text('Run echo hi') })) as { turn: { id: string } };
    await turnCompleted(client, turn.id);
    const items = client.notifications.filter((notification) => notification.method.startsWith('item/') && JSON.stringify(notification.params).includes('call_1'));
    expect(items.map((notification) => notification.method)).toEqual(['item/started', 'item/commandExecution/outputDelta', 'item/completed']);
    expect((items[0]!.params as { item: unknown }).item).toMatchObject({
      type: 'commandExecution',
      id: 'call_1',
      command: "/bin/bash -lc 'echo hi'",
      cwd: home.workspace,
      source: 'unifiedExecStartup',
      status: 'inProgress',
      commandActions: [{ type: 'unknown', command: 'echo hi' }],
    });
    expect((items[2]!.params as { item: unknown }).item).toMatchObject({ status: 'completed', exitCode: 0, aggregatedOutput: 'hi\n' });
    expect(model.requests[1]!.toolOutputText('call_1')).toMatch(/Process exited with code 0\nOriginal token count: 1\nOutput:\nhi\n$/);
  });
});

describe.skipIf(NO_SANDBOX !== '')(`approvals as server requests${NO_SANDBOX}`, () => {
  async function approvalTurn(decision: unknown): Promise<{ client: AppServerTestClient; threadId: string; requests: ReceivedServerRequest[]; turn: { status: string } }> {
    model.expect([sse(functionCall('exec_command', { cmd: 'touch made.txt && echo done' }, { callId: 'call_a' }), completed()), sse(assistantMessage('Finished.'), completed())]);
    const client = await connect(await serve());
    const requests: ReceivedServerRequest[] = [];
    client.onServerRequest((request) => {
      requests.push(request);
      return { decision };
    });
    const threadId = await startThread(client, { approvalPolicy: 'untrusted' });
    const { turn } = (await client.request('turn/start', { threadId, input: text('make a file') })) as { turn: { id: string } };
    return { client, threadId, requests, turn: (await turnCompleted(client, turn.id)).turn };
  }

  it('accept: asks with the command and environment, resolves, then runs the command', async () => {
    const { client, threadId, requests } = await approvalTurn('accept');
    expect(requests).toEqual([
      {
        id: 0,
        method: 'item/commandExecution/requestApproval',
        params: expect.objectContaining({
          kind: 'command',
          threadId,
          itemId: 'call_a',
          environmentId: 'local',
          command: "/bin/bash -lc 'touch made.txt && echo done'",
          cwd: home.workspace,
          commandActions: [{ type: 'unknown', command: 'touch made.txt && echo done' }],
          proposedExecpolicyAmendment: ['touch', 'made.txt'],
          availableDecisions: ['accept', { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['touch', 'made.txt'] } }, 'cancel'],
        }) as unknown,
      },
    ]);
    // Usage of the first response may arrive while the question is open; it is not part of the approval.
    const sequence = methodsFor(client, threadId).filter((method) => method !== 'item/commandExecution/outputDelta' && method !== 'thread/tokenUsage/updated');
    const asked = sequence.indexOf('serverRequest/resolved');
    expect(sequence.slice(asked - 3, asked + 3)).toEqual(['item/completed', 'thread/status/changed', 'item/started', 'serverRequest/resolved', 'thread/status/changed', 'item/completed']);
    expect(client.notificationsOf('serverRequest/resolved')).toEqual([{ threadId, requestId: 0 }]);
    expect(client.notificationsOf('thread/status/changed').slice(1, 3)).toEqual([
      { threadId, status: { type: 'active', activeFlags: ['waitingOnApproval'] } },
      { threadId, status: { type: 'active', activeFlags: [] } },
    ]);
    const command = client.notificationsOf('item/completed').find((params) => (params as { item: { id: string } }).item.id === 'call_a');
    expect(command).toMatchObject({ item: { type: 'commandExecution', status: 'completed', exitCode: 0, aggregatedOutput: 'done\n', source: 'unifiedExecStartup' } });
    expect(existsSync(path.join(home.workspace, 'made.txt'))).toBe(true);
  });

  it('decline: the command never runs, the item is declined, the model is told, and the turn completes', async () => {
    const { client, threadId, turn } = await approvalTurn('decline');
    expect(turn.status).toBe('completed');
    const sequence = methodsFor(client, threadId);
    const asked = sequence.indexOf('serverRequest/resolved');
    expect(sequence.slice(asked, asked + 3)).toEqual(['serverRequest/resolved', 'item/completed', 'thread/status/changed']);
    expect(client.notificationsOf('item/completed').find((params) => (params as { item: { id: string } }).item.id === 'call_a')).toMatchObject({
      item: { type: 'commandExecution', status: 'declined', exitCode: null, aggregatedOutput: null, source: 'agent' },
    });
    expect(model.requests[1]!.toolOutputText('call_a')).toBe('exec_command failed: CreateProcess { message: "Rejected(\\"rejected by user\\")" }');
    expect(existsSync(path.join(home.workspace, 'made.txt'))).toBe(false);
  });
});

describe.skipIf(NO_SANDBOX !== '')(`file changes${NO_SANDBOX}`, () => {
  const addFile = (file: string) => `*** Begin Patch\n*** Add File: ${file}\n+hello\n*** End Patch\n`;

  it('shows a patch as a fileChange item with its diff', async () => {
    model.expect([sse(customToolCall('apply_patch', addFile('hello.txt'), { callId: 'call_p' }), completed()), sse(assistantMessage('Added.'), completed())]);
    const client = await connect(await serve());
    const threadId = await startThread(client);
    const { turn } = (await client.request('turn/start', { threadId, input: text('add a file') })) as { turn: { id: string } };
    await turnCompleted(client, turn.id);
    const items = client.notifications.filter((notification) => notification.method.startsWith('item/') && (notification.params as { item?: { id?: string } }).item?.id === 'call_p');
    expect(items.map((notification) => [notification.method, (notification.params as { item: { status: string } }).item.status])).toEqual([
      ['item/started', 'inProgress'],
      ['item/completed', 'completed'],
    ]);
    expect((items[1]!.params as { item: unknown }).item).toMatchObject({
      type: 'fileChange',
      changes: [{ path: path.join(home.workspace, 'hello.txt'), kind: { type: 'add' }, diff: 'hello\n' }],
    });
    // The rollout keeps the change (as Codex's FileChange item), so reading the thread shows it again.
    const read = (await client.request('thread/read', { threadId, includeTurns: true })) as { thread: { turns: { items: { type: string }[] }[] } };
    expect(read.thread.turns[0]!.items.map((item) => item.type)).toEqual(['userMessage', 'fileChange', 'agentMessage']);
    expect(read.thread.turns[0]!.items[1]).toMatchObject({ id: 'call_p', status: 'completed', changes: [{ kind: { type: 'add' }, diff: 'hello\n' }] });
  });

  it('asks before writing outside the workspace; declined, the item is declined and nothing is written', async () => {
    const outside = path.join(path.dirname(home.workspace), 'outside.txt');
    model.expect([sse(customToolCall('apply_patch', addFile(outside), { callId: 'call_o' }), completed()), sse(assistantMessage('Skipped.'), completed())]);
    const client = await connect(await serve());
    client.onServerRequest(() => ({ decision: 'decline' }));
    const threadId = await startThread(client, { approvalPolicy: 'on-request', config: { 'sandbox_workspace_write.exclude_slash_tmp': true, 'sandbox_workspace_write.exclude_tmpdir_env_var': true } });
    const { turn } = (await client.request('turn/start', { threadId, input: text('write outside') })) as { turn: { id: string } };
    await turnCompleted(client, turn.id);
    expect(client.serverRequests).toEqual([
      { id: 0, method: 'item/fileChange/requestApproval', params: expect.objectContaining({ threadId, turnId: turn.id, itemId: 'call_o', grantRoot: path.dirname(outside) }) as unknown },
    ]);
    expect(client.notificationsOf('item/completed').find((params) => (params as { item: { id: string } }).item.id === 'call_o')).toMatchObject({ item: { type: 'fileChange', status: 'declined' } });
    expect(existsSync(outside)).toBe(false);
  });
});

describe('questions, interrupts and steering', () => {
  it.skipIf(NO_SANDBOX !== '')(`an interrupt withdraws a pending approval: the turn ends, then the request is resolved${NO_SANDBOX}`, async () => {
    model.expect([sse(functionCall('exec_command', { cmd: 'touch never.txt' }, { callId: 'call_w' }), completed()), sse(assistantMessage('Later.'), completed())]);
    const client = await connect(await serve());
    const threadId = await startThread(client, { approvalPolicy: 'untrusted' });
    client.onServerRequest(() => new Promise(() => undefined));
    const { turn } = (await client.request('turn/start', { threadId, input: text('touch') })) as { turn: { id: string } };
    await client.waitFor('thread/status/changed', (params) => JSON.stringify(params).includes('waitingOnApproval'));
    expect(await client.request('turn/interrupt', { threadId, turnId: turn.id })).toEqual({});
    await client.waitFor('serverRequest/resolved');
    const sequence = methodsFor(client, threadId);
    expect(sequence.slice(-3)).toEqual(['thread/status/changed', 'turn/completed', 'serverRequest/resolved']);
    expect(client.notificationsOf('thread/status/changed').at(-1)).toEqual({ threadId, status: { type: 'idle' } });
    expect(existsSync(path.join(home.workspace, 'never.txt'))).toBe(false);
    // The thread is free again.
    const next = (await client.request('turn/start', { threadId, input: text('next') })) as { turn: { id: string } };
    await turnCompleted(client, next.turn.id);
  });

  it.skipIf(NO_SANDBOX !== '')(`a user shell turn can be interrupted; an empty command is refused${NO_SANDBOX}`, async () => {
    const client = await connect(await serve());
    const threadId = await startThread(client);
    expect(await client.requestReply('thread/shellCommand', { threadId, command: '  ' })).toMatchObject({ error: { code: -32600, message: 'command must not be empty' } });
    expect(await client.request('thread/shellCommand', { threadId, command: 'sleep 30' })).toEqual({});
    const started = (await client.waitFor('turn/started')) as { turn: { id: string } };
    await client.waitFor('item/started', (params) => (params as { item: { type: string } }).item.type === 'commandExecution');
    expect(await client.request('turn/interrupt', { threadId, turnId: started.turn.id })).toEqual({});
    expect((await turnCompleted(client, started.turn.id)).turn.status).toBe('interrupted');
    const killed = (await client.waitFor('item/completed', (params) => (params as { item: { type: string } }).item.type === 'commandExecution')) as { item: unknown };
    expect(killed.item).toMatchObject({ source: 'userShell', status: 'failed' });
  });

  it('request_user_input becomes item/tool/requestUserInput and the answer reaches the model', async () => {
    const questions = [{ id: 'pick', header: 'Pick', question: 'Which one?', options: [{ label: 'A', description: 'first' }] }];
    model.expect([sse(functionCall('request_user_input', { questions }, { callId: 'call_q' }), completed()), sse(assistantMessage('A it is.'), completed())]);
    const client = await connect(await serve());
    client.onServerRequest(() => ({ answers: { pick: { answers: ['A'] } } }));
    const threadId = await startThread(client);
    const { turn } = (await client.request('turn/start', { threadId, input: text('ask me') })) as { turn: { id: string } };
    await turnCompleted(client, turn.id);
    expect(client.serverRequests).toEqual([
      {
        id: 0,
        method: 'item/tool/requestUserInput',
        params: { threadId, turnId: turn.id, itemId: 'call_q', questions: [{ ...questions[0], isOther: true, isSecret: false }], isBlocking: true, autoResolutionMs: null },
      },
    ]);
    expect(client.notificationsOf('thread/status/changed')).toContainEqual({ threadId, status: { type: 'active', activeFlags: ['waitingOnUserInput'] } });
    expect(model.requests[1]!.toolOutputText('call_q')).toBe('{"answers":{"pick":{"answers":["A"]}}}');
  });

  it.skipIf(NO_SANDBOX !== '')(`turn/interrupt answers {} and ends the turn as interrupted; the next turn tells the model${NO_SANDBOX}`, async () => {
    model.expect([sse(functionCall('exec_command', { cmd: 'sleep 30', yield_time_ms: 20000 }, { callId: 'call_s' }), completed()), sse(assistantMessage('Next.'), completed())]);
    const client = await connect(await serve());
    const threadId = await startThread(client);
    const { turn } = (await client.request('turn/start', { threadId, input: text('sleep') })) as { turn: { id: string } };
    await client.waitFor('item/started', (params) => (params as { item: { type: string } }).item.type === 'commandExecution');
    // Another turn's id is refused in Codex's words, and so is an interrupt with nothing running.
    const otherTurn = '01a24878-7ff6-70fc-9dde-2415bf85c46f';
    expect(await client.requestReply('turn/interrupt', { threadId, turnId: otherTurn })).toMatchObject({ error: { code: -32600, message: `expected active turn id ${otherTurn} but found ${turn.id}` } });
    const before = client.notifications.length;
    expect(await client.request('turn/interrupt', { threadId, turnId: turn.id })).toEqual({});
    const done = await turnCompleted(client, turn.id);
    expect(done.turn).toMatchObject({ status: 'interrupted', items: [], itemsView: 'notLoaded' });
    // As Codex: the thread goes idle, then the turn completes; an interrupted turn is not marked unread.
    const watched = new Set(['thread/status/changed', 'thread/readState/changed', 'turn/completed']);
    const after = client.notifications.slice(before).map((notification) => notification.method).filter((method) => watched.has(method));
    expect(after).toEqual(['thread/status/changed', 'turn/completed']);
    expect(await client.requestReply('turn/interrupt', { threadId, turnId: turn.id })).toMatchObject({ error: { code: -32600, message: 'no active turn to interrupt' } });
    const next = (await client.request('turn/start', { threadId, input: text('go on') })) as { turn: { id: string } };
    await turnCompleted(client, next.turn.id);
    expect(model.requests[1]!.toolOutputText('call_s')).toMatch(/aborted by user/);
  });

  it('turn/steer adds input to the running turn; a second turn/start is refused meanwhile', async () => {
    const questions = [{ id: 'q', header: 'Q', question: 'Continue?', options: [{ label: 'Yes', description: 'go on' }] }];
    model.expect([sse(functionCall('request_user_input', { questions }, { callId: 'call_wait' }), completed()), sse(assistantMessage('Steered.'), completed())]);
    const client = await connect(await serve());
    const threadId = await startThread(client);
    let answer: (value: unknown) => void = () => undefined;
    client.onServerRequest(() => new Promise((resolve) => (answer = resolve)));
    const { turn } = (await client.request('turn/start', { threadId, input: text('start') })) as { turn: { id: string } };
    await client.waitFor('thread/status/changed', (params) => JSON.stringify(params).includes('waitingOnUserInput'));
    const refused = await client.requestReply('turn/start', { threadId, input: text('again') });
    expect(refused).toMatchObject({ error: { code: -32600 } });
    expect(await client.request('turn/steer', { threadId, expectedTurnId: turn.id, input: text('also this') })).toEqual({ turnId: turn.id });
    answer({ answers: { q: { answers: ['Yes'] } } });
    await turnCompleted(client, turn.id);
    expect(model.requests[1]!.messageTexts('user')).toContain('also this');
  });
});

describe('thread operations', () => {
  it("announces a fork as Codex does (scenario r): the deprecation notice, the answer, the copy's token usage, then thread/started", async () => {
    model.expect([sse(assistantMessage('First answer.'), completed())]);
    const client = await connect(await serve());
    const threadId = await startThread(client);
    const { turn } = (await client.request('turn/start', { threadId, input: text('First task') })) as { turn: { id: string } };
    await turnCompleted(client, turn.id);
    const before = client.notifications.length;
    const fork = (await client.request('thread/fork', { threadId })) as { thread: { id: string } };
    await client.waitFor('thread/started', (params) => (params as { thread: { id: string } }).thread.id === fork.thread.id);
    const after = client.notifications.slice(before);
    expect(after.map((notification) => notification.method)).toEqual(['deprecationNotice', 'thread/tokenUsage/updated', 'thread/started']);
    expect(after[1]!.params).toMatchObject({ threadId: fork.thread.id, turnId: turn.id, tokenUsage: { total: { totalTokens: expect.any(Number) as number } } });
    // A client that asks for no turns is not told of the deprecation.
    const quiet = client.notifications.length;
    const paged = (await client.request('thread/fork', { threadId, excludeTurns: true })) as { thread: { id: string } };
    await client.waitFor('thread/started', (params) => (params as { thread: { id: string } }).thread.id === paged.thread.id);
    expect(client.notifications.slice(quiet).map((notification) => notification.method)).toEqual(['thread/tokenUsage/updated', 'thread/started']);
  });

  it('lists, reads with turns, names, forks, archives and unarchives threads', async () => {
    model.expect([sse(assistantMessage('First answer.'), completed())]);
    const client = await connect(await serve());
    const threadId = await startThread(client);
    const { turn } = (await client.request('turn/start', { threadId, input: text('First task') })) as { turn: { id: string } };
    await turnCompleted(client, turn.id);

    expect(await client.request('thread/loaded/list', {})).toEqual({ data: [threadId], nextCursor: null });
    const listed = (await client.request('thread/list', {})) as { data: { id: string; preview: string; status: unknown }[]; nextCursor: string | null };
    expect(listed.data.map((thread) => [thread.id, thread.preview, thread.status])).toEqual([[threadId, 'First task', { type: 'idle' }]]);
    expect(listed.nextCursor).toBeNull();

    const read = (await client.request('thread/read', { threadId, includeTurns: true })) as { thread: { turns: { id: string; status: string; items: { type: string }[] }[] } };
    expect(read.thread.turns).toMatchObject([{ id: turn.id, status: 'completed', itemsView: 'full', items: [{ type: 'userMessage' }, { type: 'agentMessage', text: 'First answer.' }] }]);

    expect(await client.request('thread/name/set', { threadId, name: 'Greeting' })).toEqual({});
    await client.waitFor('thread/name/updated', (params) => (params as { threadName: string }).threadName === 'Greeting');

    const fork = (await client.request('thread/fork', { threadId })) as { thread: { id: string; forkedFromId: string; turns: unknown[] } };
    expect(fork.thread.forkedFromId).toBe(threadId);
    expect(fork.thread.id).not.toBe(threadId);
    expect(fork.thread.turns).toHaveLength(1);

    expect(await client.request('thread/archive', { threadId })).toEqual({});
    await client.waitFor('thread/archived', (params) => (params as { threadId: string }).threadId === threadId);
    const archived = (await client.request('thread/list', { archived: true })) as { data: { id: string; status: unknown; path: string }[] };
    expect(archived.data.map((thread) => [thread.id, thread.status])).toEqual([[threadId, { type: 'notLoaded' }]]);
    expect(archived.data[0]!.path).toContain(`${path.sep}archived_sessions${path.sep}`);

    const unarchived = (await client.request('thread/unarchive', { threadId })) as { thread: { id: string; status: unknown } };
    expect(unarchived.thread).toMatchObject({ id: threadId, status: { type: 'notLoaded' } });
    // Sent before the answer (issue #35): it is already here when the answer is.
    expect(client.notificationsOf('thread/unarchived')).toEqual([{ threadId }]);
    const unknown = await client.requestReply('thread/read', { threadId: '01a22c4e-0203-7f51-a38a-d99c4dbdd200' });
    expect(unknown).toMatchObject({ error: { code: -32600 } });
  });

  it('thread/delete unloads the thread, removes its rollout, index row and read state, and tells every client, as Codex does', async () => {
    model.expect([sse(assistantMessage('Doomed.'), completed())]);
    const client = await connect(await serve());
    const threadId = await startThread(client);
    const { turn } = (await client.request('turn/start', { threadId, input: text('Short-lived') })) as { turn: { id: string } };
    await turnCompleted(client, turn.id);
    const { data } = (await client.request('thread/list', {})) as { data: { id: string; path: string }[] };
    const file = data[0]!.path;
    expect(existsSync(file)).toBe(true);

    const from = client.notifications.length;
    expect(await client.request('thread/delete', { threadId })).toEqual({});
    await client.waitFor('thread/deleted', (params) => (params as { threadId: string }).threadId === threadId);
    expect(client.notifications.slice(from).map((note) => note.method)).toEqual(['thread/status/changed', 'thread/deleted']);
    expect(existsSync(file)).toBe(false);
    expect(await client.request('thread/list', {})).toEqual({ data: [], readStates: {}, nextCursor: null, backwardsCursor: null });
    expect(await client.request('thread/loaded/list', {})).toEqual({ data: [], nextCursor: null });

    // Deleted, or never there: Codex's refusal, nothing else touched.
    for (const id of [threadId, '01a22c4e-0203-7f51-a38a-d99c4dbdd200']) {
      expect(await client.requestReply('thread/delete', { threadId: id })).toMatchObject({ error: { code: -32600, message: `no rollout found for thread id ${id}` } });
    }
    expect(client.schemaFailures).toEqual([]);
  });

  // Issue #13: Codex's TUI lists its agent view with sortKey recency_at and section_position.
  it('thread/list takes every sort key of Codex: created_at, updated_at and recency_at order as Codex orders them, section_position needs a section', async () => {
    model.expect([sse(assistantMessage('A.'), completed()), sse(assistantMessage('B.'), completed()), sse(assistantMessage('A again.'), completed())]);
    const client = await connect(await serve());
    const older = await startThread(client);
    await turnCompleted(client, ((await client.request('turn/start', { threadId: older, input: text('older') })) as { turn: { id: string } }).turn.id);
    const newer = await startThread(client);
    await turnCompleted(client, ((await client.request('turn/start', { threadId: newer, input: text('newer') })) as { turn: { id: string } }).turn.id);
    // A thread's updatedAt is its rollout file's mtime, stamped from the kernel's coarse clock, and
    // the last lines of a turn reach the file just after turn/completed (issue #13, item 8): let the
    // newer thread's writes settle so the two updates cannot tie.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await turnCompleted(client, ((await client.request('turn/start', { threadId: older, input: text('older again') })) as { turn: { id: string } }).turn.id);

    const ids = async (params: Record<string, unknown>): Promise<string[]> =>
      ((await client.request('thread/list', params)) as { data: { id: string }[] }).data.map((thread) => thread.id);
    // Codex 0.171.0: newest first by created_at unless told; updated_at and recency_at by last activity.
    expect(await ids({})).toEqual([newer, older]);
    expect(await ids({ sortKey: 'created_at' })).toEqual([newer, older]);
    // The index learns the older thread's update when that turn's last line is written: wait for it.
    await vi.waitFor(async () => expect(await ids({ sortKey: 'updated_at' })).toEqual([older, newer]));
    expect(await ids({ sortKey: 'recency_at' })).toEqual([older, newer]);
    const firstPage = (await client.request('thread/list', { sortKey: 'recency_at', limit: 1 })) as { data: { id: string }[]; nextCursor: string };
    expect(firstPage.data.map((thread) => thread.id)).toEqual([older]);
    expect(await ids({ sortKey: 'recency_at', limit: 1, cursor: firstPage.nextCursor })).toEqual([newer]);

    // Neither thread is filed in a section: `sectionId: null` (threads in none) lists both, and a section holds neither.
    expect(await ids({ sectionId: null })).toEqual([newer, older]);
    expect(await ids({ sectionId: 'pinned' })).toEqual([]);
    expect(await client.request('thread/list', { sortKey: 'section_position', sectionId: 'pinned' })).toEqual({ data: [], nextCursor: null, backwardsCursor: null, readStates: {} });
    for (const params of [{ sortKey: 'section_position' }, { sortKey: 'section_position', sectionId: null }]) {
      expect(await client.requestReply('thread/list', params)).toMatchObject({ error: { code: -32600, message: 'section-position sorting requires a section filter' } });
    }
    expect(await client.requestReply('thread/list', { sortKey: 'position' })).toMatchObject({ error: { code: -32600 } });
  });

  it('resumes a stored thread in a new server with its turns, and the next turn continues its history', async () => {
    model.expect([sse(assistantMessage('One.'), completed()), sse(assistantMessage('Two.'), completed())]);
    const first = await serve();
    const client = await connect(first);
    const threadId = await startThread(client);
    const { turn } = (await client.request('turn/start', { threadId, input: text('Count') })) as { turn: { id: string } };
    await turnCompleted(client, turn.id);
    await client.close();
    clients.splice(clients.indexOf(client), 1);
    await first.close();
    servers.splice(servers.indexOf(first), 1);

    const again = await connect(await serve());
    const resumed = (await again.request('thread/resume', { threadId, approvalPolicy: 'never', sandbox: 'workspace-write' })) as { thread: { id: string; turns: unknown[] } };
    expect(resumed.thread).toMatchObject({ id: threadId, status: { type: 'idle' } });
    expect(resumed.thread.turns).toHaveLength(1);
    const next = (await again.request('turn/start', { threadId, input: text('Again') })) as { turn: { id: string } };
    await turnCompleted(again, next.turn.id);
    const [before, after] = [model.requests[0]!.body!.input, model.requests[1]!.body!.input];
    // The base instructions live in the rollout's header; the new process gives their message a new id.
    const { id: _beforeId, ...baseBefore } = before[0]!;
    const { id: _afterId, ...baseAfter } = after[0]!;
    expect(baseAfter).toEqual(baseBefore);
    expect(after.slice(1, before.length)).toEqual(before.slice(1));
  });

  it.skipIf(NO_SANDBOX !== '')(`runs a user shell command as a turn; on a thread without environments the turn fails with “shell is unavailable in this session”, as Codex${NO_SANDBOX}`, async () => {
    const client = await connect(await serve());
    const threadId = await startThread(client);
    expect(await client.request('thread/shellCommand', { threadId, command: 'echo from-user' })).toEqual({});
    const done = (await client.waitFor('item/completed', (params) => (params as { item: { type: string } }).item.type === 'commandExecution')) as { item: unknown };
    expect(done.item).toMatchObject({ source: 'userShell', status: 'completed', exitCode: 0, aggregatedOutput: 'from-user\n' });
    await client.waitFor('turn/completed');

    // Codex 0.171.0 accepts the request, then fails the turn it starts with an `error` notification.
    const bare = await startThread(client, { environments: [] });
    const from = client.notifications.length;
    expect(await client.request('thread/shellCommand', { threadId: bare, command: 'echo hi' })).toEqual({});
    const failed = (await client.waitFor('turn/completed', (params) => (params as { threadId: string }).threadId === bare)) as { turn: { id: string } };
    const unavailable = { message: 'shell is unavailable in this session', codexErrorInfo: null, additionalDetails: null };
    expect(failed.turn).toMatchObject({ status: 'failed', error: unavailable });
    expect(client.notificationsOf('error').at(-1)).toEqual({ threadId: bare, turnId: failed.turn.id, willRetry: false, error: unavailable });
    expect(methodsFor(client, bare, from).filter((method) => method.startsWith('turn/') || method.startsWith('item/') || method === 'error')).toEqual(['turn/started', 'error', 'turn/completed']);
    expect(client.schemaFailures).toEqual([]);
  });
});

describe('several clients', () => {
  it('a second client joins a thread; when the first leaves, the thread goes on for the second', async () => {
    model.expect([sse(assistantMessage('For both.'), completed()), sse(assistantMessage('Still here.'), completed())]);
    const server = await serve();
    const first = await connect(server, 'websocket');
    const second = await connect(server, 'websocket');
    const threadId = await startThread(first);
    await second.request('thread/resume', { threadId });
    const { turn } = (await first.request('turn/start', { threadId, input: text('hello both') })) as { turn: { id: string } };
    await Promise.all([turnCompleted(first, turn.id), turnCompleted(second, turn.id)]);

    await first.close();
    clients.splice(clients.indexOf(first), 1);
    const next = (await second.request('turn/start', { threadId, input: text('just me') })) as { turn: { id: string } };
    expect((await turnCompleted(second, next.turn.id)).turn.status).toBe('completed');
    expect(await second.request('thread/unsubscribe', { threadId })).toEqual({ status: 'unsubscribed' });
    expect(await second.request('thread/unsubscribe', { threadId })).toEqual({ status: 'notSubscribed' });
  });

  const waitingOnApproval = (client: AppServerTestClient) =>
    client.waitFor('thread/status/changed', (params) => ((params as { status: { activeFlags?: string[] } }).status.activeFlags ?? []).includes('waitingOnApproval'));
  const touchTurn = () => model.expect([sse(functionCall('exec_command', { cmd: 'touch made.txt' }, { callId: 'call_t' }), completed()), sse(assistantMessage('Made.'), completed())]);

  /** Two WebSocket clients subscribed to an untrusted thread whose model will ask to touch a file. */
  async function twoSubscribers(): Promise<{ first: AppServerTestClient; second: AppServerTestClient; threadId: string }> {
    touchTurn();
    const server = await serve();
    const first = await connect(server, 'websocket');
    const second = await connect(server, 'websocket');
    const threadId = await startThread(first, { approvalPolicy: 'untrusted' });
    await second.request('thread/resume', { threadId });
    return { first, second, threadId };
  }

  it.skipIf(NO_SANDBOX !== '')(`an approval waits when its client leaves, and is sent again, same id, to a client that resumes the thread${NO_SANDBOX}`, async () => {
    touchTurn();
    const server = await serve();
    const first = await connect(server, 'websocket');
    const threadId = await startThread(first, { approvalPolicy: 'untrusted' });
    const { turn } = (await first.request('turn/start', { threadId, input: text('make a file') })) as { turn: { id: string } };
    await waitingOnApproval(first);
    const [asked] = first.serverRequests;
    expect(asked).toMatchObject({ method: 'item/commandExecution/requestApproval', params: { threadId, itemId: 'call_t' } });
    await first.close();
    clients.splice(clients.indexOf(first), 1);

    const second = await connect(server, 'websocket');
    second.onServerRequest(() => ({ decision: 'accept' }));
    await second.request('thread/resume', { threadId });
    expect((await turnCompleted(second, turn.id)).turn.status).toBe('completed');
    expect(second.serverRequests).toEqual([{ id: asked!.id, method: asked!.method, params: asked!.params }]);
    expect(second.notificationsOf('serverRequest/resolved')).toEqual([{ threadId, requestId: asked!.id }]);
    expect(existsSync(path.join(home.workspace, 'made.txt'))).toBe(true);
  });

  it.skipIf(NO_SANDBOX !== '')(`an approval goes to every subscriber; the first answer decides and the others hear it resolved${NO_SANDBOX}`, async () => {
    const { first, second, threadId } = await twoSubscribers();
    second.onServerRequest(() => ({ decision: 'accept' }));
    const { turn } = (await first.request('turn/start', { threadId, input: text('make a file') })) as { turn: { id: string } };
    expect((await turnCompleted(first, turn.id)).turn.status).toBe('completed');
    expect(first.serverRequests.map((request) => request.id)).toEqual(second.serverRequests.map((request) => request.id));
    expect(first.notificationsOf('serverRequest/resolved')).toEqual([{ threadId, requestId: second.serverRequests[0]!.id }]);
    expect(existsSync(path.join(home.workspace, 'made.txt'))).toBe(true);
  });

  // Codex (app-server's OutgoingMessageSender) takes the first answer out of its callback table; a
  // later answer to the same id finds nothing, is logged ("could not find callback") and gets no reply.
  it.skipIf(NO_SANDBOX !== '')(`a contested approval: both subscribers are asked, the first answer decides, the late one is ignored without a reply, and the command runs once${NO_SANDBOX}`, async () => {
    model.expect([sse(functionCall('exec_command', { cmd: 'echo ran >> runs.txt' }, { callId: 'call_c' }), completed()), sse(assistantMessage('Ran it.'), completed())]);
    const log: string[] = [];
    const server = await serve({ log: (line) => log.push(line) });
    const first = await connect(server, 'websocket');
    const second = await connect(server, 'websocket');
    const threadId = await startThread(first, { approvalPolicy: 'untrusted' });
    await second.request('thread/resume', { threadId });

    // Each client holds its answer until the test releases it, so both are asked before either answers.
    const holdAnswer = (client: AppServerTestClient) => {
      const asked = deferred<ReceivedServerRequest>();
      const answer = deferred<unknown>();
      client.onServerRequest((request) => {
        asked.resolve(request);
        return answer.promise;
      });
      return { asked: asked.promise, answer: answer.resolve };
    };
    const [a, b] = [holdAnswer(first), holdAnswer(second)];
    const { turn } = (await first.request('turn/start', { threadId, input: text('run it') })) as { turn: { id: string } };
    const [toFirst, toSecond] = await Promise.all([a.asked, b.asked]);
    expect(toFirst).toMatchObject({ method: 'item/commandExecution/requestApproval', params: { threadId, turnId: turn.id, itemId: 'call_c' } });
    expect(toSecond).toEqual(toFirst);
    const resolved = { threadId, requestId: toFirst.id };

    a.answer({ decision: 'accept' });
    await second.waitFor('serverRequest/resolved', (params) => (params as { requestId: unknown }).requestId === toFirst.id);
    b.answer({ decision: 'decline' });
    await Promise.all([turnCompleted(first, turn.id), turnCompleted(second, turn.id)]);
    // A request after the late answer: once it is answered, the server has read the late answer too.
    await second.request('thread/read', { threadId });

    expect(log.filter((line) => line.includes(`answer to request ${toFirst.id}`))).toEqual([expect.stringMatching(new RegExp(`^connection \\d+: ignored an answer to request ${toFirst.id}, which is not pending$`))]);
    // The client harness fails on any reply to an id it did not ask; the late answer got none.
    expect(second.schemaFailures).toEqual([]);
    for (const client of [first, second]) {
      expect(client.serverRequests).toEqual([toFirst]);
      expect(client.notificationsOf('serverRequest/resolved')).toEqual([resolved]);
      const commandItems = client.notificationsOf('item/completed').filter((params) => (params as { item: { id: string } }).item.id === 'call_c');
      expect(commandItems).toEqual([expect.objectContaining({ item: expect.objectContaining({ type: 'commandExecution', status: 'completed', exitCode: 0 }) as unknown })]);
    }
    expect(readFileSync(path.join(home.workspace, 'runs.txt'), 'utf8')).toBe('ran\n');
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]!.toolOutputText('call_c')).toMatch(/\nProcess exited with code 0\n/);
  });

  it.skipIf(NO_SANDBOX !== '')(`an error answer settles an approval as declined, and the other subscribers hear it resolved${NO_SANDBOX}`, async () => {
    const { first, second, threadId } = await twoSubscribers();
    second.onServerRequest(() => {
      throw new Error('this client cannot show approvals');
    });
    const { turn } = (await first.request('turn/start', { threadId, input: text('make a file') })) as { turn: { id: string } };
    expect((await turnCompleted(first, turn.id)).turn.status).toBe('completed');
    expect(first.notificationsOf('serverRequest/resolved')).toEqual([{ threadId, requestId: first.serverRequests[0]!.id }]);
    expect(existsSync(path.join(home.workspace, 'made.txt'))).toBe(false);
  });
});
