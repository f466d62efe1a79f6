// Compaction end to end against the mock model: the request that asks for the summary, the history
// that replaces the window, the windows' ids in headers, rollout and resume, and the auto-compaction
// feature switch. Real config, real store, real rollout files; only the model is scripted.
import { appendFileSync, readFileSync } from 'node:fs';
import { ExtensionRegistryBuilder, defineContextFragment, defineExtension } from '@skein/extension-api';
import { isUuidV7 } from '@skein/protocol';
import { assistantMessage, completed, failed, functionCall, outputItemDone, sse, startMockResponsesServer, type CapturedRequest, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HANDOFF_SUMMARY_PREFIX, HANDOFF_SUMMARY_REQUEST, type CoreEvent, type ThreadHandle } from '../src/index.js';
import { loadConfig } from '@skein/config';
import { createTestWorkspace, mockProviderOverrides, startTestThread, type TestWorkspace } from '../src/testing/index.js';

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

const LIMIT = ['model_auto_compact_token_limit=1000'];
const say = (text: string) => [{ type: 'text' as const, text, text_elements: [] }];
const over = { usage: { inputTokens: 4_990, outputTokens: 10 } };
const SUMMARY = 'We were adding a greeting; next: write its test.';

type Item = Record<string, unknown> & { type: string; role?: string; id?: string; content?: { text?: string }[] };
const inputOf = (request: CapturedRequest) => (request.body!.input as unknown as Item[]);
const textOf = (item: Item) => (item.content ?? []).map((part) => part.text ?? '').join('');
const shape = (items: readonly Item[]) => items.map((item) => [item.type, item.role ?? null, item.type === 'message' ? textOf(item) : null]);
const metadataOf = (request: CapturedRequest) => JSON.parse(request.header('x-codex-turn-metadata') ?? '{}') as Record<string, unknown>;
const rolloutLines = (thread: ThreadHandle) =>
  readFileSync(thread.path!, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; payload: Record<string, unknown> });

async function thread(overrides: readonly string[] = LIMIT, extensions = new ExtensionRegistryBuilder().build()) {
  return startTestThread(workspace, { modelUrl: server.url, hostEnv: process.env, environment: 'none', overrides, extensions });
}

const FACTS = defineContextFragment({ kind: 'facts.catalog', role: 'developer', open: '<facts>', close: '</facts>' });
/** An extension with a thread fragment and a world-state section that renders in full only when the model has not seen it. */
const facts = defineExtension({
  id: 'facts',
  fragments: [FACTS],
  context: { threadFragments: () => Promise.resolve([FACTS.render('the sky is blue')]) },
  worldState: [{ sectionId: 'weather', snapshot: () => Promise.resolve('sunny'), renderChange: (previous, current) => (previous === current ? undefined : `<weather>${JSON.stringify(current)}</weather>`) }],
});

/** The context items the first request carried before the user's prompt (instructions excluded). */
const contextOf = (request: CapturedRequest) => inputOf(request).slice(1, -1);

