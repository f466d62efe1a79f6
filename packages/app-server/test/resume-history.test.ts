// What a client resuming a thread gets, as Codex 0.171.0 answers it (probed side by side): the
// resume answer's collaboration mode and backwards cursors, the notifications after it, the user
// message's client id kept across a restart, and the paging methods' refusals for a thread with no
// history to page. Every message is validated against Codex's schema by the test client.
import { assistantMessage, completed, failed, mockProviderConfigToml, sse, startMockResponsesServer, type AppServerTestClient, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, startInProcess, threadsOn, type InProcessServer, type TestHome } from './support/app-server-harness.js';

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
  try {
    await model.close();
  } finally {
    home.cleanup();
  }
});

async function connect(): Promise<{ server: InProcessServer; client: AppServerTestClient }> {
  const server = await startInProcess(home, { threads: threadsOn(home) });
  servers.push(server);
  const client = await server.connect('stdio');
  clients.push(client);
  await client.initialize({ capabilities: { experimentalApi: true } });
  return { server, client };
}

async function restart(server: InProcessServer, client: AppServerTestClient): Promise<AppServerTestClient> {
  await client.close();
  clients.splice(clients.indexOf(client), 1);
  await server.close();
  servers.splice(servers.indexOf(server), 1);
  return (await connect()).client;
}

async function startThread(client: AppServerTestClient, params: Record<string, unknown> = {}): Promise<string> {
  const { thread } = (await client.request('thread/start', { cwd: home.workspace, ...params })) as { thread: { id: string } };
  return thread.id;
}

async function runTurn(client: AppServerTestClient, threadId: string, params: Record<string, unknown> = {}): Promise<string> {
  model.expect([sse(assistantMessage('Answered.'), completed())]);
  const { turn } = (await client.request('turn/start', { threadId, input: [{ type: 'text', text: 'Go.', text_elements: [] }], ...params })) as { turn: { id: string } };
  await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === turn.id);
  return turn.id;
}

interface UserMessage {
  type: 'userMessage';
  id: string;
  clientId: string | null;
}

describe('thread/resume as Codex answers it', () => {
  it('keeps the client id of a user message, and its item id, across a restart', async () => {
    const { server, client } = await connect();
    const threadId = await startThread(client);
    const tagged = await runTurn(client, threadId, { clientUserMessageId: 'client-msg-1' });
    await runTurn(client, threadId);
    const live = client.notificationsOf('item/completed').map((params) => (params as { item: UserMessage }).item).filter((item) => item.type === 'userMessage');
    expect(live.map((item) => item.clientId)).toEqual(['client-msg-1', null]);
    expect(client.notificationsOf('item/started').map((params) => (params as { item: UserMessage }).item).find((item) => item.type === 'userMessage')?.clientId).toBe('client-msg-1');

    const again = await restart(server, client);
    const { thread } = (await again.request('thread/read', { threadId, includeTurns: true })) as { thread: { turns: { id: string; items: { type: string; id: string; clientId?: string | null }[] }[] } };
    const stored = thread.turns.flatMap((turn) => turn.items.filter((item) => item.type === 'userMessage'));
    expect(stored.map((item) => [item.id, item.clientId])).toEqual(live.map((item) => [item.id, item.clientId]));
    expect(thread.turns[0]?.id).toBe(tagged);
  });

  it('answers the collaboration mode and cursors that open the newest turn and item, and initialTurnsPage only when asked', async () => {
    const { server, client } = await connect();
    const threadId = await startThread(client);
    await runTurn(client, threadId);
    const lastTurn = await runTurn(client, threadId);
    const again = await restart(server, client);
    const resumed = (await again.request('thread/resume', { threadId, excludeTurns: true })) as Record<string, unknown> & { turnsBackwardsCursor: string; itemsBackwardsCursor: string };
    expect(resumed).toMatchObject({ collaborationMode: { mode: 'default', settings: { model: resumed['model'], reasoning_effort: null, developer_instructions: null } }, initialTurnsPage: null });

    const turns = (await again.request('thread/turns/list', { threadId, cursor: resumed.turnsBackwardsCursor, sortDirection: 'desc' })) as { data: { id: string }[] };
    expect(turns.data.map((turn) => turn.id)[0]).toBe(lastTurn);
    expect(turns.data).toHaveLength(2);
    const all = (await again.request('thread/items/list', { threadId })) as { data: { item: { id: string } }[] };
    const items = (await again.request('thread/items/list', { threadId, cursor: resumed.itemsBackwardsCursor, sortDirection: 'desc' })) as { data: { item: { id: string } }[] };
    expect(items.data.map((entry) => entry.item.id)).toEqual(all.data.map((entry) => entry.item.id).reverse());
  });

  it('tells the resuming client its status, usage under the last turn, and a cleared goal; full history comes with a deprecation notice', async () => {
    const { server, client } = await connect();
    const threadId = await startThread(client);
    const lastTurn = await runTurn(client, threadId);
    const again = await restart(server, client);
    const before = again.notifications.length;
    await again.request('thread/resume', { threadId });
    await again.waitFor('thread/goal/cleared');
    const after = again.notifications.slice(before);
    expect(after.map((notification) => notification.method)).toEqual(['deprecationNotice', 'thread/status/changed', 'thread/tokenUsage/updated', 'thread/goal/cleared']);
    expect(after[0]?.params).toEqual({ summary: expect.stringContaining('excludeTurns: true') as unknown, details: null });
    expect(after[2]?.params).toMatchObject({ threadId, turnId: lastTurn, tokenUsage: { total: { totalTokens: 110 }, last: { totalTokens: 110 }, modelContextWindow: 258_400 } });
    expect(after[3]?.params).toEqual({ threadId });

    const third = await restart(servers[0]!, again);
    const mark = third.notifications.length;
    await third.request('thread/resume', { threadId, excludeTurns: true });
    await third.waitFor('thread/goal/cleared');
    expect(third.notifications.slice(mark).map((notification) => notification.method)).not.toContain('deprecationNotice');
  });
});

