// Nothing recorded is lost when an app-server dies with a tree of sub-agents at work (issue #36): the
// built server is SIGKILLed while three sub-agents wait on the model and their parent waits on them;
// a new server resumes the root, which brings the three back (loaded, each with its own file holding
// its task) as interrupted, and the root's model reads that in its next turn.
import { readFileSync } from 'node:fs';
import { assistantMessage, completed, functionCall, held, mockProviderConfigToml, routed, sse, startMockResponsesServer, type CapturedRequest, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, spawnStdioClient, type TestHome } from './support/app-server-harness.js';

let model: MockResponsesServer;
let home: TestHome;
let release: () => void = () => undefined;

beforeEach(async () => {
  model = await startMockResponsesServer();
  home = makeHome(`sandbox_mode = "danger-full-access"\napproval_policy = "never"\n${mockProviderConfigToml(model.url)}\n[features]\nmulti_agent_v2 = true\n`);
});
afterEach(async () => {
  release();
  try {
    await model.close();
  } finally {
    home.cleanup();
  }
});

const text = (value: string) => [{ type: 'text', text: value, text_elements: [] }];
const isChild = (request: CapturedRequest) => request.header('x-openai-subagent') === 'collab_spawn';
const NAMES = ['alpha', 'beta', 'gamma'] as const;

describe('a tree of sub-agents whose app-server was killed', () => {
  it('comes back whole with its root: each sub-agent loaded, its task kept, interrupted', { timeout: 60_000 }, async () => {
    const released = new Promise<void>((resolve) => (release = resolve));
    model.expect([
      sse(...NAMES.map((name) => functionCall('spawn_agent', { task_name: name, message: `Task ${name}.` }, { namespace: 'collaboration', callId: `call_${name}` })), completed()),
      ...NAMES.map(() => routed(isChild, held(sse(assistantMessage('never sent'), completed()), { before: 'start', until: released }))),
      sse(functionCall('wait_agent', { timeout_ms: 600_000 }, { namespace: 'collaboration', callId: 'call_wait' }), completed()),
    ]);
    const client = spawnStdioClient(home);
    await client.initialize();
    const { thread } = (await client.request('thread/start', { cwd: home.workspace })) as { thread: { id: string } };
    await client.request('turn/start', { threadId: thread.id, input: text('Delegate three tasks.') });
    // All three sub-agents wait on the model, and the parent on them.
    await expect.poll(() => model.requests.filter(isChild).length, { timeout: 15_000 }).toBe(3);
    await expect.poll(() => model.requests.filter((request) => !isChild(request)).length, { timeout: 15_000 }).toBe(2);
    const exited = new Promise((resolve) => client.process.once('exit', resolve));
    client.process.kill('SIGKILL');
    await exited;
    expect(client.schemaFailures).toEqual([]);

    model.expect([
      sse(functionCall('list_agents', {}, { namespace: 'collaboration', callId: 'call_list' }), completed()),
      sse(assistantMessage('They were cut short.'), completed()),
    ]);
    const next = spawnStdioClient(home);
    try {
      await next.initialize();
      await next.request('thread/resume', { threadId: thread.id });
      const loaded = (await next.request('thread/loaded/list', {})) as { data: string[] };
      expect(loaded.data).toHaveLength(4);
      const listed = (await next.request('thread/list', { sourceKinds: ['subAgentThreadSpawn'] })) as { data: { id: string; path: string }[] };
      expect(listed.data).toHaveLength(3);
      for (const child of listed.data) {
        expect(loaded.data).toContain(child.id);
        // Each sub-agent's file kept its task, as its model received it.
        expect(readFileSync(child.path, 'utf8')).toMatch(/Message Type: NEW_TASK\\nTask name: \/root\/(alpha|beta|gamma)/);
      }
      await next.request('turn/start', { threadId: thread.id, input: text('What happened?') });
      await next.waitFor('turn/completed', (params) => (params as { threadId: string }).threadId === thread.id);
    } finally {
      await next.close();
    }
    const [listRequest] = model.requests.filter((request) => !isChild(request)).slice(-1);
    const output = listRequest!.body!.input.find((item) => item.type === 'function_call_output' && item.call_id === 'call_list')?.output;
    expect(JSON.parse(String(output))).toEqual({
      agents: [
        { agent_name: '/root', agent_status: 'running' },
        ...NAMES.map((name) => ({ agent_name: `/root/${name}`, agent_status: 'interrupted' })),
      ],
    });
  });
});
