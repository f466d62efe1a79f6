// The rollout budget end to end against the mock model: the weighted charge, the ledger two threads
// of one session share, the reminders (each window's first request, each interval, after a
// compaction) and exhaustion stopping turns. Real config, store and rollout files; only the model is scripted.
import { assistantMessage, completed, functionCall, sse, startMockResponsesServer, type CapturedRequest, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { rolloutBudgetText } from '../src/budgets/rollout-budget.js';
import { BUDGET_EXHAUSTED_MESSAGE, UNDISPATCHED_OUTPUT } from '../src/turn/run-turn.js';
import { createTestWorkspace, startTestThread, type TestWorkspace } from '../src/testing/index.js';
import type { CoreEvent } from '../src/turn/core-event.js';

let workspace: TestWorkspace;
let server: MockResponsesServer;
beforeEach(async () => {
  workspace = createTestWorkspace();
  server = await startMockResponsesServer();
});
afterEach(async () => {
  try {
    await server.close();
  } finally {
    await workspace.close();
  }
});

const budget = (limit: number, interval: number, extra: readonly string[] = []) => [
  'features.rollout_budget.enabled=true',
  `features.rollout_budget.limit_tokens=${limit}`,
  `features.rollout_budget.reminder_interval_tokens=${interval}`,
  ...extra,
];
const say = (text: string) => [{ type: 'text' as const, text, text_elements: [] }];
type Item = Record<string, unknown> & { type: string; role?: string; content?: { text?: string }[] };
const inputOf = (request: CapturedRequest) => request.body!.input as unknown as Item[];
const textOf = (item: Item) => (item.content ?? []).map((part) => part.text ?? '').join('');
const budgetsOf = (request: CapturedRequest) => inputOf(request).filter((item) => item.role === 'developer' && textOf(item).startsWith('<rollout_budget>')).map(textOf);
const lifecycle = (events: readonly CoreEvent[]) => events.filter((event) => event.type === 'turnStarted' || event.type === 'turnCompleted' || event.type === 'turnAborted' || event.type === 'turnFailed').map((event) => event.type);

async function thread(overrides: readonly string[]) {
  return startTestThread(workspace, { modelUrl: server.url, hostEnv: process.env, overrides: ['approval_policy="never"', 'sandbox_mode="danger-full-access"', ...overrides] });
}

describe('rollout budget', () => {
  it('tells the first request the full budget, after the prompt, and charges sampling × output + prefill × non-cached input', async () => {
    server.expect([
      sse(assistantMessage('One.'), completed({ usage: { inputTokens: 500, cachedTokens: 100, outputTokens: 10 } })),
      sse(assistantMessage('Two.'), completed()),
    ]);
    const { thread: handle } = await thread(budget(2_000, 100, ['features.rollout_budget.sampling_token_weight=3', 'features.rollout_budget.prefill_token_weight=0.5']));
    await handle.runTurn(say('First.'));
    await handle.runTurn(say('Second.'));
    const [first, second] = server.requests as [CapturedRequest, CapturedRequest];
    expect(inputOf(first).slice(-2).map(textOf)).toEqual(['First.', rolloutBudgetText(2_000)]);
    expect(inputOf(first).at(-1)).toMatchObject({ type: 'message', role: 'developer' });
    // 3 × 10 + 0.5 × (500 − 100) = 230 spent: two interval marks crossed, one reminder.
    expect(budgetsOf(second)).toEqual([rolloutBudgetText(2_000), rolloutBudgetText(1_770)]);
    expect(inputOf(second).slice(-2).map(textOf)).toEqual(['Second.', rolloutBudgetText(1_770)]);
  });

  it('refuses a bad value with its dotted key', async () => {
    await expect(thread(budget(1_000, 2_000))).rejects.toMatchObject({ key: 'features.rollout_budget.reminder_interval_tokens' });
    await expect(thread([...budget(1_000, 100), 'features.rollout_budget.prefill_token_weight=-1'])).rejects.toMatchObject({ key: 'features.rollout_budget.prefill_token_weight' });
  });

  it('says nothing while the feature is off', async () => {
    server.expect([sse(assistantMessage('One.'), completed())]);
    const { thread: handle } = await thread([]);
    await handle.runTurn(say('First.'));
    expect(budgetsOf(server.requests[0]!)).toEqual([]);
  });

  it('reminds only once the session’s usage crosses the next interval mark', async () => {
    server.expect([
      sse(functionCall('exec_command', { cmd: 'echo a' }), completed({ usage: { inputTokens: 30, outputTokens: 10 } })),
      sse(functionCall('exec_command', { cmd: 'echo b' }), completed({ usage: { inputTokens: 30, outputTokens: 10 } })),
      sse(assistantMessage('Done.'), completed()),
    ]);
    const { thread: handle } = await thread(budget(1_000, 50));
    await handle.runTurn(say('Work.'));
    const [first, second, third] = server.requests as [CapturedRequest, CapturedRequest, CapturedRequest];
    expect(budgetsOf(first)).toEqual([rolloutBudgetText(1_000)]);
    // 40 spent: below the first mark (50).
    expect(budgetsOf(second)).toEqual(budgetsOf(first));
    // 80 spent: past it.
    expect(budgetsOf(third)).toEqual([rolloutBudgetText(1_000), rolloutBudgetText(920)]);
    expect(inputOf(third).at(-1)).toMatchObject({ role: 'developer' });
  });

  it('also reminds at Codex’s reminder_at_remaining_tokens levels', async () => {
    server.expect([
      sse(functionCall('exec_command', { cmd: 'echo a' }), completed({ usage: { inputTokens: 30, outputTokens: 10 } })),
      sse(functionCall('exec_command', { cmd: 'echo b' }), completed({ usage: { inputTokens: 30, outputTokens: 10 } })),
      sse(assistantMessage('Done.'), completed()),
    ]);
    const { thread: handle } = await thread(budget(1_000, 1_000, ['features.rollout_budget.reminder_at_remaining_tokens=[950]']));
    await handle.runTurn(say('Work.'));
    const [, second, third] = server.requests as [CapturedRequest, CapturedRequest, CapturedRequest];
    // 960 left: above the level; 920 left: below it.
    expect(budgetsOf(second)).toEqual([rolloutBudgetText(1_000)]);
    expect(budgetsOf(third)).toEqual([rolloutBudgetText(1_000), rolloutBudgetText(920)]);
  });

  it('opens no window with a reminder under reminder_at_context_start = false, and still reminds at a level', async () => {
    server.expect([
      sse(functionCall('exec_command', { cmd: 'echo a' }), completed({ usage: { inputTokens: 100, outputTokens: 10 } })),
      sse(assistantMessage('Done.'), completed()),
    ]);
    const quiet = ['features.rollout_budget.reminder_at_context_start=false', 'features.rollout_budget.reminder_at_remaining_tokens=[450]'];
    const { thread: handle } = await thread(budget(500, 500, quiet));
    await handle.runTurn(say('Work.'));
    const [first, second] = server.requests as [CapturedRequest, CapturedRequest];
    // As Codex 0.171.0 with the same table: nothing at 500 left, then 390 left is below the level.
    expect(budgetsOf(first)).toEqual([]);
    expect(budgetsOf(second)).toEqual([rolloutBudgetText(390)]);
  });

  it('reminds but never stops a turn under enforce_limit = false; a fractional limit_budget is told exactly', async () => {
    server.expect([
      sse(functionCall('exec_command', { cmd: 'echo a' }), completed({ usage: { inputTokens: 100, outputTokens: 10 } })),
      sse(assistantMessage('Done.'), completed()),
    ]);
    const settings = ['features.rollout_budget.enabled=true', 'features.rollout_budget.limit_budget=50.5', 'features.rollout_budget.enforce_limit=false'];
    const { thread: handle } = await thread(settings);
    expect(await handle.runTurn(say('Spend past it.'))).toEqual({ status: 'completed', lastAgentMessage: 'Done.' });
    const [first, second] = server.requests as [CapturedRequest, CapturedRequest];
    expect(budgetsOf(first)).toEqual([rolloutBudgetText(50.5)]);
    expect(budgetsOf(second)).toEqual([rolloutBudgetText(50.5), rolloutBudgetText(0)]);
  });

  it('is shared by the threads of one session, and not by another session', async () => {
    server.expect([sse(assistantMessage('A.'), completed()), sse(assistantMessage('B.'), completed()), sse(assistantMessage('C.'), completed())]);
    const root = await thread(budget(1_000, 100));
    await root.thread.runTurn(say('From the root.'));
    const sibling = await root.manager.start({ onEvent: () => undefined, sessionId: root.thread.threadId });
    await sibling.runTurn(say('From the sibling.'));
    const stranger = await root.manager.start({ onEvent: () => undefined });
    await stranger.runTurn(say('From elsewhere.'));
    const [, siblingRequest, strangerRequest] = server.requests as [CapturedRequest, CapturedRequest, CapturedRequest];
    expect([sibling.sessionId, stranger.sessionId]).toEqual([root.thread.threadId, stranger.threadId]);
    expect(budgetsOf(siblingRequest)).toEqual([rolloutBudgetText(890)]);
    expect(budgetsOf(strangerRequest)).toEqual([rolloutBudgetText(1_000)]);
    await Promise.all([sibling.close(), stranger.close()]);
  });

  it('tells a new window the budget after the compaction’s summary', async () => {
    server.expect([
      sse(assistantMessage('Hello.'), completed({ usage: { inputTokens: 5_000, outputTokens: 10 } })),
      sse(assistantMessage('We said hello.'), completed({ usage: { inputTokens: 300, outputTokens: 40 } })),
      sse(assistantMessage('Again.'), completed()),
    ]);
    const { thread: handle } = await thread(['model_auto_compact_token_limit=5000', ...budget(100_000, 50_000)]);
    await handle.runTurn(say('Hi.'));
    await handle.runTurn(say('Hi again.'));
    expect(handle.contextWindow.windowNumber).toBe(1);
    const next = server.requests[2]!;
    // 5010 for the turn and 340 for the compaction: no interval crossed, but a new window is told.
    const texts = inputOf(next).map(textOf);
    const summary = texts.findIndex((text) => text.includes('We said hello.'));
    expect(summary).toBeGreaterThan(-1);
    expect(budgetsOf(next)).toEqual([rolloutBudgetText(100_000 - 5_010 - 340)]);
    expect(texts.indexOf(rolloutBudgetText(100_000 - 5_010 - 340))).toBeGreaterThan(summary);
    expect(texts.slice(-2)).toEqual(['Hi again.', rolloutBudgetText(94_650)]);
  });

  it('aborts the turn whose response exhausts it before its calls run, saying why, and a later turn of another thread of the session', async () => {
    const marker = join(workspace.workspace, 'ran');
    server.expect([
      // 110 of 100: the turn aborts at this response's usage, and the command it asked for never runs.
      sse(functionCall('exec_command', { cmd: `touch ${marker}` }, { callId: 'spend' }), completed()),
      sse(assistantMessage('Sibling answers.'), completed()),
    ]);
    const root = await thread(budget(100, 10));
    const outcome = await root.thread.runTurn(say('Spend it.'));
    expect(outcome).toMatchObject({ status: 'interrupted', error: { name: 'BudgetExhaustedError', message: 'budget reached', code: 'SessionBudgetExceeded' } });
    expect(lifecycle(root.events)).toEqual(['turnStarted', 'turnAborted']);
    expect(existsSync(marker)).toBe(false);
    const outputs = root.events.flatMap((event) => (event.type === 'itemCompleted' && event.item.type === 'function_call_output' ? [event.item] : []));
    expect(outputs).toMatchObject([{ call_id: 'spend', output: UNDISPATCHED_OUTPUT }]);
    // The usage still counts, then the model is told why the turn stopped.
    const outputAt = root.events.findIndex((event) => event.type === 'itemCompleted' && event.item.type === 'function_call_output');
    expect(root.events.findIndex((event) => event.type === 'tokenUsage')).toBeGreaterThan(outputAt);
    expect(root.thread.history().map((item) => textOf(item as Item)).at(-1)).toBe(BUDGET_EXHAUSTED_MESSAGE);
    expect(root.events.some((event) => event.type === 'turnFailed' || event.type === 'warning')).toBe(false);

    const events: CoreEvent[] = [];
    const sibling = await root.manager.start({ onEvent: (event) => events.push(event), sessionId: root.thread.threadId });
    // The running response may finish (a soft boundary); the turn then aborts at its usage.
    expect(await sibling.runTurn(say('Anything left?'))).toMatchObject({ status: 'interrupted', error: { code: 'SessionBudgetExceeded' } });
    expect(lifecycle(events)).toEqual(['turnStarted', 'turnAborted']);
    expect(server.requests).toHaveLength(2);
    expect(budgetsOf(server.requests[1]!)).toEqual([rolloutBudgetText(0)]);
    await sibling.close();
  });

  it('aborts the turn whose compaction exhausts it, without a retry or a generic error, keeping the old window', async () => {
    server.expect([
      sse(assistantMessage('Hello.'), completed({ usage: { inputTokens: 5_000, outputTokens: 10 } })),
      sse(assistantMessage('We said hello.'), completed({ usage: { inputTokens: 300, outputTokens: 40 } })),
    ]);
    const { thread: handle, events } = await thread(['model_auto_compact_token_limit=5000', ...budget(5_200, 5_000)]);
    await handle.runTurn(say('Hi.'));
    expect(await handle.runTurn(say('Hi again.'))).toMatchObject({ status: 'interrupted', error: { code: 'SessionBudgetExceeded' } });
    expect(server.requests).toHaveLength(2);
    expect(handle.contextWindow.windowNumber).toBe(0);
    expect(lifecycle(events)).toEqual(['turnStarted', 'turnCompleted', 'turnStarted', 'turnAborted']);
    expect(events.some((event) => event.type === 'turnFailed' || event.type === 'warning' || event.type === 'streamRetrying')).toBe(false);
  });
});
