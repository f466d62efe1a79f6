// The methods Codex's TUI and IDE clients call beside the thread basics (issue #13), end to end over
// JSON-RPC with every message validated against Codex's schema: a stored thread's model and approval
// policy, unloading threads no client holds, hooks/list, collaborationMode/list, read states and
// thread/turns/list. Each answer's shape is what Codex 0.171.0 answered to the same requests.
import { assistantMessage, completed, mockProviderConfigToml, sse, startMockResponsesServer, type AppServerTestClient, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, startInProcess, threadsOn, type InProcessServer, type TestHome } from './support/app-server-harness.js';

let model: MockResponsesServer;
let home: TestHome;
const servers: InProcessServer[] = [];
const clients: AppServerTestClient[] = [];

beforeEach(async () => {
  model = await startMockResponsesServer();
  // Unheld threads are unloaded at once (Codex waits a minute by default).
  home = makeHome(`thread_unload_delay_secs = 0\n${mockProviderConfigToml(model.url)}`);
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const server of servers.splice(0)) await server.close();
  try {
    await model.close();
  } finally {
    home.cleanup();
  }
});

async function serve(): Promise<InProcessServer> {
  const server = await startInProcess(home, { threads: threadsOn(home) });
  servers.push(server);
  return server;
}

async function connect(server: InProcessServer, transport: 'stdio' | 'websocket' = 'stdio'): Promise<AppServerTestClient> {
  const client = await server.connect(transport);
  clients.push(client);
  await client.initialize();
  return client;
}

/** Closes a client and its server, as a client quitting and the process ending. */
async function stop(server: InProcessServer, client: AppServerTestClient): Promise<void> {
  await client.close();
  clients.splice(clients.indexOf(client), 1);
  await server.close();
  servers.splice(servers.indexOf(server), 1);
}

const text = (value: string) => [{ type: 'text', text: value, text_elements: [] }];

async function startThread(client: AppServerTestClient, params: Record<string, unknown> = {}): Promise<string> {
  const result = (await client.request('thread/start', { cwd: home.workspace, sandbox: 'workspace-write', ...params })) as { thread: { id: string } };
  return result.thread.id;
}

/** Runs one turn that the model answers with `answer`; resolves to the turn's id once it completed. */
async function runTurn(client: AppServerTestClient, threadId: string, prompt: string, answer = 'Done.'): Promise<string> {
  model.expect([sse(assistantMessage(answer), completed())]);
  const { turn } = (await client.request('turn/start', { threadId, input: text(prompt) })) as { turn: { id: string } };
  await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === turn.id);
  return turn.id;
}

describe('a stored thread as Codex reports it', () => {
  it('thread/list and thread/read name the model of a thread that is not loaded', async () => {
    const first = await serve();
    const client = await connect(first);
    const threadId = await startThread(client, { model: 'gpt-5.4' });
    await runTurn(client, threadId, 'Remember the model');
    await stop(first, client);

    const again = await connect(await serve());
    const listed = (await again.request('thread/list', {})) as { data: { id: string; model: string | null; status: unknown }[] };
    expect(listed.data.map((thread) => [thread.id, thread.model, thread.status])).toEqual([[threadId, 'gpt-5.4', { type: 'notLoaded' }]]);
    expect(await again.request('thread/read', { threadId })).toMatchObject({ thread: { id: threadId, model: 'gpt-5.4', status: { type: 'notLoaded' } } });
  });

  it('thread/resume and thread/fork keep the approval policy the thread ran with unless the client names one', async () => {
    const first = await serve();
    const client = await connect(first);
    const threadId = await startThread(client, { approvalPolicy: 'never' });
    await runTurn(client, threadId, 'Run without asking');
    await stop(first, client);

    const again = await connect(await serve());
    expect(await again.request('thread/fork', { threadId, excludeTurns: true })).toMatchObject({ approvalPolicy: 'never', thread: { forkedFromId: threadId } });
    expect(await again.request('thread/fork', { threadId, excludeTurns: true, approvalPolicy: 'untrusted' })).toMatchObject({ approvalPolicy: 'untrusted' });
    expect(await again.request('thread/resume', { threadId, excludeTurns: true })).toMatchObject({ approvalPolicy: 'never', thread: { id: threadId } });
  });
});

