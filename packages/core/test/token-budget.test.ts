// The token budget end to end against the mock model: the lineage block of each window's context,
// the reminder once per window at the threshold (also for a resumed window already below it), and
// get_context_remaining. Real config, store and rollout files; only the model is scripted.
import { assistantMessage, completed, functionCall, sse, startMockResponsesServer, type CapturedRequest, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestWorkspace, startTestThread, type TestWorkspace } from '../src/testing/index.js';

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

const LIMIT = 10_000;
const THRESHOLD = 3_000;
const BUDGET = [`model_auto_compact_token_limit=${LIMIT}`, 'features.token_budget.enabled=true', `features.token_budget.reminder_threshold_tokens=${THRESHOLD}`, 'features.token_budget.reminder_message_template="Left: {n_remaining} tokens."'];
const say = (text: string) => [{ type: 'text' as const, text, text_elements: [] }];
/** A response whose usage leaves `remaining` tokens to the limit. */
const leaving = (remaining: number) => ({ usage: { inputTokens: LIMIT - remaining - 10, outputTokens: 10 } });
type Item = Record<string, unknown> & { type: string; role?: string; id?: string; content?: { text?: string }[]; output?: string };
const inputOf = (request: CapturedRequest) => request.body!.input as unknown as Item[];
const textOf = (item: Item) => (item.content ?? []).map((part) => part.text ?? '').join('');
const remindersOf = (request: CapturedRequest) => inputOf(request).filter((item) => item.role === 'developer' && textOf(item).startsWith('Left: ')).map(textOf);
/** What the budget estimates for items recorded after the last response (four bytes a token). */
const estimate = (items: readonly Item[]) => Math.ceil(Buffer.byteLength(JSON.stringify(items), 'utf8') / 4);
const toolsOf = (request: CapturedRequest) => ((request.body as { tools?: { name?: string }[] }).tools ?? []).map((tool) => tool.name);

async function thread(overrides: readonly string[] = BUDGET) {
  return startTestThread(workspace, { modelUrl: server.url, hostEnv: process.env, overrides: ['approval_policy="never"', 'sandbox_mode="danger-full-access"', ...overrides] });
}

