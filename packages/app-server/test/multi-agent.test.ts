// Multi-agent v2 over the app-server (Codex 0.171.0's v2 transcript, client side): on the parent,
// `subAgentActivity` items for the spawn and the sub-agent's end and a `collabAgentToolCall` for the
// wait; the sub-agent's own turn, item and status notifications under its thread id, with no
// `thread/started`; `thread/loaded/list` lists both, `thread/list` the root only. Every message is
// checked against Codex's schema by the test client.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { probeSandbox } from '@skein/sandboxing';
import { assistantMessage, completed, functionCall, probeSandboxForTests, routed, sse, type AppServerTestClient, type CapturedRequest } from '@skein/test-support';
import { describe, expect, it } from 'vitest';
import { useModelScenario } from './support/model-scenario.js';

const { skip: NO_SANDBOX } = await probeSandboxForTests(() => probeSandbox({ env: process.env }));

const scenario = useModelScenario();

/** A connected client over a home with multi-agent v2 on. */
async function connect(): Promise<AppServerTestClient> {
  scenario().configure({ after: '\n[features]\nmulti_agent_v2 = true\n' });
  return scenario().connect();
}

const isChild = (request: CapturedRequest) => request.header('x-openai-subagent') === 'collab_spawn';
const collab = (name: string, args: Record<string, unknown>, callId: string) => functionCall(name, args, { namespace: 'collaboration', callId });

interface Notification {
  readonly method: string;
  readonly params: Record<string, unknown>;
}