describe('threads no client holds', () => {
  it('are unloaded after thread_unload_delay_secs once the last client unsubscribed, and every client hears it', async () => {
    const server = await serve();
    const client = await connect(server, 'websocket');
    const other = await connect(server, 'websocket');
    const threadId = await startThread(client);
    const ephemeral = await startThread(client, { ephemeral: true });
    await other.request('thread/resume', { threadId });
    expect(await client.request('thread/loaded/list', {})).toEqual({ data: [threadId, ephemeral], nextCursor: null });

    expect(await client.request('thread/unsubscribe', { threadId: ephemeral })).toEqual({ status: 'unsubscribed' });
    await other.waitFor('thread/closed', (params) => (params as { threadId: string }).threadId === ephemeral);
    // Still held by the other client.
    expect(await client.request('thread/unsubscribe', { threadId })).toEqual({ status: 'unsubscribed' });
    expect(await client.request('thread/loaded/list', {})).toEqual({ data: [threadId], nextCursor: null });

    // A disconnect lets go as an unsubscribe does.
    await other.close();
    clients.splice(clients.indexOf(other), 1);
    await client.waitFor('thread/closed', (params) => (params as { threadId: string }).threadId === threadId);
    expect(client.notificationsOf('thread/status/changed').filter((params) => (params as { threadId: string }).threadId === threadId).at(-1)).toEqual({ threadId, status: { type: 'notLoaded' } });
    expect(await client.request('thread/loaded/list', {})).toEqual({ data: [], nextCursor: null });
    expect(await client.request('thread/unsubscribe', { threadId })).toEqual({ status: 'notLoaded' });
  });

  it('come back on the next thread/resume with their history, and an unloaded thread refuses a turn until then', async () => {
    const server = await serve();
    const client = await connect(server, 'websocket');
    const threadId = await startThread(client);
    await runTurn(client, threadId, 'remember the word heron', 'Noted: heron.');
    await client.request('thread/unsubscribe', { threadId });
    await client.waitFor('thread/closed', (params) => (params as { threadId: string }).threadId === threadId);
    expect(await client.request('thread/loaded/list', {})).toEqual({ data: [], nextCursor: null });
    // As Codex: a turn needs the thread loaded; the client resumes it first.
    expect(await client.requestReply('turn/start', { threadId, input: text('still there?') })).toMatchObject({ error: { code: -32600, message: `thread not found: ${threadId}` } });

    const resumed = (await client.request('thread/resume', { threadId })) as { thread: { id: string; turns: unknown[] } };
    expect(resumed.thread.id).toBe(threadId);
    expect(resumed.thread.turns).toHaveLength(1);
    await runTurn(client, threadId, 'which word?', 'Heron.');
    expect(JSON.stringify(model.requests.at(-1)?.body?.input)).toContain('Noted: heron.');
  });
});