describe('token budget', () => {
  it('puts the lineage of the window in its context: first and current in window 0, the previous one after a compaction', async () => {
    server.expect([
      sse(assistantMessage('Hello.'), completed({ usage: { inputTokens: LIMIT, outputTokens: 10 } })),
      sse(assistantMessage('We said hello.'), completed()),
      sse(assistantMessage('Again.'), completed()),
    ]);
    const { thread: handle } = await thread();
    const id = handle.threadId;
    await handle.runTurn(say('Hi.'));
    const first = handle.contextWindow;
    await handle.runTurn(say('Hi again.'));
    const second = handle.contextWindow;
    expect(second.windowNumber).toBe(1);

    const isLineage = (item: Item) => textOf(item).startsWith('Thread id: ');
    const lineage = (request: CapturedRequest) => inputOf(request).filter(isLineage);
    const [window0, , window1] = server.requests as [CapturedRequest, CapturedRequest, CapturedRequest];
    // One developer message of colon-labelled lines, no wrapper, between the developer context and the user's context.
    expect(lineage(window0).map((item) => [item.role, item.content!.map((part) => part.text)])).toEqual([
      ['developer', [`Thread id: ${id}\nFirst context window id: ${id}\nCurrent context window id: ${first.windowId}`]],
    ]);
    const index = inputOf(window0).findIndex(isLineage);
    expect(inputOf(window0)[index - 1]).toMatchObject({ role: 'developer' });
    expect(textOf(inputOf(window0)[index + 1]!)).toContain('<environment_context>');
    // The new window's context replaces the old lineage with its own.
    expect(lineage(window1).map((item) => textOf(item))).toEqual([
      `Thread id: ${id}\nFirst context window id: ${id}\nCurrent context window id: ${second.windowId}\nPrevious context window id: ${first.windowId}`,
    ]);
  });

  it('sends no lineage and offers no get_context_remaining while the feature is off', async () => {
    server.expect([sse(assistantMessage('Hello.'), completed())]);
    const { thread: handle } = await thread([]);
    await handle.runTurn(say('Hi.'));
    const [request] = server.requests as [CapturedRequest];
    expect(inputOf(request).some((item) => textOf(item).includes('context window id:'))).toBe(false);
    expect(toolsOf(request)).not.toContain('get_context_remaining');
  });

  it('reminds once per window when the tokens left reach the threshold, and get_context_remaining answers the same figure', async () => {
    server.expect([
      // 5000 left: above the threshold.
      sse(functionCall('exec_command', { cmd: 'echo hi' }), completed(leaving(5_000))),
      // 2500 left: below it; the next request carries the reminder.
      sse(functionCall('get_context_remaining', {}), completed(leaving(2_500))),
      sse(functionCall('exec_command', { cmd: 'echo again' }), completed(leaving(2_000))),
      sse(assistantMessage('Done.'), completed(leaving(1_500))),
    ]);
    const { thread: handle } = await thread();
    await handle.runTurn(say('Check the budget.'));
    const [first, second, third, fourth] = server.requests as [CapturedRequest, CapturedRequest, CapturedRequest, CapturedRequest];
    expect(toolsOf(first)).toContain('get_context_remaining');
    expect(toolsOf(first).indexOf('get_context_remaining')).toBe(toolsOf(first).indexOf('request_user_input') + 1);
    expect(remindersOf(first)).toEqual([]);
    expect(remindersOf(second)).toEqual([]);
    // The tool runs before its response is accounted: the first response's account, less what was
    // recorded since (the command's output and the tool's own call).
    const sinceFirst = inputOf(third).slice(inputOf(second).length - 1, -2);
    expect(sinceFirst.map((item) => item.type)).toEqual(['function_call_output', 'function_call']);
    const answer = inputOf(third).at(-2)!;
    expect(answer).toMatchObject({ type: 'function_call_output', output: `${5_000 - estimate(sinceFirst)} tokens remain in this context window before it is compacted.` });
    // The reminder counts what was recorded after the second response: the tool's output.
    expect(remindersOf(third)).toEqual([`Left: ${2_500 - estimate([answer])} tokens.`]);
    expect(inputOf(third).at(-1)).toMatchObject({ type: 'message', role: 'developer' });
    // Once per window.
    expect(remindersOf(fourth)).toEqual(remindersOf(third));
  });

  it('is re-armed by a compaction: the new window is reminded once more', async () => {
    server.expect([
      sse(assistantMessage('Hello.'), completed({ usage: { inputTokens: LIMIT, outputTokens: 10 } })),
      sse(assistantMessage('We said hello.'), completed()),
      sse(assistantMessage('Again.'), completed()),
    ]);
    // A threshold this close to the limit is reached at once in every window.
    const { thread: handle } = await thread([...BUDGET, `features.token_budget.reminder_threshold_tokens=${LIMIT - 1}`]);
    await handle.runTurn(say('Hi.'));
    await handle.runTurn(say('Hi again.'));
    const [window0, compaction, window1] = server.requests as [CapturedRequest, CapturedRequest, CapturedRequest];
    expect(remindersOf(window0)).toHaveLength(1);
    expect(remindersOf(compaction)).toEqual(remindersOf(window0));
    // The old reminder went with the old window; the new one is told after the new prompt.
    expect(remindersOf(window1)).toHaveLength(1);
    expect(inputOf(window1).slice(-2).map(textOf)).toEqual(['Hi again.', remindersOf(window1)[0]]);
  });

  it('reminds a resumed window that is already below the threshold before its next request', async () => {
    server.expect([sse(assistantMessage('Hello.'), completed(leaving(1_000))), sse(assistantMessage('Back.'), completed())]);
    const started = await thread();
    await started.thread.runTurn(say('Hi.'));
    expect(remindersOf(server.requests[0]!)).toEqual([]);
    await started.thread.close();

    const resumed = await (await started.newManager()).resume(started.thread.threadId, { onEvent: () => undefined });
    await resumed.runTurn(say('Still there?'));
    const request = server.requests[1]!;
    const prompt = inputOf(request).findLastIndex((item) => textOf(item) === 'Still there?');
    const sinceResponse = inputOf(request).slice(inputOf(request).findLastIndex((item) => item.role === 'assistant') + 1, -1);
    expect(prompt).toBe(inputOf(request).length - 2);
    expect(remindersOf(request)).toEqual([`Left: ${1_000 - estimate(sinceResponse)} tokens.`]);
    await resumed.close();
  });
});
