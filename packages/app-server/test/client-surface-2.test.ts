// The rest of what Codex's clients call on a normal day (issue #35), as Codex 0.171.0 answers it
// (probed side by side): `thread/items/read`, `thread/timeline/list`, `server/diagnostics`,
// `turn/settings/update` (refused, as Codex refuses it without step_model_switching) and
// `feedback/save` (a zip written owner-only, never uploaded). The mock model is the only fake; every
// message is schema-checked by the test client.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, mockProviderConfigToml, sse, startMockResponsesServer, type AppServerTestClient, type MockResponsesServer } from '@skein/test-support';
import { unzipSync, strFromU8 } from 'fflate';
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

interface Entry {
  turnId: string;
  item: { id: string; type: string };
}

/** A thread with one finished turn: the user's message and the model's answer. */
async function threadWithOneTurn(): Promise<{ threadId: string; turnId: string; items: Entry[] }> {
  model.expect([sse(assistantMessage('Hello back.'), completed())]);
  const { thread } = (await client.request('thread/start', { cwd: home.workspace })) as { thread: { id: string } };
  await runTurnToEnd(client, thread.id, 'Hello');
  const { data } = (await client.request('thread/items/list', { threadId: thread.id })) as { data: Entry[] };
  return { threadId: thread.id, turnId: data[0]!.turnId, items: data };
}

describe('reading a thread’s history', () => {
  it('thread/items/read answers the items asked for, in that order, leaving out ids and turns it does not have', async () => {
    const { threadId, turnId, items } = await threadWithOneTurn();
    const [user, agent] = items as [Entry, Entry];
    const read = (await client.request('thread/items/read', { threadId, turnId, itemIds: [agent.item.id, 'nope', user.item.id] })) as { data: Entry[] };
    expect(read.data.map((entry) => [entry.turnId, entry.item.type])).toEqual([
      [turnId, 'agentMessage'],
      [turnId, 'userMessage'],
    ]);
    expect(read.data[0]).toMatchObject({ item: agent.item, startedAtMs: expect.any(Number) as unknown, completedAtMs: expect.any(Number) as unknown });
    expect(await client.request('thread/items/read', { threadId, turnId: 'nope', itemIds: [user.item.id] })).toEqual({ data: [] });
    expect(client.schemaFailures).toEqual([]);
  });

  it('thread/timeline/list answers each turn’s start, items and end in recorded order, paged', async () => {
    const { threadId, turnId } = await threadWithOneTurn();
    const { data, nextCursor } = (await client.request('thread/timeline/list', { threadId })) as { data: Record<string, unknown>[]; nextCursor: string | null };
    expect(nextCursor).toBeNull();
    expect(data.map((entry) => entry['type'])).toEqual(['turnStarted', 'item', 'item', 'turnCompleted']);
    const positions = data.map((entry) => entry['position'] as number);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(new Set(positions).size).toBe(positions.length);
    expect(data[0]).toMatchObject({ turnId, turn_id: turnId, startedAt: expect.any(Number) as unknown });
    expect(data[3]).toMatchObject({ turnId, status: 'completed', error: null, durationMs: expect.any(Number) as unknown });
    expect(data.slice(1, 3).map((entry) => (entry['item'] as { type: string }).type)).toEqual(['userMessage', 'agentMessage']);

    const first = (await client.request('thread/timeline/list', { threadId, limit: 3 })) as { data: unknown[]; nextCursor: string };
    const rest = (await client.request('thread/timeline/list', { threadId, cursor: first.nextCursor })) as { data: unknown[]; nextCursor: string | null };
    expect([...first.data, ...rest.data]).toEqual(data);
    expect(rest.nextCursor).toBeNull();
    expect(client.schemaFailures).toEqual([]);
  });
});