describe('hooks/list and collaborationMode/list', () => {
  it('hooks/list answers an empty entry per directory, or for a loaded thread; a thread not loaded or both selectors is -32600', async () => {
    const client = await connect(await serve());
    expect(await client.request('hooks/list', {})).toEqual({ data: [{ cwd: home.workspace, hooks: [], warnings: [], errors: [] }] });
    expect(await client.request('hooks/list', { cwds: ['rel', home.workspace] })).toEqual({
      data: [
        { cwd: 'rel', hooks: [], warnings: [], errors: [] },
        { cwd: home.workspace, hooks: [], warnings: [], errors: [] },
      ],
    });
    const threadId = await startThread(client);
    expect(await client.request('hooks/list', { threadId })).toEqual({ data: [{ cwd: home.workspace, hooks: [], warnings: [], errors: [] }] });
    expect(await client.requestReply('hooks/list', { threadId, cwds: [home.workspace] })).toMatchObject({ error: { code: -32600 } });
    expect(await client.requestReply('hooks/list', { threadId: '01a2347a-f789-7151-bb44-fe2c2da36c00' })).toMatchObject({ error: { code: -32600 } });
  });

  it('collaborationMode/list lists the Plan and Default presets, for experimental clients only', async () => {
    const server = await serve();
    const client = await connect(server);
    expect(await client.request('collaborationMode/list', {})).toEqual({
      data: [
        { name: 'Plan', mode: 'plan', model: null, reasoning_effort: 'medium' },
        { name: 'Default', mode: 'default', model: null, reasoning_effort: null },
      ],
    });
    const plain = await server.connect('stdio');
    clients.push(plain);
    await plain.initialize({ capabilities: { experimentalApi: false } });
    expect(await plain.requestReply('collaborationMode/list', {})).toMatchObject({ error: { code: -32600, message: 'collaborationMode/list requires experimentalApi capability' } });
  });
});

describe('read states', () => {
  it('a finished turn is unread (thread/readState/changed before the thread goes idle); marking it read survives a restart', async () => {
    const first = await serve();
    const client = await connect(first);
    const threadId = await startThread(client);
    const from = client.notifications.length;
    const turnId = await runTurn(client, threadId, 'Tell me when done');
    const tail = client.notifications.slice(from).map((notification) => notification.method).filter((method) => method !== 'item/agentMessage/delta');
    expect(tail.slice(-3)).toEqual(['thread/readState/changed', 'thread/status/changed', 'turn/completed']);
    const [changed] = client.notificationsOf('thread/readState/changed') as { threadId: string; readState: { firstUnread: unknown; revision: string } }[];
    expect(changed).toMatchObject({ threadId, readState: { firstUnread: { type: 'turn', turnId } } });

    const read = (await client.request('thread/read', { threadId })) as { readState: unknown };
    expect(read.readState).toEqual(changed!.readState);
    expect(await client.request('thread/list', {})).toMatchObject({ readStates: { [threadId]: changed!.readState } });

    const stale = await client.requestReply('thread/readState/update', { threadId, expectedRevision: 'seen-long-ago', operation: { type: 'read' } });
    expect(stale).toMatchObject({ error: { code: -32600, data: { reason: 'readStateConflict', readState: changed!.readState } } });
    const marked = (await client.request('thread/readState/update', { threadId, expectedRevision: changed!.readState.revision, operation: { type: 'read' } })) as { readState: { firstUnread: unknown; revision: string } };
    expect(marked.readState.firstUnread).toBeNull();
    await client.waitFor('thread/readState/changed', (params) => (params as { readState: { revision: string } }).readState.revision === marked.readState.revision);
    await stop(first, client);

    const again = await connect(await serve());
    expect(await again.request('thread/read', { threadId })).toMatchObject({ readState: marked.readState });
    const unread = (await again.request('thread/readState/update', { threadId, expectedRevision: marked.readState.revision, operation: { type: 'unread' } })) as { readState: unknown };
    expect(unread.readState).toMatchObject({ firstUnread: { type: 'turn', turnId } });
  });

  it('refuses an unknown thread, an ephemeral one, and params Codex would not take', async () => {
    const client = await connect(await serve());
    const update = (params: Record<string, unknown>) => client.requestReply('thread/readState/update', { expectedRevision: '0', operation: { type: 'read' }, ...params });
    expect(await update({ threadId: '01a2347a-f789-7151-bb44-fe2c2da36c00' })).toMatchObject({ error: { code: -32600 } });
    const ephemeral = await startThread(client, { ephemeral: true });
    expect(await update({ threadId: ephemeral })).toMatchObject({ error: { code: -32600 } });
    expect(await client.request('thread/read', { threadId: ephemeral })).toMatchObject({ readState: null });
    expect(await update({ threadId: ephemeral, operation: { type: 'bogus' } })).toMatchObject({ error: { code: -32600 } });
    expect(await client.requestReply('thread/readState/update', { threadId: ephemeral, operation: { type: 'read' } })).toMatchObject({ error: { code: -32600 } });
  });
});

