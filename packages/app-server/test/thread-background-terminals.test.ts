// `thread/backgroundTerminals/list|terminate|clean` and the requests about features Skein has none of
// (`plugin/installed` with no marketplace, `account/bedrock/checkGovCloudRequirements`), answered as
// Codex 0.171.0 answers them (probed side by side). A real `sleep` left running by exec_command is the
// background terminal; the mock model is the only fake, and every message is schema-checked.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, functionCall, mockProviderConfigToml, sse, startMockResponsesServer, type AppServerTestClient, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, startInProcess, threadsOn, type InProcessServer, type TestHome } from './support/app-server-harness.js';

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

const UNKNOWN_THREAD = '019a0000-0000-7000-8000-000000000000';

async function startThread(): Promise<string> {
  const { thread } = (await client.request('thread/start', { cwd: home.workspace, approvalPolicy: 'never', sandbox: 'danger-full-access' })) as { thread: { id: string } };
  return thread.id;
}

/** Runs a turn whose one command is still running when the turn ends. */
async function leaveCommandRunning(threadId: string, cmd: string): Promise<string> {
  model.expect([sse(functionCall('exec_command', { cmd, yield_time_ms: 300 }), completed()), sse(assistantMessage('Started it.'), completed())]);
  const { turn } = (await client.request('turn/start', { threadId, input: [{ type: 'text', text: 'Start it', text_elements: [] }] })) as { turn: { id: string } };
  await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === turn.id);
  return turn.id;
}

interface Terminal {
  itemId: string;
  processId: string;
  command: string;
  cwd: string;
}