describe('multi-agent v2 over the app-server', () => {
  it('shows the spawn, the wait and the end on the parent, and the sub-agent as a thread of its own', async () => {
    const { model, home } = scenario();
    model.expect([
      sse(collab('spawn_agent', { task_name: 'worker', message: 'Reply with: hello from worker' }, 'call_spawn'), completed()),
      routed(isChild, sse(assistantMessage('hello from worker'), completed())),
      sse(collab('wait_agent', {}, 'call_wait'), completed()),
      sse(assistantMessage('The worker said hello.'), completed()),
    ]);
    const client = await connect();
    const started = (await client.request('thread/start', { cwd: home.workspace, approvalPolicy: 'never' })) as { thread: { id: string } };
    const rootId = started.thread.id;
    const turn = (await client.request('turn/start', { threadId: rootId, input: [{ type: 'text', text: 'Delegate a hello.', text_elements: [] }] })) as { turn: { id: string } };
    await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === turn.turn.id);

    const notifications = client.notifications as readonly Notification[];
    const items = (threadId: string, method: string) => notifications.filter((n) => n.method === method && n.params['threadId'] === threadId).map((n) => n.params['item'] as Record<string, unknown>);
    const spawned = items(rootId, 'item/completed').find((item) => item['type'] === 'subAgentActivity' && item['kind'] === 'started');
    expect(spawned).toMatchObject({ id: 'call_spawn', agentPath: '/root/worker', model: 'gpt-5.5' });
    const childId = spawned?.['agentThreadId'] as string;
    expect(childId).toMatch(/^[0-9a-f-]{36}$/);
    expect(items(rootId, 'item/completed').find((item) => item['type'] === 'collabAgentToolCall')).toMatchObject({ id: 'call_wait', tool: 'wait', status: 'completed', senderThreadId: rootId, receiverThreadIds: [], agentsStates: {} });

    // The sub-agent's turn, as any thread's, under its own id; its end shows on the parent.
    const childTurn = notifications.find((n) => n.method === 'turn/started' && n.params['threadId'] === childId)?.params['turn'] as { id: string } | undefined;
    expect(childTurn).toBeDefined();
    await client.waitFor('turn/completed', (params) => (params as { threadId: string }).threadId === childId);
    expect(items(childId, 'item/completed').map((item) => item['type'])).toEqual(['agentMessage']);
    expect(notifications.some((n) => n.method === 'thread/started' && (n.params['thread'] as { id: string }).id === childId)).toBe(false);
    expect(items(rootId, 'item/completed').find((item) => item['type'] === 'subAgentActivity' && item['kind'] === 'completed')).toMatchObject({
      id: `subagent-completed-${childTurn!.id}`,
      agentThreadId: childId,
      agentPath: '/root/worker',
    });

    const loaded = (await client.request('thread/loaded/list', {})) as { data: string[] };
    expect([...loaded.data].sort()).toEqual([rootId, childId].sort());
    const listed = (await client.request('thread/list', {})) as { data: { id: string }[] };
    expect(listed.data.map((thread) => thread.id)).toEqual([rootId]);
  });

  it.skipIf(NO_SANDBOX !== '')(`asks the client a sub-agent's approval under the sub-agent's thread id; it works in its parent's environment${NO_SANDBOX}`, async () => {
    const { model, home } = scenario();
    model.expect([
      sse(collab('spawn_agent', { task_name: 'maker', message: 'Make a file.' }, 'call_spawn'), completed()),
      routed((request: CapturedRequest) => isChild(request) && !JSON.stringify(request.body!.input).includes('call_touch'), sse(functionCall('exec_command', { cmd: 'touch made-by-child.txt' }, { callId: 'call_touch' }), completed())),
      routed((request: CapturedRequest) => isChild(request) && JSON.stringify(request.body!.input).includes('call_touch'), sse(assistantMessage('made'), completed())),
      sse(collab('wait_agent', {}, 'call_wait'), completed()),
      sse(assistantMessage('The file is made.'), completed()),
    ]);
    const client = await connect();
    const asked: { method: string; params: Record<string, unknown> }[] = [];
    client.onServerRequest((request) => {
      asked.push({ method: request.method, params: request.params as Record<string, unknown> });
      return { decision: 'accept' };
    });
    const started = (await client.request('thread/start', { cwd: home.workspace, approvalPolicy: 'untrusted' })) as { thread: { id: string } };
    const turn = (await client.request('turn/start', { threadId: started.thread.id, input: [{ type: 'text', text: 'Delegate.', text_elements: [] }] })) as { turn: { id: string } };
    await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === turn.turn.id);
    const spawned = client.notificationsOf('item/completed').map((params) => (params as { item: Record<string, unknown> }).item).find((item) => item['type'] === 'subAgentActivity');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ method: 'item/commandExecution/requestApproval', params: { threadId: spawned?.['agentThreadId'], itemId: 'call_touch', cwd: home.workspace } });
    expect(existsSync(path.join(home.workspace, 'made-by-child.txt'))).toBe(true);
  });

  it("keeps the client's multiAgentMode from thread/start, turn/start and thread/settings/update, and tells the model when it changes", async () => {
    const { model, home } = scenario();
    model.expect([sse(assistantMessage('a'), completed()), sse(assistantMessage('b'), completed())]);
    const client = await connect();
    const started = (await client.request('thread/start', { cwd: home.workspace, approvalPolicy: 'never', multiAgentMode: 'proactive' })) as { thread: { id: string }; multiAgentMode: unknown };
    expect(started.multiAgentMode).toBe('proactive');
    const threadId = started.thread.id;
    const run = async (params: Record<string, unknown>) => {
      const turn = (await client.request('turn/start', { threadId, input: [{ type: 'text', text: 'go', text_elements: [] }], ...params })) as { turn: { id: string } };
      await client.waitFor('turn/completed', (done) => (done as { turn: { id: string } }).turn.id === turn.turn.id);
    };
    await run({});
    await run({ multiAgentMode: { custom: 'Only for the tests.' } });
    const told = (index: number) => JSON.stringify(model.requests[index]!.body!.input).match(/<multi_agent_mode>/g)?.length ?? 0;
    expect(told(0)).toBe(1);
    expect(told(1)).toBe(2);
    expect(JSON.stringify(model.requests[1]!.body!.input)).toContain('Only for the tests.');
    const announced = client.waitFor('thread/settings/updated', (params) => JSON.stringify(params).includes('"multiAgentMode":"explicitRequestOnly"'));
    await client.request('thread/settings/update', { threadId, multiAgentMode: 'explicitRequestOnly' });
    await announced;
  });
});