describe('thread/turns/list', () => {
  /** A thread of `count` answered turns. */
  async function threadWithTurns(client: AppServerTestClient, count: number): Promise<{ threadId: string; turnIds: string[] }> {
    const threadId = await startThread(client);
    const turnIds: string[] = [];
    for (let index = 1; index <= count; index += 1) turnIds.push(await runTurn(client, threadId, `Prompt ${index}.`, `Answer ${index}.`));
    return { threadId, turnIds };
  }
  const ids = (page: unknown) => (page as { data: { id: string }[] }).data.map((turn) => turn.id);

  it('pages newest first by default, with summary items, and turns round with backwardsCursor', async () => {
    const client = await connect(await serve());
    const { threadId, turnIds } = await threadWithTurns(client, 3);
    const first = (await client.request('thread/turns/list', { threadId, limit: 2 })) as { data: { items: { type: string }[]; itemsView: string }[]; nextCursor: string | null; backwardsCursor: string | null };
    expect(ids(first)).toEqual([turnIds[2], turnIds[1]]);
    expect(first.data[0]!.itemsView).toBe('summary');
    expect(first.data[0]!.items.map((item) => item.type)).toEqual(['userMessage', 'agentMessage']);
    const second = (await client.request('thread/turns/list', { threadId, limit: 2, cursor: first.nextCursor })) as { nextCursor: string | null; backwardsCursor: string };
    expect(ids(second)).toEqual([turnIds[0]]);
    expect(second.nextCursor).toBeNull();
    // Reversing at the second page's first turn includes it again.
    expect(ids(await client.request('thread/turns/list', { threadId, sortDirection: 'asc', cursor: second.backwardsCursor }))).toEqual(turnIds);
  });

  it('answers full and notLoaded item views, and a thread that is not loaded from its file', async () => {
    const server = await serve();
    const client = await connect(server);
    const { threadId, turnIds } = await threadWithTurns(client, 1);
    const full = (await client.request('thread/turns/list', { threadId, itemsView: 'full' })) as { data: { items: unknown[]; itemsView: string }[] };
    expect(full.data[0]).toMatchObject({ id: turnIds[0], itemsView: 'full', status: 'completed' });
    expect(await client.request('thread/turns/list', { threadId, itemsView: 'notLoaded' })).toMatchObject({ data: [{ id: turnIds[0], items: [], itemsView: 'notLoaded' }] });
    await stop(server, client);
    const again = await connect(await serve());
    expect(ids(await again.request('thread/turns/list', { threadId }))).toEqual(turnIds);
  });

  it('refuses an unknown thread and a cursor it did not make', async () => {
    const client = await connect(await serve());
    const { threadId } = await threadWithTurns(client, 1);
    expect(await client.requestReply('thread/turns/list', { threadId: '019ad000-0000-7000-8000-000000000000' })).toMatchObject({ error: { code: -32600 } });
    expect(await client.requestReply('thread/turns/list', { threadId, cursor: 'abc' })).toEqual({ error: { code: -32600, message: 'invalid cursor: abc' } });
    const foreign = JSON.stringify({ threadId: 'other', turnId: 'x', includeAnchor: false });
    expect(await client.requestReply('thread/turns/list', { threadId, cursor: foreign })).toMatchObject({ error: { code: -32600 } });
  });
});

describe('account/rateLimits/updated', () => {
  it('follows the token usage of each model response with the limits Codex reports when the provider sends none', async () => {
    const client = await connect(await serve());
    const threadId = await startThread(client);
    await runTurn(client, threadId, 'Hi.');
    const methods = client.notifications.map((notification) => notification.method);
    const usage = methods.indexOf('thread/tokenUsage/updated');
    expect(methods.slice(usage, usage + 2)).toEqual(['thread/tokenUsage/updated', 'account/rateLimits/updated']);
    expect(client.notificationsOf('account/rateLimits/updated')).toEqual([
      {
        rateLimits: { limitId: 'codex', limitName: null, normalModelSlug: null, primary: null, secondary: null, credits: null, individualLimit: null, spendControlReached: null, planType: null, rateLimitReachedType: null },
      },
    ]);
  });
});

