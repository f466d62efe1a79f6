// `thread/compact/start` over the app-server: the answer, Codex's notification sequence (validated
// against Codex's schema by the test client), and what the model receives before and after.
import { assistantMessage, completed, mockProviderConfigToml, sse, startMockResponsesServer, type AppServerTestClient, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, startInProcess, threadsOn, type InProcessServer, type TestHome } from './support/app-server-harness.js';

let model: MockResponsesServer;
let home: TestHome;
let server: InProcessServer | undefined;
let client: AppServerTestClient | undefined;

beforeEach(async () => {
  model = await startMockResponsesServer();
  home = makeHome(mockProviderConfigToml(model.url));
});
afterEach(async () => {
  await client?.close();
  await server?.close();
  try {
    await model.close();
  } finally {
    home.cleanup();
  }
});

const text = (value: string) => [{ type: 'text', text: value, text_elements: [] }];
const turnCompleted = (on: AppServerTestClient, matches: string | ((turnId: string) => boolean)) =>
  on.waitFor('turn/completed', (params) => {
    const id = (params as { turn: { id: string } }).turn.id;
    return typeof matches === 'string' ? id === matches : matches(id);
  }) as Promise<{ turn: { id: string; status: string; items: unknown[] } }>;

/** A server, a client, and a thread that has had one turn. */
async function threadWithOneTurn(): Promise<{ readonly client: AppServerTestClient; readonly threadId: string; readonly turnId: string }> {
  server = await startInProcess(home, { threads: threadsOn(home) });
  client = await server.connect('stdio');
  await client.initialize();
  const started = (await client.request('thread/start', { cwd: home.workspace, approvalPolicy: 'never', sandbox: 'read-only' })) as { thread: { id: string } };
  const { turn } = (await client.request('turn/start', { threadId: started.thread.id, input: text('Add a greeting.') })) as { turn: { id: string } };
  await turnCompleted(client, turn.id);
  return { client, threadId: started.thread.id, turnId: turn.id };
}

describe('thread/compact/start', () => {
  it("answers {} and then runs the compaction as a turn, with Codex's notifications", async () => {
    model.expect([
      sse(assistantMessage('Hello there.'), completed({ usage: { inputTokens: 4_990, outputTokens: 10 } })),
      sse(assistantMessage('Greeting added; next: test it.'), completed({ usage: { inputTokens: 300, outputTokens: 40 } })),
      sse(assistantMessage('Tested.'), completed()),
    ]);
    const { client: connected, threadId, turnId: firstTurn } = await threadWithOneTurn();
    const from = connected.notifications.length;
    expect(await connected.request('thread/compact/start', { threadId })).toEqual({});
    const done = await turnCompleted(connected, (id) => id !== firstTurn);
    expect(done.turn).toMatchObject({ status: 'completed' });

    const after = connected.notifications.slice(from).filter((notification) => (notification.params as { threadId?: string }).threadId === threadId);
    expect(after.map((notification) => notification.method)).toEqual([
      'thread/status/changed',
      'turn/started',
      'item/started',
      'thread/tokenUsage/updated',
      'thread/tokenUsage/updated',
      'thread/tokenUsage/updated',
      'item/completed',
      'thread/status/changed',
      'turn/completed',
    ]);
    const [started, completedItem] = after.filter((notification) => notification.method.startsWith('item/')).map((notification) => (notification.params as { item: { type: string; id: string; startedAtMs: number; completedAtMs: number | null } }).item);
    expect(started).toMatchObject({ type: 'contextCompaction', completedAtMs: null });
    expect(completedItem).toMatchObject({ type: 'contextCompaction', id: started!.id, startedAtMs: started!.startedAtMs });
    expect(typeof completedItem!.completedAtMs).toBe('number');
    const usage = after.filter((notification) => notification.method === 'thread/tokenUsage/updated').map((notification) => (notification.params as { tokenUsage: { last: { totalTokens: number; inputTokens: number } } }).tokenUsage.last);
    expect(usage[0]).toMatchObject({ totalTokens: 5_000 });
    expect(usage[1]).toMatchObject({ totalTokens: 340, inputTokens: 300 });
    expect(usage[2]).toMatchObject({ inputTokens: 0 });

    // The compaction request, then a turn in the next window that carries the summary and not the old answer.
    const metadata = JSON.parse(model.requests[1]!.header('x-codex-turn-metadata')!) as Record<string, unknown>;
    expect(metadata).toMatchObject({ request_kind: 'compaction', window_number: 0, compaction: { trigger: 'manual', phase: 'standalone_turn' } });
    const { turn } = (await connected.request('turn/start', { threadId, input: text('Now test it.') })) as { turn: { id: string } };
    await turnCompleted(connected, turn.id);
    const next = model.requests[2]!;
    expect(next.header('x-codex-window-id')).toBe(`${threadId}:1`);
    expect(next.messageTexts('assistant')).toEqual([]);
    expect(next.messageTexts('user').slice(-3)).toEqual(['Add a greeting.', expect.stringContaining('Greeting added; next: test it.'), 'Now test it.']);

    // Read back from the rollout, the compaction is an item of its own turn, between the two others.
    const read = (await connected.request('thread/read', { threadId, includeTurns: true })) as { thread: { turns: { id: string; items: { type: string; id: string }[] }[] } };
    expect(read.thread.turns.map((recorded) => recorded.items.map((item) => item.type))).toEqual([
      ['userMessage', 'agentMessage'],
      ['contextCompaction'],
      ['userMessage', 'agentMessage'],
    ]);
    expect(read.thread.turns[1]!.items[0]).toEqual({ type: 'contextCompaction', id: started!.id });
  });

  it('answers a thread that is not loaded with an error', async () => {
    model.expect([sse(assistantMessage('Hello there.'), completed())]);
    const { client: connected } = await threadWithOneTurn();
    await expect(connected.request('thread/compact/start', { threadId: '01a23481-0000-7000-8000-000000000000' })).rejects.toThrow();
  });
});
