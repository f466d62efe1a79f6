// Multi-agent v2 against the mock model, as Codex 0.171.0's v1 transcript shows it for gpt-5.5 with
// `multi_agent_v2` on: the collaboration namespace, a sub-agent that is a real thread of the same
// registry (its own id and rollout, the root's session, its task as a NEW_TASK envelope), its final
// answer delivered to the parent after wait_agent, list_agents, and the refusals the model reads.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { assistantMessage, completed, functionCall, held, httpError, routed, sse, startMockResponsesServer, type CapturedRequest, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rolloutBudgetText } from '../src/budgets/rollout-budget.js';
import { createTestWorkspace, startTestThread, type TestWorkspace } from '../src/testing/index.js';

let server: MockResponsesServer;
let workspace: TestWorkspace;

beforeEach(async () => {
  server = await startMockResponsesServer();
  workspace = createTestWorkspace();
});
afterEach(async () => {
  await workspace.close();
  await server.close();
});

const say = (text: string) => [{ type: 'text' as const, text, text_elements: [] }];
const collab = (name: string, args: Record<string, unknown>, callId: string) => functionCall(name, args, { namespace: 'collaboration', callId });
const isChild = (request: CapturedRequest) => request.header('x-openai-subagent') === 'collab_spawn';
const turnMetadata = (request: CapturedRequest) => JSON.parse(request.header('x-codex-turn-metadata') ?? '{}') as Record<string, unknown>;
const outputOf = (request: CapturedRequest, callId: string) => request.body!.input.find((item) => item.type === 'function_call_output' && item.call_id === callId)?.output;

async function rootThread(overrides: readonly string[] = []) {
  return startTestThread(workspace, { modelUrl: server.url, hostEnv: process.env, overrides: ['approval_policy="never"', 'features.multi_agent_v2=true', ...overrides] });
}