describe('activePermissionProfile', () => {
  it("names Codex's built-in profile only when nothing chose a sandbox mode", async () => {
    const client = await connect(await serve());
    expect(await client.request('thread/start', { cwd: home.workspace })).toMatchObject({ activePermissionProfile: { id: ':read-only', extends: null }, sandbox: { type: 'readOnly' } });
    expect(await client.request('thread/start', { cwd: home.workspace, sandbox: 'read-only' })).toMatchObject({ activePermissionProfile: null });
    expect(await client.request('thread/start', { cwd: home.workspace, config: { sandbox_mode: 'workspace-write' } })).toMatchObject({ activePermissionProfile: null });
  });
});

describe('thread/items/list and thread/resume initialTurnsPage (what Codex TUI loads on resume)', () => {
  const ids = (page: { data: { item: { id: string } }[] }) => page.data.map((entry) => entry.item.id);

  it('pages the items of a thread with their turn, and of one turn from an item anchor', async () => {
    const client = await connect(await serve());
    const threadId = await startThread(client);
    const first = await runTurn(client, threadId, 'One.', 'Answer one.');
    const second = await runTurn(client, threadId, 'Two.', 'Answer two.');
    const all = (await client.request('thread/items/list', { threadId })) as { data: { turnId: string; item: { type: string; id: string }; outputDeferred: boolean }[]; nextCursor: string | null };
    expect(all.data.map((entry) => [entry.turnId, entry.item.type])).toEqual([
      [first, 'userMessage'],
      [first, 'agentMessage'],
      [second, 'userMessage'],
      [second, 'agentMessage'],
    ]);
    expect(all.data.every((entry) => !entry.outputDeferred)).toBe(true);
    const page = (await client.request('thread/items/list', { threadId, limit: 3, sortDirection: 'desc' })) as { data: { item: { id: string } }[]; nextCursor: string };
    expect(page.data.map((entry) => entry.item.id)).toEqual(all.data.slice(1).reverse().map((entry) => entry.item.id));
    expect(ids((await client.request('thread/items/list', { threadId, sortDirection: 'desc', cursor: page.nextCursor })) as { data: { item: { id: string } }[] })).toEqual([all.data[0]!.item.id]);
    const anchored = (await client.request('thread/items/list', { threadId, turnId: second, cursor: { type: 'item', itemId: all.data[2]!.item.id } })) as { data: { item: { id: string } }[] };
    expect(ids(anchored)).toEqual([all.data[3]!.item.id]);
    expect(await client.requestReply('thread/items/list', { threadId, turnId: 'no-such-turn' })).toMatchObject({ error: { code: -32600 } });
  });

  it('thread/resume with excludeTurns and initialTurnsPage carries the newest turns', async () => {
    const server = await serve();
    const client = await connect(server);
    const threadId = await startThread(client);
    await runTurn(client, threadId, 'One.', 'Answer one.');
    const last = await runTurn(client, threadId, 'Two.', 'Answer two.');
    await stop(server, client);
    const again = await connect(await serve());
    const resumed = (await again.request('thread/resume', { threadId, excludeTurns: true, initialTurnsPage: { limit: 1 } })) as { thread: { turns: unknown[] }; initialTurnsPage: { data: { id: string; itemsView: string }[]; nextCursor: string | null } };
    expect(resumed.thread.turns).toEqual([]);
    expect(resumed.initialTurnsPage.data.map((turn) => [turn.id, turn.itemsView])).toEqual([[last, 'summary']]);
    expect(resumed.initialTurnsPage.nextCursor).not.toBeNull();
  });
});
