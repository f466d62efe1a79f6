// `thread/metadata/update` (issue #13), as Codex 0.171.0 answers it (probed): `{thread}` as
// `thread/read` shows it, Git facts merged field by field, no notification, Codex's -32600 refusals;
// what it stores survives a restart. In process on a real rollout store; messages are schema-checked.
import { mockProviderConfigToml, startMockResponsesServer, type AppServerTestClient, type MockResponsesServer } from '@skein/test-support';
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

async function connect(): Promise<{ client: AppServerTestClient; server: InProcessServer }> {
  const server = await startInProcess(home, { threads: threadsOn(home) });
  servers.push(server);
  const client = await server.connect('stdio');
  clients.push(client);
  await client.initialize();
  return { client, server };
}

async function startThread(client: AppServerTestClient, params: Record<string, unknown> = {}): Promise<string> {
  const { thread } = (await client.request('thread/start', { cwd: home.workspace, approvalPolicy: 'never', sandbox: 'read-only', ...params })) as { thread: { id: string } };
  await client.waitFor('thread/started', (params) => (params as { thread: { id: string } }).thread.id === thread.id);
  return thread.id;
}

type Thread = { id: string; gitInfo: unknown; daybreakEnabled: unknown };
const update = async (client: AppServerTestClient, params: Record<string, unknown>) => ((await client.request('thread/metadata/update', params)) as { thread: Thread }).thread;
const read = async (client: AppServerTestClient, threadId: string) => ((await client.request('thread/read', { threadId })) as { thread: Thread }).thread;
const listed = async (client: AppServerTestClient, threadId: string) => ((await client.request('thread/list', {})) as { data: Thread[] }).data.find((thread) => thread.id === threadId);

const UNKNOWN = '01a22c4e-0203-7f51-a38a-d99c4dbdd200';

describe('thread/metadata/update', () => {
  it('answers the thread as thread/read shows it, merges gitInfo field by field, and sends no notification', async () => {
    const { client } = await connect();
    const threadId = await startThread(client);
    expect((await read(client, threadId)).gitInfo).toBeNull();
    const from = client.notifications.length;

    const first = await update(client, { threadId, gitInfo: { sha: 'abc123', branch: ' main ' } });
    expect(first).toMatchObject({ id: threadId, gitInfo: { sha: 'abc123', branch: 'main', originUrl: null } });
    expect(first).toEqual(await read(client, threadId));
    // An omitted field is kept, null clears one, a string replaces one.
    expect((await update(client, { threadId, gitInfo: { branch: null, originUrl: 'https://example.com/r.git' } })).gitInfo).toEqual({ sha: 'abc123', branch: null, originUrl: 'https://example.com/r.git' });
    expect((await update(client, { threadId, daybreakEnabled: true })).daybreakEnabled).toBe(true);
    // An empty projectId clears the project, which a Skein thread never has.
    expect((await update(client, { threadId, projectId: '' })).gitInfo).toEqual({ sha: 'abc123', branch: null, originUrl: 'https://example.com/r.git' });
    expect((await listed(client, threadId))?.gitInfo).toEqual({ sha: 'abc123', branch: null, originUrl: 'https://example.com/r.git' });
    // Clearing every fact leaves no Git facts at all.
    expect((await update(client, { threadId, gitInfo: { sha: null, originUrl: null } })).gitInfo).toBeNull();
    expect(client.notifications.slice(from)).toEqual([]);
    expect(client.schemaFailures).toEqual([]);
  });

  it('keeps what it stored across a restart: thread/read, thread/list and thread/resume show it', async () => {
    const first = await connect();
    const threadId = await startThread(first.client);
    await update(first.client, { threadId, gitInfo: { sha: 'def456', branch: 'feature', originUrl: 'git@example.com:r.git' }, daybreakEnabled: false });
    await first.client.close();
    await first.server.close();

    const { client } = await connect();
    const expected = { gitInfo: { sha: 'def456', branch: 'feature', originUrl: 'git@example.com:r.git' }, daybreakEnabled: false };
    expect(await read(client, threadId)).toMatchObject(expected);
    expect(await listed(client, threadId)).toMatchObject(expected);
    const resumed = (await client.request('thread/resume', { threadId })) as { thread: Thread };
    expect(resumed.thread).toMatchObject(expected);
    expect(client.schemaFailures).toEqual([]);
  });

  it('refuses with Codex’s -32600s: no field (before looking the thread up), an unknown or ephemeral thread, a project, an empty gitInfo, an empty value', async () => {
    const { client } = await connect();
    const threadId = await startThread(client);
    const ephemeral = await startThread(client, { ephemeral: true });
    const refusals: [Record<string, unknown>, string][] = [
      [{ threadId: UNKNOWN }, 'thread metadata update must include at least one field'],
      [{ threadId, gitInfo: null, projectId: null }, 'thread metadata update must include at least one field'],
      [{ threadId: UNKNOWN, gitInfo: { sha: 'abc' } }, `thread not found: ${UNKNOWN}`],
      [{ threadId: ephemeral, gitInfo: { sha: 'abc' } }, `thread not found: ${ephemeral}`],
      [{ threadId, projectId: 'p1' }, 'project not found: p1'],
      [{ threadId, gitInfo: {} }, 'gitInfo must include at least one field'],
      [{ threadId, gitInfo: { sha: '  ' } }, 'gitInfo.sha must not be empty'],
      [{ threadId, gitInfo: { sha: 'abc', branch: '' } }, 'gitInfo.branch must not be empty'],
    ];
    for (const [params, message] of refusals) {
      expect(await client.requestReply('thread/metadata/update', params)).toEqual({ error: { code: -32600, message } });
    }
    // Nothing was stored by a refused update.
    expect((await read(client, threadId)).gitInfo).toBeNull();
  });
});
