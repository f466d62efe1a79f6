// `thread/start`'s `selectedCapabilityRoots` over JSON-RPC: parsed, handed to the thread's
// extensions when it starts, recorded with the thread, and handed to them again when a new server
// process resumes it; a malformed value is refused.
import { ExtensionRegistryBuilder, defineExtension, type SelectedCapabilityRoot } from '@skein/extension-api';
import { startMockResponsesServer, type AppServerTestClient, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, startInProcess, threadsOn, type InProcessServer, type TestHome } from './support/app-server-harness.js';

let model: MockResponsesServer;
let home: TestHome;
const servers: InProcessServer[] = [];
const clients: AppServerTestClient[] = [];

beforeEach(async () => {
  model = await startMockResponsesServer();
  home = makeHome();
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

/** Which hook saw which roots, in order. */
const seen: { readonly hook: string; readonly roots: readonly SelectedCapabilityRoot[] }[] = [];
const rootsWatcher = defineExtension({
  id: 'roots-watcher',
  lifecycle: {
    onThreadStart: ({ init }) => Promise.resolve(void seen.push({ hook: 'start', roots: init.selectedCapabilityRoots })),
    onThreadResume: ({ init }) => Promise.resolve(void seen.push({ hook: 'resume', roots: init.selectedCapabilityRoots })),
  },
});

async function connect(): Promise<{ server: InProcessServer; client: AppServerTestClient }> {
  const server = await startInProcess(home, { threads: threadsOn(home, new ExtensionRegistryBuilder().add(rootsWatcher).build()) });
  servers.push(server);
  const client = await server.connect('stdio');
  clients.push(client);
  await client.initialize();
  return { server, client };
}

describe('thread/start selectedCapabilityRoots', () => {
  it('reach the extensions on start, and again after another server resumes the thread', async () => {
    seen.splice(0);
    const roots = [{ id: 'team-skills', location: { type: 'environment', environmentId: 'local', path: home.workspace } }];
    const first = await connect();
    const started = (await first.client.request('thread/start', { cwd: home.workspace, selectedCapabilityRoots: roots })) as { thread: { id: string } };
    await first.client.close();
    await first.server.close();
    servers.splice(0);
    clients.splice(0);

    const second = await connect();
    await second.client.request('thread/resume', { threadId: started.thread.id });
    expect(seen).toEqual([
      { hook: 'start', roots },
      { hook: 'resume', roots },
    ]);
  });

  it('refuses a malformed root with an invalid-request error, starting nothing', async () => {
    seen.splice(0);
    const { client } = await connect();
    for (const bad of [
      [{ id: 'r', location: { type: 'environment', environmentId: 'local', path: 'relative/skills' } }],
      [{ id: 'r', location: { type: 'url', url: 'https://example.com' } }],
      [{ location: { type: 'environment', environmentId: 'local', path: '/skills' } }],
      'not a list',
    ]) {
      expect(await client.requestReply('thread/start', { cwd: home.workspace, selectedCapabilityRoots: bad })).toMatchObject({ error: { code: -32600 } });
    }
    expect(seen).toEqual([]);
  });
});
