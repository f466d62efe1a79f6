// Thread goals over the app-server, as Codex 0.171.0 answers them: thread/goal/set → {goal}, then
// thread/goal/updated (turnId null); get; clear → {cleared}, then thread/goal/cleared; the model's
// changes and each charged response as thread/goal/updated under their turn; the refusals; and the
// goal a resuming client is told. Every message is checked against Codex's schema.
import { assistantMessage, completed, functionCall, sse, type AppServerTestClient } from '@skein/test-support';
import { describe, expect, it } from 'vitest';
import { useModelScenario } from './support/model-scenario.js';

const scenario = useModelScenario();
type Params = Record<string, unknown>;
const UNKNOWN_THREAD = '019a0000-0000-7000-8000-000000000000';

async function runTurn(client: AppServerTestClient, threadId: string, text: string): Promise<string> {
  const answer = (await client.request('turn/start', { threadId, input: [{ type: 'text', text, text_elements: [] }] })) as { turn: { id: string } };
  await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === answer.turn.id);
  return answer.turn.id;
}

describe('thread goals over the app-server', () => {
  it('sets a goal, which starts a turn of its own until the model completes it; then reads, pauses and clears it', async () => {
    const client = await scenario().connect();
    const threadId = await scenario().startThread(client, { model: 'gpt-5.5' });
    expect(await client.request('thread/goal/get', { threadId })).toEqual({ goal: null });
    scenario().model.expect([
      sse(functionCall('update_goal', { status: 'complete' }, { callId: 'call_done' }), completed()),
      sse(assistantMessage('The release is shipped.'), completed()),
    ]);

    const set = (await client.request('thread/goal/set', { threadId, objective: 'Ship the release', tokenBudget: 1000, origin: 'user' })) as { goal: Params };
    expect(set.goal).toEqual({ threadId, objective: 'Ship the release', status: 'active', tokenBudget: 1000, tokensUsed: 0, timeUsedSeconds: 0, createdAt: expect.any(Number) as number, updatedAt: expect.any(Number) as number });
    expect(await client.waitFor('thread/goal/updated')).toEqual({ threadId, turnId: null, goal: set.goal });
    // The goal's turn: no user message, turn_trigger "goal", the objective then the internal note.
    const done = (await client.waitFor('turn/completed')) as { turn: { id: string } };
    const [request] = scenario().model.requests;
    expect(JSON.parse(request!.header('x-codex-turn-metadata') ?? '{}')).toMatchObject({ turn_id: done.turn.id, turn_trigger: 'goal' });
    const tail = request!.body!.input.slice(-2);
    expect(tail[0]).toMatchObject({ type: 'function_call_output', name: 'goal_objective', namespace: 'agent', output: 'Ship the release' });
    expect(tail[1]).toMatchObject({ type: 'message', role: 'user', content: [{ type: 'input_text', text: expect.stringMatching(/^<codex_internal_context source="goal">\n[\s\S]*Budget:\n- tokens used: 0\n- token budget: 1000\n- tokens remaining: 1000\n<\/codex_internal_context>$/) as string }] });
    const items = client.notificationsOf('item/completed').map((params) => (params as { item: Params }).item['type']);
    expect(items).toEqual(['agentMessage']);
    const updates = client.notificationsOf('thread/goal/updated') as { turnId: string | null; goal: Params }[];
    expect(updates.map((update) => [update.turnId, update.goal['status']])).toEqual([[null, 'active'], [done.turn.id, 'active'], [done.turn.id, 'complete']]);

    // A paused goal starts nothing.
    const paused = (await client.request('thread/goal/set', { threadId, objective: 'Write the notes', status: 'paused' })) as { goal: Params };
    expect(paused.goal).toMatchObject({ objective: 'Write the notes', status: 'paused', tokenBudget: null, tokensUsed: 0 });
    expect(await client.request('thread/goal/get', { threadId })).toEqual({ goal: paused.goal });

    expect(await client.request('thread/goal/clear', { threadId })).toEqual({ cleared: true });
    expect(await client.waitFor('thread/goal/cleared')).toEqual({ threadId });
    expect(await client.request('thread/goal/clear', { threadId })).toEqual({ cleared: false });
    expect(await client.request('thread/goal/get', { threadId })).toEqual({ goal: null });
    expect(scenario().model.requests).toHaveLength(2);
  });

  it('refuses a goal without an objective, a bad budget, an unknown status, and an unknown thread', async () => {
    const client = await scenario().connect();
    const threadId = await scenario().startThread(client, { model: 'gpt-5.5' });
    expect(await client.requestReply('thread/goal/set', { threadId, status: 'active' })).toEqual({ error: { code: -32600, message: 'Invalid request: the thread has no goal: give an objective to set one' } });
    expect(await client.requestReply('thread/goal/set', { threadId, objective: 'x', tokenBudget: 0 })).toEqual({ error: { code: -32600, message: 'Invalid request: a goal token budget must be a positive whole number of tokens' } });
    const unknownStatus = (await client.requestReply('thread/goal/set', { threadId, objective: 'x', status: 'done' })) as { error: { code: number } };
    expect(unknownStatus.error.code).toBe(-32600);
    expect(await client.requestReply('thread/goal/get', { threadId: UNKNOWN_THREAD })).toEqual({ error: { code: -32600, message: `thread not found: ${UNKNOWN_THREAD}` } });
    // Nothing was kept of the refused requests.
    expect(await client.request('thread/goal/get', { threadId })).toEqual({ goal: null });
  });

  it("announces the model's goal and each charge under its turn, and tells a resuming client the goal", async () => {
    const server = await scenario().startServer();
    const client = await scenario().connectTo(server);
    const threadId = await scenario().startThread(client, { model: 'gpt-5.5' });
    scenario().model.expect([
      sse(functionCall('create_goal', { objective: 'Say hello', token_budget: 5000 }, { callId: 'call_create' }), completed()),
      sse(assistantMessage('Working on it.'), completed()),
      // The goal is still active when the turn ends: its own turn follows, and pauses it.
      sse(functionCall('update_goal', { status: 'paused' }, { callId: 'call_pause' }), completed()),
      sse(assistantMessage('Paused.'), completed()),
    ]);
    const turnId = await runTurn(client, threadId, 'Set a goal.');
    const goalTurn = (await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id !== turnId)) as { turn: { id: string } };
    const updates = client.notificationsOf('thread/goal/updated') as { turnId: string | null; goal: Params }[];
    expect(updates.map((update) => [update.turnId, update.goal['status'], update.goal['tokensUsed']])).toEqual([
      [turnId, 'active', 0],
      [turnId, 'active', 110],
      [goalTurn.turn.id, 'active', 220],
      [goalTurn.turn.id, 'paused', 220],
    ]);
    // Goal tools are not items: each turn shows its message only (the goal's turn has no user message).
    const items = client.notificationsOf('item/completed').map((params) => (params as { item: Params }).item['type']);
    expect(items).toEqual(['userMessage', 'agentMessage', 'agentMessage']);

    const other = await scenario().connectTo(server);
    await other.request('thread/resume', { threadId });
    expect(await other.waitFor('thread/goal/updated')).toMatchObject({ threadId, turnId: null, goal: { objective: 'Say hello', status: 'paused', tokensUsed: 220, tokenBudget: 5000 } });
  });
});