describe('compaction', () => {
  it('compacts before the next turn once the last response reached the limit, and the next request carries the replacement history', async () => {
    server.expect([
      sse(assistantMessage('Hello there.'), completed(over)),
      sse(assistantMessage(SUMMARY), completed({ usage: { inputTokens: 300, outputTokens: 40 } })),
      sse(assistantMessage('Done.'), completed()),
    ]);
    const { thread: handle, events } = await thread();
    const id = handle.threadId;
    await handle.runTurn(say('Add a greeting.'));
    expect(server.requests).toHaveLength(1);
    expect(await handle.runTurn(say('Now test it.'))).toMatchObject({ status: 'completed' });

    const [first, compaction, next] = server.requests as [CapturedRequest, CapturedRequest, CapturedRequest];
    // The compaction request: the turn's keys, no tools, no parallel calls, window 0, kind compaction.
    const keysOf = (request: CapturedRequest) => Object.keys(request.json as Record<string, unknown>);
    const turnKeys = keysOf(first);
    expect(keysOf(compaction)).toEqual(turnKeys.includes('tools') ? turnKeys : turnKeys.flatMap((key) => (key === 'input' ? ['input', 'tools'] : [key])));
    expect(compaction.body).toMatchObject({ tools: [], parallel_tool_calls: false, tool_choice: 'auto', prompt_cache_key: id, stream: true });
    expect(metadataOf(compaction)).toMatchObject({
      request_kind: 'compaction',
      window_number: 0,
      window_id: `${id}:0`,
      context_window_id: id,
      thread_id: id,
      compaction: { trigger: 'auto', reason: 'context_limit', implementation: 'responses', phase: 'pre_turn', strategy: 'memento' },
    });
    // A compaction request names why it runs instead of the model settings, as Codex's does.
    expect(metadataOf(compaction)).not.toHaveProperty('model');
    expect(metadataOf(first)).not.toHaveProperty('compaction');
    expect(compaction.header('x-codex-window-id')).toBe(`${id}:0`);
    // Its input: the whole history, then the request for a summary.
    expect(shape(inputOf(compaction))).toEqual([...shape(inputOf(first)), ['message', 'assistant', 'Hello there.'], ['message', 'user', HANDOFF_SUMMARY_REQUEST]]);

    // The next request: instructions, the initial context again, the earlier prompt, the summary, the new prompt.
    expect(shape(inputOf(next))).toEqual([
      ...shape(inputOf(first)).slice(0, 1),
      ...shape(contextOf(first)),
      ['message', 'user', 'Add a greeting.'],
      ['message', 'user', `${HANDOFF_SUMMARY_PREFIX}\n${SUMMARY}`],
      ['message', 'user', 'Now test it.'],
    ]);
    expect(metadataOf(next)).toMatchObject({ request_kind: 'turn', window_number: 1, window_id: `${id}:1`, context_window_id: handle.contextWindow.windowId });
    expect(next.header('x-codex-window-id')).toBe(`${id}:1`);
    expect(next.body!.client_metadata).toMatchObject({ 'x-codex-window-id': `${id}:1` });

    // Every item the model is sent, and every item of the live history, has an id; ids are not reused.
    for (const item of inputOf(next)) expect(item.id, JSON.stringify(item)).toMatch(/^[a-z]+_/);
    const ids = handle.history().map((item) => item.id);
    expect(ids.every((itemId) => typeof itemId === 'string')).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);

    // The window: number 1, a fresh UUIDv7, the thread's first window (the thread id) before it.
    const window = handle.contextWindow;
    expect(window).toMatchObject({ windowNumber: 1, firstWindowId: id, previousWindowId: id });
    expect(isUuidV7(window.windowId)).toBe(true);
    expect(window.windowId).not.toBe(id);

    // The client sees the compaction as an item of the second turn, with the usage it reported.
    const turn2 = events.findLast((event) => event.type === 'turnStarted')!;
    const after = events.slice(events.indexOf(turn2));
    const compactionItems = after.filter((event): event is Extract<CoreEvent, { type: 'turnItem' }> => event.type === 'turnItem' && event.item.kind === 'contextCompaction');
    expect(compactionItems.map((event) => [event.phase, event.item.kind, 'status' in event.item ? event.item.status : null])).toEqual([
      ['started', 'contextCompaction', 'inProgress'],
      ['completed', 'contextCompaction', 'completed'],
    ]);
    const usage = after.filter((event) => event.type === 'threadTokenUsage');
    // Codex's three updates: the usage that made it due, the compaction's own, then the estimated size of the new window.
    expect(usage.slice(0, 3)).toMatchObject([
      { last: { totalTokens: 5_000 }, total: { totalTokens: 5_000 } },
      { last: { inputTokens: 300, outputTokens: 40 }, total: { totalTokens: 5_340 } },
      { last: { inputTokens: 0, outputTokens: 0 }, total: { totalTokens: 5_340 } },
    ]);
    const estimate = (usage[2] as Extract<CoreEvent, { type: 'threadTokenUsage' }>).last.totalTokens;
    expect(estimate).toBeGreaterThan(0);
    expect(estimate).toBeLessThan(5_000);

    // The rollout: one compacted line with the replacement history as the model saw it (same ids) and the window.
    await handle.close();
    const compacted = rolloutLines(handle).filter((line) => line.type === 'compacted');
    expect(compacted).toHaveLength(1);
    expect(compacted[0]!.payload).toMatchObject({ message: `${HANDOFF_SUMMARY_PREFIX}\n${SUMMARY}`, window_number: 1, window_id: window.windowId, first_window_id: id, previous_window_id: id });
    const replacement = compacted[0]!.payload.replacement_history as Item[];
    expect(replacement.map((item) => item.id)).toEqual(inputOf(next).slice(1, -1).map((item) => item.id));
  });

  it("keeps a provider's compaction item (remote_compaction_v2, which every request lists) and sends it back", async () => {
    const compaction = { type: 'compaction', id: 'cmp_1', encrypted_content: 'sealed-summary' };
    server.expect([sse(outputItemDone(compaction), assistantMessage('Noted.'), completed()), sse(assistantMessage('Again.'), completed())]);
    const { thread: handle } = await thread([]);
    await handle.runTurn(say('first'));
    await handle.runTurn(say('second'));
    expect(server.requests[0]!.header('x-codex-beta-features')).toBe('remote_compaction_v2');
    expect(inputOf(server.requests[1]!)).toContainEqual(expect.objectContaining({ type: 'compaction', encrypted_content: 'sealed-summary' }));
  });

  it("gives a provider's compaction item that came without an id one, which resume and rollback find again (the seed's id rule)", async () => {
    const compaction = { type: 'compaction', encrypted_content: 'sealed-summary' };
    server.expect([
      sse(outputItemDone(compaction), assistantMessage('Noted.'), completed()),
      sse(assistantMessage('Wrong turn.'), completed()),
      sse(assistantMessage('Again.'), completed()),
    ]);
    const started = await thread([]);
    const handle = started.thread;
    await handle.runTurn(say('first'));
    const installed = handle.history().find((item) => item.type === 'compaction');
    expect(installed?.id).toEqual(expect.any(String));
    await handle.runTurn(say('second'));
    await handle.close();
    appendFileSync(handle.path!, `${JSON.stringify({ timestamp: new Date().toISOString(), type: 'event_msg', payload: { type: 'thread_rolled_back', num_turns: 1 } })}\n`);

    const resumed = await (await started.newManager()).resume(handle.threadId, { onEvent: () => undefined });
    expect(resumed.history().find((item) => item.type === 'compaction')).toEqual(installed);
    await resumed.runTurn(say('third'));
    expect(inputOf(server.requests.at(-1)!)).toContainEqual(expect.objectContaining({ type: 'compaction', id: installed!.id, encrypted_content: 'sealed-summary' }));
    await resumed.close();
  });

  it('compacts between two samplings of a turn when a response pushes usage over the limit', async () => {
    server.expect([
      sse(functionCall('lookup', '{}', { callId: 'call-1' }), completed(over)),
      sse(assistantMessage(SUMMARY), completed()),
      sse(assistantMessage('Found it.'), completed()),
    ]);
    const { thread: handle } = await thread();
    const id = handle.threadId;
    expect(await handle.runTurn(say('Look it up.'))).toMatchObject({ status: 'completed', lastAgentMessage: 'Found it.' });

    const [first, compaction, next] = server.requests as [CapturedRequest, CapturedRequest, CapturedRequest];
    expect(metadataOf(compaction)).toMatchObject({ request_kind: 'compaction', window_number: 0, compaction: { trigger: 'auto', phase: 'mid_turn' } });
    // The call and its output went to the compaction request, and are gone from the next one.
    expect(shape(inputOf(compaction)).slice(-3).map(([type]) => type)).toEqual(['function_call', 'function_call_output', 'message']);
    expect(shape(inputOf(next))).toEqual([
      ...shape(inputOf(first)).slice(0, -1),
      ['message', 'user', 'Look it up.'],
      ['message', 'user', `${HANDOFF_SUMMARY_PREFIX}\n${SUMMARY}`],
    ]);
    expect(metadataOf(next)).toMatchObject({ request_kind: 'turn', window_number: 1, turn_id: metadataOf(first).turn_id });
    expect(next.header('x-codex-window-id')).toBe(`${id}:1`);
  });

  it('with auto_compaction off never compacts by itself: the context-window error reaches the client, and manual compaction still runs', async () => {
    server.expect([
      sse(assistantMessage('Hello there.'), completed(over)),
      sse(failed('context_length_exceeded', 'Your input exceeds the context window of this model.')),
      sse(assistantMessage(SUMMARY), completed()),
    ]);
    const { thread: handle, events } = await thread([...LIMIT, 'features.auto_compaction=false']);
    await handle.runTurn(say('Add a greeting.'));
    const outcome = await handle.runTurn(say('Now test it.'));
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'ContextWindowExceeded' } });
    expect(events.filter((event) => event.type === 'turnFailed')).toHaveLength(1);
    expect(metadataOf(server.requests[1]!)).toMatchObject({ request_kind: 'turn', window_number: 0 });

    expect(await handle.compact()).toMatchObject({ status: 'completed' });
    expect(metadataOf(server.requests[2]!)).toMatchObject({ request_kind: 'compaction', window_number: 0, compaction: { trigger: 'manual', reason: 'user_requested', phase: 'standalone_turn' } });
    expect(handle.contextWindow.windowNumber).toBe(1);
  });

  it('a failed compaction request changes nothing: the turn fails and the history is as it was', async () => {
    server.expect([sse(assistantMessage('Hello there.'), completed(over)), sse(failed('server_error', 'boom'))]);
    const { thread: handle, events } = await thread();
    await handle.runTurn(say('Add a greeting.'));
    const before = handle.history().slice();
    expect(await handle.runTurn(say('Now test it.'))).toMatchObject({ status: 'failed' });
    expect(handle.history()).toEqual(before);
    expect(handle.contextWindow.windowNumber).toBe(0);
    const item = events.findLast((event) => event.type === 'turnItem');
    expect(item).toMatchObject({ phase: 'completed', item: { kind: 'contextCompaction', status: 'failed' } });
  });

  it('resume after a compaction restores the window and gives the model the replacement history plus what followed', async () => {
    server.expect([
      sse(assistantMessage('Hello there.'), completed(over)),
      sse(assistantMessage(SUMMARY), completed()),
      sse(assistantMessage('Done.'), completed()),
      sse(assistantMessage('Again.'), completed()),
    ]);
    const started = await thread();
    const handle = started.thread;
    await handle.runTurn(say('Add a greeting.'));
    await handle.runTurn(say('Now test it.'));
    const window = handle.contextWindow;
    const live = handle.history().slice();
    await handle.close();

    const resumed = await (await started.newManager()).resume(handle.threadId, { onEvent: () => undefined });
    expect(resumed.contextWindow).toEqual(window);
    expect(resumed.history()).toEqual(live);
    await resumed.runTurn(say('Once more.'));
    const [, , afterCompaction, afterResume] = server.requests as CapturedRequest[];
    // The same items with the same ids (the instructions message gets a new id in a new process), then the answer and the new prompt.
    expect(inputOf(afterResume!).slice(1, inputOf(afterCompaction!).length)).toEqual(inputOf(afterCompaction!).slice(1));
    expect(shape(inputOf(afterResume!).slice(inputOf(afterCompaction!).length))).toEqual([
      ['message', 'assistant', 'Done.'],
      ['message', 'user', 'Once more.'],
    ]);
    expect(afterResume!.header('x-codex-window-id')).toBe(`${handle.threadId}:1`);
    await resumed.close();
  });

  it('resume after a rollback keeps the window of the compaction before it and drops the rolled-back turn', async () => {
    server.expect([
      sse(assistantMessage('Hello there.'), completed(over)),
      sse(assistantMessage(SUMMARY), completed()),
      sse(assistantMessage('Done.'), completed()),
      sse(assistantMessage('Wrong turn.'), completed()),
      sse(assistantMessage('Again.'), completed()),
    ]);
    const started = await thread();
    const handle = started.thread;
    await handle.runTurn(say('Add a greeting.'));
    await handle.runTurn(say('Now test it.'));
    const window = handle.contextWindow;
    const kept = handle.history().slice();
    await handle.runTurn(say('Do something wrong.'));
    await handle.close();
    // A rollback of the newest turn, as Codex records it.
    appendFileSync(handle.path!, `${JSON.stringify({ timestamp: new Date().toISOString(), type: 'event_msg', payload: { type: 'thread_rolled_back', num_turns: 1 } })}\n`);

    const resumed = await (await started.newManager()).resume(handle.threadId, { onEvent: () => undefined });
    expect(resumed.contextWindow).toEqual(window);
    expect(resumed.history()).toEqual(kept);
    await resumed.runTurn(say('Try again.'));
    const last = server.requests.at(-1)!;
    expect(shape(inputOf(last)).slice(-4)).toEqual([
      ['message', 'user', `${HANDOFF_SUMMARY_PREFIX}\n${SUMMARY}`],
      ['message', 'user', 'Now test it.'],
      ['message', 'assistant', 'Done.'],
      ['message', 'user', 'Try again.'],
    ]);
    expect(last.header('x-codex-window-id')).toBe(`${handle.threadId}:1`);
    await resumed.close();
  });

  it("re-sends extensions' thread fragments and world-state sections in full after a compaction", async () => {
    server.expect([
      sse(assistantMessage('Hello there.'), completed()),
      sse(assistantMessage('Again.'), completed(over)),
      sse(assistantMessage(SUMMARY), completed()),
      sse(assistantMessage('Done.'), completed()),
    ]);
    const { thread: handle } = await thread(LIMIT, new ExtensionRegistryBuilder().add(facts).build());
    await handle.runTurn(say('one'));
    await handle.runTurn(say('two'));
    await handle.runTurn(say('three'));
    const [first, second, , afterCompaction] = server.requests as CapturedRequest[];
    const count = (request: CapturedRequest, needle: string) => inputOf(request).filter((item) => textOf(item).includes(needle)).length;
    // Told once in the first window: the fragment with the initial context, the section with the first turn.
    expect([count(first!, '<facts>'), count(first!, '<weather>"sunny"</weather>')]).toEqual([1, 1]);
    expect([count(second!, '<facts>'), count(second!, '<weather>"sunny"</weather>')]).toEqual([1, 1]);
    // The compaction dropped the history that told the model; the new window tells it again, once.
    expect([count(afterCompaction!, '<facts>'), count(afterCompaction!, '<weather>"sunny"</weather>')]).toEqual([1, 1]);
  });

  it('compacts with the previous model when a switch to a model with a smaller window would not fit', async () => {
    server.expect([
      sse(assistantMessage('Hello there.'), completed({ usage: { inputTokens: 2_990, outputTokens: 10 } })),
      sse(assistantMessage(SUMMARY), completed()),
      sse(assistantMessage('Done.'), completed()),
    ]);
    const { thread: handle, config } = await thread([]);
    await handle.runTurn(say('Add a greeting.'));
    const smaller = config.model === 'gpt-5.5' ? 'gpt-6-sol' : 'gpt-5.5';
    const switched = await loadConfig({ cwd: workspace.workspace, env: {}, homeDir: workspace.home, overrides: [...mockProviderOverrides(server.url), `model="${smaller}"`, 'model_context_window=3000'] });
    handle.reconfigure(switched.config);
    await handle.runTurn(say('Now test it.'));
    const [, compaction, next] = server.requests as [CapturedRequest, CapturedRequest, CapturedRequest];
    expect(metadataOf(compaction)).toMatchObject({ request_kind: 'compaction', compaction: { trigger: 'auto', phase: 'pre_turn' } });
    expect(compaction.body!.model).toBe(config.model);
    expect(next.body!.model).toBe(smaller);
    expect(metadataOf(next)).toMatchObject({ window_number: 1 });
  });
});