describe('server and turn tools', () => {
  it('server/diagnostics answers this process and its gauges', async () => {
    await threadWithOneTurn();
    const diagnostics = (await client.request('server/diagnostics', {})) as { process: Record<string, unknown>; gauges: { name: string; value: number }[] };
    expect(diagnostics.process).toEqual({ id: process.pid, residentMemoryBytes: expect.any(Number) as unknown, physicalFootprintBytes: null });
    const gauges = Object.fromEntries(diagnostics.gauges.map((gauge) => [gauge.name, gauge.value]));
    expect(gauges).toEqual({ 'app.requests.in_flight': 1, 'app.connections': 1, 'app.threads.loaded': 1, 'app.event_loop.delay_p99_us': expect.any(Number) as unknown, 'app.event_loop.delay_max_us': expect.any(Number) as unknown });
    // Skein's own gauges: how late the event loop ran since the previous reading.
    expect(gauges['app.event_loop.delay_p99_us']).toBeGreaterThanOrEqual(0);
    expect(gauges['app.event_loop.delay_max_us']).toBeGreaterThanOrEqual(0);
    expect(client.schemaFailures).toEqual([]);
  });

  it('turn/settings/update is refused as Codex refuses it without step_model_switching, and with it too', async () => {
    const { threadId, turnId } = await threadWithOneTurn();
    expect(await client.requestReply('turn/settings/update', { threadId, turnId, model: 'gpt-5.6-terra' })).toEqual({
      error: { code: -32600, message: 'turn settings updates require the step_model_switching feature' },
    });
    expect(await client.requestReply('turn/settings/update', { threadId: '019a0000-0000-7000-8000-000000000000', turnId })).toEqual({ error: { code: -32600, message: 'thread not found: 019a0000-0000-7000-8000-000000000000' } });
    // With the feature on, Skein says it cannot change a running turn rather than answer a change it would not make.
    const { thread } = (await client.request('thread/start', { cwd: home.workspace, config: { 'features.step_model_switching': true } })) as { thread: { id: string } };
    expect(await client.requestReply('turn/settings/update', { threadId: thread.id, turnId, model: 'gpt-5.6-terra' })).toMatchObject({ error: { code: -32600, message: expect.stringContaining('not supported by this server') as unknown } });
  });

  it('feedback/save writes an owner-only zip with the report, its manifest and the thread’s rollout when logs are asked for', async () => {
    const { threadId } = await threadWithOneTurn();
    const savePath = path.join(home.home, 'feedback.zip');
    const missing = path.join(home.home, 'no-such.log');
    const saved = (await client.request('feedback/save', { classification: 'bug', reason: 'It broke', savePath, threadId, includeLogs: true, extraLogFiles: [missing], tags: { area: 'tui' } })) as Record<string, unknown>;
    expect(saved).toEqual({ savedPath: savePath, threadId, promptHash: null });
    expect(statSync(savePath).mode & 0o777).toBe(0o600);
    const files = unzipSync(readFileSync(savePath));
    expect(Object.keys(files).sort()).toEqual(['manifest.json', 'report.json', 'rollout.jsonl']);
    expect(JSON.parse(strFromU8(files['report.json']!))).toMatchObject({ classification: 'bug', reason: 'It broke', threadId, tags: { area: 'tui' } });
    expect(JSON.parse(strFromU8(files['manifest.json']!))).toEqual([
      { name: 'rollout.jsonl', source: expect.stringMatching(/\.jsonl$/) as unknown, included: true },
      { name: 'logs/1-no-such.log', source: missing, included: false, reason: 'ENOENT' },
    ]);
    expect(strFromU8(files['rollout.jsonl']!)).toContain('"session_meta"');

    expect(await client.requestReply('feedback/save', { classification: 'bug', savePath: 'relative.zip' })).toEqual({ error: { code: -32600, message: 'savePath must be an absolute path: relative.zip' } });
    expect(await client.requestReply('feedback/save', { classification: 'bug', savePath: path.join(home.home, 'no-dir', 'x.zip') })).toMatchObject({ error: { code: -32600 } });
    expect(client.schemaFailures).toEqual([]);
  });
});