describe('thread/backgroundTerminals', () => {
  it('lists a command left running, terminates it by process id, and completes its item under its own turn', async () => {
    const threadId = await startThread();
    expect(await client.request('thread/backgroundTerminals/list', { threadId })).toEqual({ data: [], nextCursor: null });

    const turnId = await leaveCommandRunning(threadId, 'sleep 30');
    const { data } = (await client.request('thread/backgroundTerminals/list', { threadId })) as { data: Terminal[] };
    expect(data).toEqual([{ itemId: expect.stringMatching(/^call_/) as unknown, processId: expect.stringMatching(/^\d+$/) as unknown, command: 'sleep 30', cwd: home.workspace, osPid: null, cpuPercent: null, rssKb: null }]);
    const [terminal] = data as [Terminal];

    expect(await client.request('thread/backgroundTerminals/terminate', { threadId, processId: String(Number(terminal.processId) + 1) })).toEqual({ terminated: false });
    expect(await client.request('thread/backgroundTerminals/terminate', { threadId, processId: terminal.processId })).toEqual({ terminated: true });
    const completedItem = (await client.waitFor('item/completed', (params) => (params as { item: { id: string } }).item.id === terminal.itemId)) as { turnId: string; item: Record<string, unknown> };
    expect(completedItem.turnId).toBe(turnId);
    expect(completedItem.item).toMatchObject({ type: 'commandExecution', status: 'failed', exitCode: 137 });

    expect(await client.request('thread/backgroundTerminals/list', { threadId })).toEqual({ data: [], nextCursor: null });
    expect(await client.request('thread/backgroundTerminals/terminate', { threadId, processId: terminal.processId })).toEqual({ terminated: false });
  });

  // Issue #35: the TUI's "1 background terminal running" never cleared after an interrupt.
  it('keeps an interrupted command running and listed, and completes its item with its output under its turn when it exits', async () => {
    const gate = path.join(home.workspace, 'gate');
    model.expect([sse(functionCall('exec_command', { cmd: `echo started; while [ ! -e ${gate} ]; do sleep 0.05; done; echo done`, yield_time_ms: 30_000 }, { callId: 'c1' }), completed())]);
    const threadId = await startThread();
    const { turn } = (await client.request('turn/start', { threadId, input: [{ type: 'text', text: 'Run it', text_elements: [] }] })) as { turn: { id: string } };
    await client.waitFor('item/commandExecution/outputDelta', (params) => (params as { delta: string }).delta.includes('started'));
    await client.request('turn/interrupt', { threadId, turnId: turn.id });
    await client.waitFor('turn/completed', (params) => (params as { turn: { status: string } }).turn.status === 'interrupted');

    const { data } = (await client.request('thread/backgroundTerminals/list', { threadId })) as { data: Terminal[] };
    expect(data).toEqual([{ itemId: 'c1', processId: expect.stringMatching(/^\d+$/) as unknown, command: expect.stringContaining('echo started') as unknown, cwd: home.workspace, osPid: null, cpuPercent: null, rssKb: null }]);
    writeFileSync(gate, '');
    const done = (await client.waitFor('item/completed', (params) => (params as { item: { id: string } }).item.id === 'c1')) as { turnId: string; item: Record<string, unknown> };
    expect(done.turnId).toBe(turn.id);
    expect(done.item).toMatchObject({ type: 'commandExecution', status: 'completed', exitCode: 0, aggregatedOutput: 'started\ndone\n' });
    // What it printed after the interrupt reached the client too, under its turn.
    expect(client.notificationsOf('item/commandExecution/outputDelta')).toContainEqual({ threadId, turnId: turn.id, itemId: 'c1', delta: 'done\n' });
    expect(await client.request('thread/backgroundTerminals/list', { threadId })).toEqual({ data: [], nextCursor: null });
    // The rollout keeps the command's end: a client paging the turn sees it completed.
    const items = (await client.request('thread/items/list', { threadId, turnId: turn.id })) as { data: { item: Record<string, unknown> }[] };
    expect(items.data.map((entry) => entry.item)).toContainEqual(expect.objectContaining({ type: 'commandExecution', id: 'c1', status: 'completed', exitCode: 0 }));
    expect(client.schemaFailures).toEqual([]);
  });

  it('cleans every running command at once', async () => {
    const threadId = await startThread();
    await leaveCommandRunning(threadId, 'sleep 31');
    await leaveCommandRunning(threadId, 'sleep 32');
    const listed = (await client.request('thread/backgroundTerminals/list', { threadId })) as { data: Terminal[] };
    expect(listed.data.map((terminal) => terminal.command)).toEqual(['sleep 31', 'sleep 32']);
    expect(await client.request('thread/backgroundTerminals/list', { threadId, limit: 1 })).toMatchObject({ data: [{ command: 'sleep 31' }], nextCursor: expect.any(String) as unknown });

    expect(await client.request('thread/backgroundTerminals/clean', { threadId })).toEqual({});
    expect(await client.request('thread/backgroundTerminals/list', { threadId })).toEqual({ data: [], nextCursor: null });
  });

  it('refuses a process id that is no integer, and a thread that is not loaded, in Codex’s words', async () => {
    const threadId = await startThread();
    const invalid = (message: string) => ({ error: { code: -32600, message } });
    expect(await client.requestReply('thread/backgroundTerminals/terminate', { threadId, processId: 'abc' })).toEqual(invalid('invalid background terminal process id: invalid digit found in string'));
    expect(await client.requestReply('thread/backgroundTerminals/terminate', { threadId, processId: '' })).toEqual(invalid('invalid background terminal process id: cannot parse integer from empty string'));
    expect(await client.requestReply('thread/backgroundTerminals/terminate', { threadId, processId: '99999999999' })).toEqual(invalid('invalid background terminal process id: number too large to fit in target type'));
    expect(await client.requestReply('thread/backgroundTerminals/list', { threadId: UNKNOWN_THREAD })).toEqual(invalid(`thread not found: ${UNKNOWN_THREAD}`));
    expect(await client.requestReply('thread/backgroundTerminals/clean', { threadId: 'nope' })).toEqual(
      invalid('invalid thread id: invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `n` at 1'),
    );
  });
});

describe('features Skein has none of', () => {
  it('answers "nothing set up" as Codex does without a ChatGPT login', async () => {
    expect(await client.request('plugin/installed', {})).toEqual({ marketplaces: [], marketplaceLoadErrors: [] });
    expect(await client.request('plugin/installed', { cwds: [home.workspace] })).toEqual({ marketplaces: [], marketplaceLoadErrors: [] });
    expect(await client.request('account/bedrock/checkGovCloudRequirements', {})).toEqual({ isGovCloud: false, shouldWarn: false });
    expect(await client.requestReply('account/bedrock/checkGovCloudRequirements', undefined)).toEqual({ error: { code: -32600, message: 'Invalid request: missing field `params`' } });
  });
});