describe('turn status across a restart', () => {
  // Issue #35: a resumed thread showed a failed turn as completed, with no error.
  it('reads a failed turn back as failed with its error, next to a completed one', async () => {
    const { server, client } = await connect();
    const threadId = await startThread(client);
    model.expect([sse(failed('server_error', 'the model fell over'))]);
    const { turn } = (await client.request('turn/start', { threadId, input: [{ type: 'text', text: 'Go.', text_elements: [] }] })) as { turn: { id: string } };
    const live = (await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === turn.id)) as { turn: { status: string; error: unknown } };
    expect(live.turn.status).toBe('failed');
    const answered = await runTurn(client, threadId);

    const again = await restart(server, client);
    const { data } = (await again.request('thread/turns/list', { threadId, sortDirection: 'asc' })) as { data: { id: string; status: string; error: unknown }[] };
    expect(data.map(({ id, status, error }) => ({ id, status, error }))).toEqual([
      { id: turn.id, status: 'failed', error: live.turn.error },
      { id: answered, status: 'completed', error: null },
    ]);
    const read = (await again.request('thread/read', { threadId, includeTurns: true })) as { thread: { turns: { status: string; error: unknown }[] } };
    expect(read.thread.turns.map(({ status, error }) => ({ status, error }))).toEqual([
      { status: 'failed', error: live.turn.error },
      { status: 'completed', error: null },
    ]);
    expect(again.schemaFailures).toEqual([]);
  });
});

describe('paging a thread with nothing to page', () => {
  it('refuses an ephemeral thread and a thread before its first user message, in Codex’s words', async () => {
    const { client } = await connect();
    const ephemeral = await startThread(client, { ephemeral: true });
    const fresh = await startThread(client);
    const refusal = (message: string) => ({ error: { code: -32600, message } });
    expect(await client.requestReply('thread/turns/list', { threadId: ephemeral })).toEqual(refusal('ephemeral threads do not support thread/turns/list'));
    expect(await client.requestReply('thread/items/list', { threadId: ephemeral })).toEqual(refusal('ephemeral threads do not support thread/items/list'));
    expect(await client.requestReply('thread/read', { threadId: ephemeral, includeTurns: true })).toEqual(refusal('ephemeral threads do not support includeTurns'));
    expect(await client.requestReply('thread/turns/list', { threadId: fresh })).toEqual(refusal(`thread ${fresh} is not materialized yet; thread/turns/list is unavailable before first user message`));
    expect(await client.requestReply('thread/items/list', { threadId: fresh })).toEqual(refusal(`thread ${fresh} is not materialized yet; thread/items/list is unavailable before first user message`));

    await runTurn(client, fresh);
    expect(await client.request('thread/turns/list', { threadId: fresh })).toMatchObject({ data: [{ status: 'completed' }] });
  });
});