describe('multi-agent v2', () => {
  it('spawns a sub-agent thread with its task as a NEW_TASK envelope, waits for it, and reads its FINAL_ANSWER and status', async () => {
    server.expect([
      sse(collab('spawn_agent', { task_name: 'worker', message: 'Reply with: hello from worker', fork_turns: 'none' }, 'call_spawn'), completed()),
      routed(isChild, sse(assistantMessage('hello from worker'), completed())),
      sse(collab('wait_agent', { timeout_ms: 30000 }, 'call_wait'), completed()),
      sse(collab('list_agents', {}, 'call_list'), completed()),
      sse(assistantMessage('The worker said: hello from worker.'), completed()),
    ]);
    const { thread, events, manager } = await rootThread();
    const outcome = await thread.runTurn(say('Spawn a sub-agent named worker that says hello, wait for it, list the agents, then report.'));
    expect(outcome).toMatchObject({ status: 'completed', lastAgentMessage: 'The worker said: hello from worker.' });

    const rootRequests = server.requests.filter((request) => !isChild(request));
    const [child] = server.requests.filter(isChild);
    // The namespace, after the built-in tools, with Codex's tool names in its order.
    const namespace = rootRequests[0]!.body!.tools?.find((tool) => tool.type === 'namespace') as { name: string; tools: { name: string }[] } | undefined;
    expect(namespace?.name).toBe('collaboration');
    expect(namespace?.tools.map((tool) => tool.name)).toEqual(['followup_task', 'interrupt_agent', 'list_agents', 'send_message', 'spawn_agent', 'wait_agent']);
    expect(outputOf(rootRequests[1]!, 'call_spawn')).toBe('{"task_name":"/root/worker"}');
    // Codex's context order: the base instructions, the policy message, the role (bare for gpt-5.5), the mode, then the user's context.
    const developer = (request: CapturedRequest) => request.body!.input.filter((item) => item.type === 'message' && item.role === 'developer').map((item) => JSON.stringify(item.content));
    const [, , rootRole, rootMode] = developer(rootRequests[0]!);
    expect(rootRole).toContain('root agent of this session, at path /root');
    expect(rootRole).not.toContain('<multi_agent_role>');
    expect(rootMode).toMatch(/^\[\{"type":"input_text","text":"<multi_agent_mode>.*<\/multi_agent_mode>"\}\]$/);

    // The child: its own thread in the root's session, no user message, its task as the last item, no collaboration tools.
    expect(child).toBeDefined();
    expect(child!.header('session-id')).toBe(thread.threadId);
    expect(child!.header('thread-id')).not.toBe(thread.threadId);
    expect(child!.header('x-codex-parent-thread-id')).toBe(thread.threadId);
    const rootTurnId = turnMetadata(rootRequests[0]!)['turn_id'];
    expect(turnMetadata(rootRequests[0]!)).toMatchObject({ agent_name: '/root', thread_source: 'user' });
    expect(turnMetadata(child!)).toMatchObject({ agent_name: '/root/worker', parent_thread_id: thread.threadId, parent_turn_id: rootTurnId, root_turn_id: rootTurnId, subagent_kind: 'thread_spawn', thread_source: 'subagent' });
    const childInput = child!.body!.input;
    const envelope = childInput.at(-1);
    expect(envelope?.id).toMatch(/^amsg_/);
    expect({ ...envelope, id: 'amsg' }).toEqual({
      type: 'agent_message',
      id: 'amsg',
      author: '/root',
      recipient: '/root/worker',
      content: [
        { type: 'input_text', text: 'Message Type: NEW_TASK\nTask name: /root/worker\nSender: /root\nPayload:\n' },
        { type: 'encrypted_content', encrypted_content: 'Reply with: hello from worker' },
      ],
    });
    expect(childInput.some((item) => item.type === 'message' && item.role === 'user' && JSON.stringify(item).includes('Spawn a sub-agent'))).toBe(false);
    expect(child!.toolNames({ qualified: true })).not.toContain('collaboration.spawn_agent');
    const [, , childRole, childMode] = developer(child!);
    expect(childRole).toContain('sub-agent at path /root/worker, started by /root');
    expect(childMode).toContain('<multi_agent_mode>');

    // The parent: the wait's output, then the child's answer as a FINAL_ANSWER envelope.
    const afterWait = rootRequests[2]!.body!.input;
    const waited = afterWait.findIndex((item) => item.type === 'function_call_output' && item.call_id === 'call_wait');
    expect(afterWait[waited]?.output).toBe('{"message":"Wait completed.","timed_out":false}');
    expect(afterWait[waited + 1]).toMatchObject({
      type: 'agent_message',
      author: '/root/worker',
      recipient: '/root',
      content: [{ type: 'input_text', text: 'Message Type: FINAL_ANSWER\nTask name: /root\nSender: /root/worker\nPayload:\nhello from worker' }],
    });
    expect(outputOf(rootRequests[3]!, 'call_list')).toBe('{"agents":[{"agent_name":"/root","agent_status":"running"},{"agent_name":"/root/worker","agent_status":{"completed":"hello from worker"}}]}');

    // wait_agent shows as an item of its own.
    const waits = events.flatMap((event) => (event.type === 'turnItem' && event.item.kind === 'collabAgentToolCall' ? [`${event.phase}:${event.item.status}`] : []));
    expect(waits).toEqual(['started:inProgress', 'completed:completed']);

    // The child wrote its own rollout: the root's session, a sub-agent source.
    const childThread = manager.loaded().find((handle) => handle.threadId !== thread.threadId);
    expect(childThread?.sessionId).toBe(thread.threadId);
    const meta = JSON.parse(readFileSync(childThread!.path!, 'utf8').split('\n')[0]!) as { payload: Record<string, unknown> };
    expect(meta.payload).toMatchObject({
      session_id: thread.threadId,
      parent_thread_id: thread.threadId,
      thread_source: 'subagent',
      agent_path: '/root/worker',
      multi_agent_version: 'v2',
      source: { subagent: { thread_spawn: { parent_thread_id: thread.threadId, depth: 1, agent_path: '/root/worker', agent_role: null } } },
    });
    const nickname = (meta.payload as { agent_nickname?: unknown }).agent_nickname;
    expect(nickname).toMatch(/^[A-Z][a-z]+$/);
    expect((meta.payload as { source: { subagent: { thread_spawn: { agent_nickname: unknown } } } }).source.subagent.thread_spawn.agent_nickname).toBe(nickname);
    // Each agent message follows Codex's marker: the task started the sub-agent's turn; the answer did not start the parent's.
    const lines = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; payload: { type?: string; trigger_turn?: boolean } });
    const childLines = lines(childThread!.path!);
    const task = childLines.findIndex((line) => line.type === 'response_item' && line.payload.type === 'agent_message');
    expect(childLines[task - 1]).toMatchObject({ type: 'inter_agent_communication_metadata', payload: { trigger_turn: true } });
    // The task names the call that sent it.
    expect(childLines[task]).toMatchObject({ payload: { metadata: { source_call_id: 'call_spawn' } } });
    const rootLines = lines(thread.path!);
    const answer = rootLines.findIndex((line) => line.type === 'response_item' && line.payload.type === 'agent_message');
    expect(rootLines[answer - 1]).toMatchObject({ type: 'inter_agent_communication_metadata', payload: { trigger_turn: false } });
  });

  it('reports a sub-agent whose model fails as errored, with a notification the parent reads, and the parent turn completes', async () => {
    server.expect([
      sse(collab('spawn_agent', { task_name: 'flaky', message: 'Do the thing.' }, 'call_spawn'), completed()),
      routed(isChild, httpError(500)),
      sse(collab('wait_agent', {}, 'call_wait'), completed()),
      sse(collab('list_agents', { path_prefix: '/root/flaky' }, 'call_list'), completed()),
      sse(assistantMessage('The sub-agent failed.'), completed()),
    ]);
    const { thread } = await rootThread();
    expect(await thread.runTurn(say('Delegate.'))).toMatchObject({ status: 'completed' });
    const rootRequests = server.requests.filter((request) => !isChild(request));
    const notification = JSON.stringify(rootRequests[2]!.body!.input.at(-1));
    expect(notification).toContain('<subagent_notification>');
    expect(notification).toContain('/root/flaky');
    expect(notification).toContain('errored');
    const listed = JSON.parse(String(outputOf(rootRequests[3]!, 'call_list'))) as { agents: { agent_name: string; agent_status: unknown }[] };
    expect(listed.agents).toHaveLength(1);
    expect(listed.agents[0]?.agent_name).toBe('/root/flaky');
    expect(typeof (listed.agents[0]?.agent_status as { errored?: unknown }).errored).toBe('string');
  });

  it('refuses bad requests with errors the model reads: a bad task_name, a duplicate, an unknown target, a wait out of bounds, a message to a finished agent', async () => {
    server.expect([
      sse(
        collab('spawn_agent', { task_name: 'Bad Name', message: 'x' }, 'call_bad'),
        collab('send_message', { target: 'nobody', message: 'hi' }, 'call_unknown'),
        collab('wait_agent', { timeout_ms: 5 }, 'call_short'),
        collab('spawn_agent', { task_name: 'helper', message: 'Say done.' }, 'call_ok'),
        collab('spawn_agent', { task_name: 'helper', message: 'Again.' }, 'call_dup'),
        completed(),
      ),
      routed(isChild, sse(assistantMessage('done'), completed())),
      sse(collab('wait_agent', {}, 'call_wait'), completed()),
      sse(collab('send_message', { target: 'helper', message: 'more?' }, 'call_finished'), completed()),
      sse(assistantMessage('Handled.'), completed()),
    ]);
    const { thread } = await rootThread();
    expect(await thread.runTurn(say('Try things.'))).toMatchObject({ status: 'completed' });
    const rootRequests = server.requests.filter((request) => !isChild(request));
    const second = rootRequests[1]!;
    expect(String(outputOf(second, 'call_bad'))).toMatch(/task_name must be lower-case letters, digits and underscores/);
    expect(String(outputOf(second, 'call_unknown'))).toMatch(/no agent named "nobody"/);
    expect(String(outputOf(second, 'call_short'))).toMatch(/timeout_ms must be at least 10000/);
    expect(outputOf(second, 'call_ok')).toBe('{"task_name":"/root/helper"}');
    expect(String(outputOf(second, 'call_dup'))).toMatch(/\/root\/helper already exists/);
    expect(String(outputOf(rootRequests[3]!, 'call_finished'))).toMatch(/is not working .*followup_task/);
  });

  it('interrupting the parent interrupts its working sub-agent; the parent hears of it at its next turn', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    server.expect([
      sse(collab('spawn_agent', { task_name: 'slow', message: 'Take your time.' }, 'call_spawn'), completed()),
      routed(isChild, held(sse(assistantMessage('too late'), completed()), { before: 'start', until: released })),
      sse(collab('wait_agent', { timeout_ms: 60000 }, 'call_wait'), completed()),
      sse(collab('list_agents', {}, 'call_list'), completed()),
      sse(assistantMessage('It was stopped.'), completed()),
    ]);
    const { thread, events } = await rootThread();
    const turn = thread.runTurn(say('Delegate slowly.'));
    // Interrupt once the parent waits on its sub-agent and the sub-agent waits on the model.
    const until = async (done: () => boolean) => {
      while (!done()) await new Promise((resolve) => setTimeout(resolve, 10));
    };
    await until(() => server.requests.some(isChild) && events.some((event) => event.type === 'turnItem' && event.item.kind === 'collabAgentToolCall'));
    thread.interrupt();
    expect(await turn).toMatchObject({ status: 'interrupted' });
    // The sub-agent's turn ends on its own schedule (the parent's clients are told); its notification waits for the parent's next request.
    await until(() => events.some((event) => event.type === 'turnItem' && event.item.kind === 'subAgentActivity' && event.item.activity === 'interrupted'));
    release();
    expect(await thread.runTurn(say('What happened?'))).toMatchObject({ status: 'completed' });
    const rootRequests = server.requests.filter((request) => !isChild(request));
    const heard = JSON.stringify(rootRequests[2]!.body!.input);
    expect(heard).toContain('<subagent_notification>');
    expect(heard).toContain('\\"status\\":\\"interrupted\\"');
    expect(outputOf(rootRequests[3]!, 'call_list')).toBe('{"agents":[{"agent_name":"/root","agent_status":"running"},{"agent_name":"/root/slow","agent_status":"interrupted"}]}');
  });

  it('refuses a spawn past the agents working at once, and a sub-agent spawning past [agents] max_depth', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const spawn = (name: string) => collab('spawn_agent', { task_name: name, message: `Task ${name}.` }, `call_${name}`);
    // gpt-6.2-sol is trained on v2: its sub-agents keep the collaboration tools (and try to nest).
    const child = (name: string) =>
      routed(
        (request: CapturedRequest) => isChild(request) && JSON.stringify(request.body!.input).includes(`Task ${name}.`) && !JSON.stringify(request.body!.input).includes('call_nested'),
        held(sse(collab('spawn_agent', { task_name: 'nested', message: 'Deeper.' }, 'call_nested'), completed()), { before: 'start', until: released }),
      );
    const after = (name: string) => routed((request: CapturedRequest) => isChild(request) && JSON.stringify(request.body!.input).includes(`Task ${name}.`) && JSON.stringify(request.body!.input).includes('call_nested'), sse(assistantMessage(`${name} done`), completed()));
    server.expect([
      sse(spawn('a'), spawn('b'), spawn('c'), spawn('d'), spawn('e'), completed()),
      ...['a', 'b', 'c', 'd'].flatMap((name) => [child(name), after(name)]),
      sse(assistantMessage('Four at once.'), completed()),
    ]);
    const { thread, manager } = await rootThread(['model="gpt-6.2-sol"']);
    const outcome = thread.runTurn(say('Spawn five.'));
    const rootRequest = async () => {
      while (server.requests.filter((request) => !isChild(request)).length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
      return server.requests.filter((request) => !isChild(request))[1]!;
    };
    const second = await rootRequest();
    for (const name of ['a', 'b', 'c', 'd']) expect(outputOf(second, `call_${name}`)).toBe(`{"task_name":"/root/${name}"}`);
    expect(String(outputOf(second, 'call_e'))).toMatch(/cannot spawn \/root\/e: 4 agents are already working/);
    expect(await outcome).toMatchObject({ status: 'completed' });
    release();
    // Each sub-agent tries to nest one level deeper and reads why it may not.
    while (server.requests.filter((request) => isChild(request) && JSON.stringify(request.body!.input).includes('call_nested')).length < 4) await new Promise((resolve) => setTimeout(resolve, 10));
    const nested = server.requests.find((request) => isChild(request) && JSON.stringify(request.body!.input).includes('call_nested'))!;
    expect(String(outputOf(nested, 'call_nested'))).toMatch(/agents may be nested 1 level\(s\) deep \(\[agents\] max_depth\)/);
    expect(nested.toolNames({ qualified: true })).toContain('collaboration.spawn_agent');
    // Let the sub-agents finish before the registry closes.
    while (manager.loaded().some((handle) => handle.activeTurnId !== undefined)) await new Promise((resolve) => setTimeout(resolve, 10));
  });

  it('brings a tree back with its root in a new registry: the sub-agent keeps its session, path, status and history, and takes a follow-up', async () => {
    server.expect([
      sse(collab('spawn_agent', { task_name: 'worker', message: 'Say one.' }, 'call_spawn'), completed()),
      routed(isChild, sse(assistantMessage('one'), completed())),
      sse(collab('wait_agent', {}, 'call_wait'), completed()),
      sse(assistantMessage('It said one.'), completed()),
    ]);
    const first = await rootThread();
    await first.thread.runTurn(say('Delegate.'));
    const rootId = first.thread.threadId;
    const childId = first.manager.loaded().find((handle) => handle.threadId !== rootId)!.threadId;
    await first.manager.closeAll();

    server.expect([
      sse(collab('list_agents', {}, 'call_list'), collab('followup_task', { target: 'worker', message: 'Now say two.' }, 'call_follow'), completed()),
      routed(isChild, sse(assistantMessage('two'), completed())),
      sse(collab('wait_agent', {}, 'call_wait2'), completed()),
      sse(assistantMessage('It said two.'), completed()),
    ]);
    const manager = await first.newManager();
    const events: unknown[] = [];
    const root = await manager.resume(rootId, { onEvent: (event) => events.push(event) });
    expect(manager.loaded().map((handle) => handle.threadId).sort()).toEqual([rootId, childId].sort());
    expect(manager.get(childId)?.sessionId).toBe(rootId);
    expect(await root.runTurn(say('Again.'))).toMatchObject({ status: 'completed' });

    const later = server.requests.slice(4);
    const rootRequests = later.filter((request) => !isChild(request));
    expect(outputOf(rootRequests[1]!, 'call_list')).toBe('{"agents":[{"agent_name":"/root","agent_status":"running"},{"agent_name":"/root/worker","agent_status":{"completed":"one"}}]}');
    expect(outputOf(rootRequests[1]!, 'call_follow')).toBe('');
    const [child] = later.filter(isChild);
    expect(child!.header('session-id')).toBe(rootId);
    expect(child!.header('thread-id')).toBe(childId);
    expect(turnMetadata(child!)).toMatchObject({ agent_name: '/root/worker', parent_thread_id: rootId, thread_source: 'subagent' });
    // Its history: the first task and answer, then the follow-up as a new task.
    const texts = JSON.stringify(child!.body!.input);
    expect(texts.indexOf('Say one.')).toBeLessThan(texts.indexOf('Now say two.'));
    expect(child!.body!.input.at(-1)).toMatchObject({ type: 'agent_message', author: '/root', recipient: '/root/worker' });
    expect(JSON.stringify(rootRequests[2]!.body!.input.at(-1))).toContain('Message Type: FINAL_ANSWER\\nTask name: /root\\nSender: /root/worker\\nPayload:\\ntwo');
  });

  it('tells the delegation mode in the initial context, again only when it changes, and keeps it across a resume', async () => {
    server.expect([sse(assistantMessage('a'), completed()), sse(assistantMessage('b'), completed()), sse(assistantMessage('c'), completed()), sse(assistantMessage('d'), completed())]);
    const started = await rootThread();
    const { thread, manager } = started;
    const modes = (request: CapturedRequest) => request.body!.input.flatMap((item) => (item.type === 'message' && item.role === 'developer' ? [JSON.stringify(item.content)] : [])).filter((text) => text.includes('<multi_agent_mode>'));
    thread.setMultiAgentMode('proactive');
    await thread.runTurn(say('one'));
    await thread.runTurn(say('two'));
    thread.setMultiAgentMode({ custom: 'Delegate only test runs.' });
    await thread.runTurn(say('three'));
    expect(modes(server.requests[0]!)).toHaveLength(1);
    expect(modes(server.requests[0]!)[0]).toContain('Delegation mode: proactive');
    expect(modes(server.requests[1]!)).toHaveLength(1);
    expect(modes(server.requests[2]!)).toHaveLength(2);
    expect(modes(server.requests[2]!)[1]).toContain('Delegate only test runs.');
    await manager.closeAll();
    const resumed = await (await started.newManager()).resume(thread.threadId, { onEvent: () => undefined });
    expect(resumed.multiAgentMode).toEqual({ custom: 'Delegate only test runs.' });
    await resumed.runTurn(say('four'));
    expect(modes(server.requests[3]!)).toHaveLength(2);
  });

  it('starts a sub-agent with fork_turns "all" on a copy of the finished turns, without the parent\'s context or the spawning turn', async () => {
    server.expect([
      sse(assistantMessage('Noted.'), completed()),
      sse(collab('spawn_agent', { task_name: 'recall', message: 'What is the code word?', fork_turns: 'all' }, 'call_spawn'), completed()),
      routed(isChild, sse(assistantMessage('banana'), completed())),
      sse(collab('wait_agent', {}, 'call_wait'), completed()),
      sse(assistantMessage('It remembered.'), completed()),
    ]);
    const { thread } = await rootThread();
    await thread.runTurn(say('Remember the code word: banana.'));
    await thread.runTurn(say('Ask a forked sub-agent for the code word.'));
    const [child] = server.requests.filter(isChild);
    const input = JSON.stringify(child!.body!.input);
    expect(input).toContain('Remember the code word: banana.');
    expect(input).toContain('Noted.');
    expect(input).not.toContain('Ask a forked sub-agent');
    expect(input).not.toContain('call_spawn');
    expect(input).not.toContain('root agent of this session');
    expect(input).toContain('sub-agent at path /root/recall');
    expect(input.indexOf('Remember the code word')).toBeLessThan(input.indexOf('Message Type: NEW_TASK'));
    // The parent's environment context is not copied: the sub-agent has its own, once.
    expect(input.match(/<environment_context>/g)).toHaveLength(1);
  });

  it('stops a sub-agent turn that runs past [agents] job_max_runtime_seconds and reports it errored', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    server.expect([
      sse(collab('spawn_agent', { task_name: 'slow', message: 'Never finish.' }, 'call_spawn'), completed()),
      routed(isChild, held(sse(assistantMessage('too late'), completed()), { before: 'start', until: released })),
      sse(collab('wait_agent', { timeout_ms: 60000 }, 'call_wait'), completed()),
      sse(assistantMessage('It ran out of time.'), completed()),
    ]);
    const { thread } = await rootThread(['agents.job_max_runtime_seconds=1']);
    expect(await thread.runTurn(say('Delegate.'))).toMatchObject({ status: 'completed' });
    release();
    const rootRequests = server.requests.filter((request) => !isChild(request));
    const heard = JSON.stringify(rootRequests[2]!.body!.input.at(-1));
    expect(heard).toContain('<subagent_notification>');
    expect(heard).toContain('ran longer than 1 s ([agents] job_max_runtime_seconds)');
  });

  it('charges a sub-agent\'s tokens to the one rollout budget of its session', async () => {
    const usage = (outputTokens: number) => ({ usage: { inputTokens: 0, outputTokens } });
    server.expect([
      sse(collab('spawn_agent', { task_name: 'spender', message: 'Spend.' }, 'call_spawn'), completed(usage(10))),
      routed(isChild, sse(assistantMessage('spent'), completed(usage(1_000)))),
      sse(collab('wait_agent', {}, 'call_wait'), completed(usage(10))),
      sse(assistantMessage('Done.'), completed(usage(10))),
    ]);
    const { thread } = await rootThread(['features.rollout_budget.enabled=true', 'features.rollout_budget.limit_tokens=10000', 'features.rollout_budget.reminder_interval_tokens=100', 'features.rollout_budget.prefill_token_weight=0']);
    await thread.runTurn(say('Delegate.'));
    const rootRequests = server.requests.filter((request) => !isChild(request));
    // After the wait the root is told what the session has left: its own 20 tokens and the sub-agent's 1,000 spent.
    expect(JSON.stringify(rootRequests[2]!.body!.input)).toContain(JSON.stringify(rolloutBudgetText(8_980)).slice(1, -1));
  });

  it('gives each agent of a tree its own token-budget lineage: a sub-agent\'s context windows are its own', async () => {
    server.expect([
      sse(collab('spawn_agent', { task_name: 'worker', message: 'Work.' }, 'call_spawn'), completed()),
      routed(isChild, sse(assistantMessage('done'), completed())),
      sse(collab('wait_agent', {}, 'call_wait'), completed()),
      sse(assistantMessage('Done.'), completed()),
    ]);
    const { thread, manager } = await rootThread(['features.token_budget.enabled=true']);
    await thread.runTurn(say('Delegate.'));
    const childId = manager.loaded().find((handle) => handle.threadId !== thread.threadId)!.threadId;
    const lineage = (request: CapturedRequest) => request.body!.input.flatMap((item) => (item.type === 'message' && item.role === 'developer' ? [JSON.stringify(item.content)] : [])).find((text) => text.includes('Thread id: '));
    const [child] = server.requests.filter(isChild);
    expect(lineage(server.requests[0]!)).toContain(`Thread id: ${thread.threadId}\\nFirst context window id: ${thread.threadId}`);
    expect(lineage(child!)).toContain(`Thread id: ${childId}\\nFirst context window id: ${childId}`);
  });

  it("records a sub-agent's git facts as its parent's header has them (taken from the parent: the bench shows the saving)", async () => {
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: workspace.workspace, env: { PATH: process.env.PATH, HOME: workspace.home } });
    git('init', '-q', '-b', 'main');
    git('commit', '-q', '--allow-empty', '-m', 'start');
    server.expect([
      sse(collab('spawn_agent', { task_name: 'worker', message: 'Work.' }, 'call_spawn'), completed()),
      routed(isChild, sse(assistantMessage('done'), completed())),
      sse(collab('wait_agent', {}, 'call_wait'), completed()),
      sse(assistantMessage('Done.'), completed()),
    ]);
    const { thread, manager } = await rootThread();
    await thread.runTurn(say('Delegate.'));
    const child = manager.loaded().find((handle) => handle.threadId !== thread.threadId)!;
    const header = (file: string) => (JSON.parse(readFileSync(file, 'utf8').split('\n')[0]!) as { payload: { git?: { branch?: string; commit_hash?: string } } }).payload.git;
    expect(header(thread.path!)).toMatchObject({ branch: 'main' });
    expect(header(child.path!)).toEqual(header(thread.path!));
  });

  it('offers no collaboration tools without the feature on gpt-5.5', async () => {
    server.expect([sse(assistantMessage('Hi.'), completed())]);
    const { thread } = await startTestThread(workspace, { modelUrl: server.url, hostEnv: process.env });
    await thread.runTurn(say('hello'));
    expect(server.requests[0]!.toolNames({ qualified: true })).not.toContain('collaboration.spawn_agent');
    expect(turnMetadata(server.requests[0]!)['agent_name']).toBe('/root');
  });
});
