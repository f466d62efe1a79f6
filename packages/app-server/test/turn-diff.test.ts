// `turn/diff/updated` (issue #35), as Codex 0.171.0 sends it (probed with the same patch, byte for
// byte): after each applied patch, the turn's changes so far as one git-style diff, and once more as
// the turn ends, just before its status goes idle. A turn without patches sends none.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, customToolCall, mockProviderConfigToml, sse, startMockResponsesServer, type AppServerTestClient, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, runTurnToEnd, startInProcess, threadsOn, type InProcessServer, type TestHome } from './support/app-server-harness.js';

let model: MockResponsesServer;
let home: TestHome;
let server: InProcessServer;
let client: AppServerTestClient;

beforeEach(async () => {
  model = await startMockResponsesServer();
  home = makeHome(mockProviderConfigToml(model.url));
  server = await startInProcess(home, { threads: threadsOn(home) });
  client = await server.connect('stdio');
  await client.initialize({ capabilities: { experimentalApi: true } });
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

const DIFF = [
  'diff --git a/a.txt b/a.txt',
  'index 814f4a422927b82f5f8a43f8fab6d3839e3983f2..879de50b9a967adae6ab5fe536d4ef6e0af21bb1',
  '--- a/a.txt',
  '+++ b/a.txt',
  '@@ -1,2 +1,2 @@',
  ' one',
  '-two',
  '+TWO',
  'diff --git a/hello.txt b/hello.txt',
  'new file mode 100644',
  'index 0000000000000000000000000000000000000000..ce013625030ba8dba906f756967f9e9ca394464a',
  '--- /dev/null',
  '+++ b/hello.txt',
  '@@ -0,0 +1 @@',
  '+hello',
  '',
].join('\n');

describe('turn/diff/updated', () => {
  it('follows each applied patch with the turn’s diff, and repeats it as the turn ends', async () => {
    mkdirSync(home.workspace, { recursive: true });
    writeFileSync(path.join(home.workspace, 'a.txt'), 'one\ntwo\n');
    model.expect([
      sse(customToolCall('apply_patch', '*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-two\n+TWO\n*** End Patch\n', { callId: 'p1' }), completed()),
      sse(customToolCall('apply_patch', '*** Begin Patch\n*** Add File: hello.txt\n+hello\n*** End Patch\n', { callId: 'p2' }), completed()),
      sse(assistantMessage('Patched.'), completed()),
      sse(assistantMessage('Nothing to change.'), completed()),
    ]);
    const { thread } = (await client.request('thread/start', { cwd: home.workspace, approvalPolicy: 'never', sandbox: 'workspace-write' })) as { thread: { id: string } };
    await runTurnToEnd(client, thread.id, 'patch it');

    const diffs = client.notificationsOf('turn/diff/updated') as { threadId: string; turnId: string; diff: string }[];
    expect(diffs.map((note) => note.diff)).toEqual([DIFF.split('diff --git a/hello.txt')[0], DIFF, DIFF]);
    // Where they go: after each patch's item, and as the turn ends.
    const order = client.notifications
      .map((note) => (note.method === 'item/completed' ? `completed:${(note.params as { item: { type: string } }).item.type}` : note.method))
      .filter((method) => ['turn/diff/updated', 'completed:fileChange', 'completed:agentMessage', 'turn/completed', 'thread/readState/changed'].includes(method));
    expect(order).toEqual(['completed:fileChange', 'turn/diff/updated', 'completed:fileChange', 'turn/diff/updated', 'completed:agentMessage', 'turn/diff/updated', 'thread/readState/changed', 'turn/completed']);

    await runTurnToEnd(client, thread.id, 'anything else?');
    expect(client.notificationsOf('turn/diff/updated')).toHaveLength(3);
    expect(client.schemaFailures).toEqual([]);
  });
});
