// Thread goals against the mock model, as Codex 0.171.0 runs them (w1_goals_gpt55, and probed):
// get_goal / create_goal / update_goal with Codex's outputs, the `goal_objective` item after a goal
// is created, each response's tokens charged while the goal is active, a budget that runs out, the
// refusals the model reads, and a goal that survives a resume.
import { assistantMessage, completed, functionCall, sse, startMockResponsesServer, type CapturedRequest, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../src/index.js';
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
const goalThread = (overrides: readonly string[] = []) => startTestThread(workspace, { modelUrl: server.url, hostEnv: process.env, overrides: ['approval_policy="never"', 'model="gpt-5.5"', ...overrides] });
const outputOf = (request: CapturedRequest, callId: string) => request.body!.input.find((item) => item.type === 'function_call_output' && item.call_id === callId)?.['output'] as string;
const parsed = (request: CapturedRequest, callId: string) => JSON.parse(outputOf(request, callId)) as { goal: Record<string, unknown> | null; remainingTokens: number | null; completionBudgetReport: string | null };
const goalEvents = (events: readonly CoreEvent[]) => events.flatMap((event) => (event.type === 'goalUpdated' ? [event.goal.status] : []));

describe('thread goals', () => {
  it('offers the goal tools, creates a goal with the objective item after it, charges responses and completes it', async () => {
    server.expect([
      sse(functionCall('get_goal', {}, { callId: 'call_get' }), completed()),
      sse(functionCall('create_goal', { objective: 'Say hello to the user', token_budget: 5000 }, { callId: 'call_create' }), completed()),
      sse(functionCall('update_goal', { status: 'complete' }, { callId: 'call_update' }), completed()),
      sse(assistantMessage('Hello! The goal is complete.'), completed()),
    ]);
    const { thread, events } = await goalThread();
    await thread.runTurn(say('Set yourself the goal of saying hello, then mark it complete.'));
    const [first, second, third, fourth] = server.requests;
    // Codex's gpt-5.5 order: the goal tools after view_image.
    expect(first!.toolNames()).toEqual(['exec_command', 'write_stdin', 'request_user_input', 'apply_patch', 'view_image', 'get_goal', 'create_goal', 'update_goal', 'tool_search', 'web_search']);
    expect(first!.body!.tools!.find((tool) => (tool as { name?: string }).name === 'update_goal')).toMatchObject({
      parameters: { type: 'object', properties: { status: { type: 'string', enum: ['complete', 'blocked', 'paused'] } }, required: ['status'], additionalProperties: false },
    });
    expect(JSON.parse(outputOf(second!, 'call_get'))).toEqual({ goal: null, remainingTokens: null, completionBudgetReport: null });
    expect(parsed(third!, 'call_create')).toEqual({
      goal: { threadId: thread.threadId, objective: 'Say hello to the user', status: 'active', tokenBudget: 5000, tokensUsed: 0, timeUsedSeconds: expect.any(Number) as number, createdAt: expect.any(Number) as number, updatedAt: expect.any(Number) as number },
      remainingTokens: 5000,
      completionBudgetReport: null,
    });
    // The objective follows the create_goal output as an output no call asked for.
    const afterCreate = third!.body!.input.slice(third!.body!.input.findIndex((item) => item.type === 'function_call_output' && item.call_id === 'call_create') + 1);
    expect(afterCreate.map((item) => ({ ...item, id: undefined }))).toEqual([{ type: 'function_call_output', id: undefined, name: 'goal_objective', namespace: 'agent', output: 'Say hello to the user' }]);
    // The response that asked to complete it is charged (100 input + 10 output), as in Codex.
    const done = parsed(fourth!, 'call_update');
    expect(done.goal).toMatchObject({ status: 'complete', tokensUsed: 110, tokenBudget: 5000 });
    expect(done.remainingTokens).toBe(4890);
    expect(done.completionBudgetReport).toEqual(expect.stringContaining('110 of its 5000-token budget') as string);
    expect(goalEvents(events)).toEqual(['active', 'active', 'complete']);
    expect(thread.goals.goal).toMatchObject({ status: 'complete', tokensUsed: 110 });
  });

  it('refuses what Codex refuses: an empty objective, a bad budget, a second goal, a status the model may not set, an update without a goal', async () => {
    server.expect([
      sse(functionCall('update_goal', { status: 'complete' }, { callId: 'call_none' }), completed()),
      sse(functionCall('create_goal', { objective: '  ' }, { callId: 'call_empty' }), functionCall('create_goal', { objective: 'x', token_budget: -5 }, { callId: 'call_negative' }), functionCall('create_goal', { objective: 'x', token_budget: 1_000_001 }, { callId: 'call_huge' }), completed()),
      sse(functionCall('create_goal', { objective: 'First' }, { callId: 'call_first' }), completed()),
      sse(functionCall('create_goal', { objective: 'Second' }, { callId: 'call_second' }), functionCall('update_goal', { status: 'active' }, { callId: 'call_active' }), completed()),
      sse(assistantMessage('ok'), completed()),
    ]);
    const { thread } = await goalThread(['goals.max_goal_token_budget=1000000']);
    await thread.runTurn(say('go'));
    const [, second, third, , fifth] = server.requests;
    expect(outputOf(second!, 'call_none')).toContain('has no goal to update');
    expect(outputOf(third!, 'call_empty')).toBe('a goal objective cannot be empty');
    expect(outputOf(third!, 'call_negative')).toBe('a goal token budget must be a positive whole number of tokens');
    expect(outputOf(third!, 'call_huge')).toBe('a goal token budget may be at most 1000000 tokens ([goals] max_goal_token_budget)');
    expect(outputOf(fifth!, 'call_second')).toContain('already has a goal that is not complete');
    expect(outputOf(fifth!, 'call_active')).toContain('update_goal can set the status to complete, blocked, paused only');
    expect(thread.goals.goal).toMatchObject({ objective: 'First', status: 'active' });
  });

  it('limits a goal whose budget runs out', async () => {
    server.expect([
      sse(functionCall('create_goal', { objective: 'Count', token_budget: 200 }, { callId: 'call_create' }), completed()),
      sse(functionCall('get_goal', {}, { callId: 'call_one' }), completed()),
      sse(functionCall('get_goal', {}, { callId: 'call_two' }), completed()),
      sse(assistantMessage('out of budget'), completed()),
    ]);
    const { thread, events } = await goalThread();
    await thread.runTurn(say('go'));
    expect(parsed(server.requests[2]!, 'call_one').goal).toMatchObject({ status: 'active', tokensUsed: 110 });
    expect(parsed(server.requests[3]!, 'call_two')).toMatchObject({ goal: { status: 'budgetLimited', tokensUsed: 220 }, remainingTokens: 0 });
    expect(goalEvents(events)).toEqual(['active', 'active', 'budgetLimited']);
  });

  it('keeps the goal across a resume and a fork, and the resumed thread keeps charging it', async () => {
    server.expect([
      sse(functionCall('create_goal', { objective: 'Persist me' }, { callId: 'call_create' }), completed()),
      sse(assistantMessage('created'), completed()),
      sse(functionCall('get_goal', {}, { callId: 'call_after' }), completed()),
      sse(assistantMessage('still there'), completed()),
    ]);
    const opened = await goalThread();
    await opened.thread.runTurn(say('create'));
    await opened.thread.close();
    const manager = await opened.newManager();
    const resumed = await manager.resume(opened.thread.threadId, { onEvent: () => undefined });
    expect(resumed.goals.goal).toMatchObject({ threadId: opened.thread.threadId, objective: 'Persist me', status: 'active', tokensUsed: 110 });
    await resumed.runTurn(say('check'));
    expect(parsed(server.requests[3]!, 'call_after').goal).toMatchObject({ objective: 'Persist me', status: 'active', tokensUsed: 220 });
    await resumed.close();
    // A fork carries the goal with the history it copies, as its own.
    const forked = await manager.fork(opened.thread.threadId, { onEvent: () => undefined });
    expect(forked.goals.goal).toMatchObject({ threadId: forked.threadId, objective: 'Persist me', tokensUsed: 330 });
    await forked.close();
  });

  it('continues an active goal with turns of its own until its budget runs out, and gives way to a user turn', async () => {
    server.expect([
      sse(functionCall('create_goal', { objective: 'Keep counting', token_budget: 300 }, { callId: 'call_create' }), completed()),
      sse(assistantMessage('Started.'), completed()),
      // The first continuation: charged to 220, still active.
      sse(assistantMessage('Counting on.'), completed()),
      // The second: 330 ≥ 300, the budget is spent; no third.
      sse(assistantMessage('Still counting.'), completed()),
    ]);
    const { thread, events } = await startTestThread(workspace, { modelUrl: server.url, hostEnv: process.env, continueGoals: true, overrides: ['approval_policy="never"', 'model="gpt-5.5"'] });
    await thread.runTurn(say('count'));
    await expect.poll(() => thread.goals.goal?.status, { timeout: 10_000 }).toBe('budgetLimited');
    await expect.poll(() => events.filter((event) => event.type === 'turnCompleted').length).toBe(3);
    const continuation = server.requests[2]!;
    expect(JSON.parse(continuation.header('x-codex-turn-metadata') ?? '{}')).toMatchObject({ turn_trigger: 'goal' });
    expect(continuation.body!.input.at(-1)).toMatchObject({ role: 'user', content: [{ text: expect.stringContaining('- tokens used: 110\n- token budget: 300\n- tokens remaining: 190') as string }] });
    expect(thread.goals.goal).toMatchObject({ status: 'budgetLimited', tokensUsed: 330 });
  });

  it("stops a goal's turn for a turn the user starts", async () => {
    server.expect([
      sse(functionCall('create_goal', { objective: 'Wait' }, { callId: 'call_create' }), completed()),
      sse(assistantMessage('Started.'), completed()),
      // The goal's turn hangs in a command until the user's turn stops it.
      sse(functionCall('exec_command', { cmd: 'sleep 30' }, { callId: 'call_sleep' }), completed()),
      sse(functionCall('update_goal', { status: 'paused' }, { callId: 'call_pause' }), completed()),
      sse(assistantMessage('Paused for you.'), completed()),
    ]);
    const { thread, events } = await startTestThread(workspace, { modelUrl: server.url, hostEnv: process.env, continueGoals: true, overrides: ['approval_policy="never"', 'model="gpt-5.5"', 'sandbox_mode="danger-full-access"'] });
    await thread.runTurn(say('start'));
    await expect.poll(() => events.some((event) => event.type === 'commandStarted')).toBe(true);
    const outcome = await thread.runTurn(say('pause the goal'));
    expect(outcome).toMatchObject({ status: 'completed', lastAgentMessage: 'Paused for you.' });
    expect(events.filter((event) => event.type === 'turnAborted')).toHaveLength(1);
    expect(thread.goals.goal?.status).toBe('paused');
  });
});

