// `thread/settings/update` (issue #13), as Codex 0.171.0 answers it (probed): `{}`, then
// `thread/settings/updated {threadId, threadSettings}` to the thread's subscribers; the settings apply
// to the thread's later turns, never to the one running. In process with the mock model; every
// message is schema-checked by the test client.
import {
  assistantMessage,
  completed,
  held,
  mockProviderConfigToml,
  sse,
  startMockResponsesServer,
  type AppServerTestClient,
  type MockResponsesServer,
} from '@skein/test-support';
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

const text = (value: string) => [{ type: 'text', text: value, text_elements: [] }];

async function startThread(params: Record<string, unknown> = {}): Promise<string> {
  const { thread } = (await client.request('thread/start', { cwd: home.workspace, approvalPolicy: 'never', sandbox: 'workspace-write', ...params })) as { thread: { id: string } };
  await client.waitFor('thread/started', (params) => (params as { thread: { id: string } }).thread.id === thread.id);
  return thread.id;
}

async function runTurn(threadId: string, params: Record<string, unknown> = {}): Promise<void> {
  const { turn } = (await client.request('turn/start', { threadId, input: text('Go'), ...params })) as { turn: { id: string } };
  await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === turn.id);
}

/** Sends `thread/settings/update` and resolves to its answer and the settings of the notification it caused. */
async function updateSettings(threadId: string, params: Record<string, unknown>): Promise<{ result: unknown; settings: Record<string, unknown> }> {
  const earlier = new Set(client.notificationsOf('thread/settings/updated'));
  const result = await client.request('thread/settings/update', { threadId, ...params });
  const note = (await client.waitFor('thread/settings/updated', (params) => !earlier.has(params) && (params as { threadId: string }).threadId === threadId)) as { threadSettings: Record<string, unknown> };
  return { result, settings: note.threadSettings };
}

const WORKSPACE_WRITE = { type: 'workspaceWrite', writableRoots: [], networkAccess: false, excludeTmpdirEnvVar: false, excludeSlashTmp: false };

describe('thread/settings/update', () => {
  it('answers {}, then sends thread/settings/updated with every setting of the next turn, as Codex does', async () => {
    const threadId = await startThread();
    const from = client.notifications.length;
    const { result, settings } = await updateSettings(threadId, { model: 'gpt-5.6-terra', effort: 'high', summary: 'concise', approvalPolicy: 'on-request', personality: 'pragmatic', disabledPluginIds: ['p1'] });
    expect(result).toEqual({});
    expect(settings).toEqual({
      cwd: home.workspace,
      environments: [{ environmentId: 'local', cwd: home.workspace, runtimeWorkspaceRoots: [home.workspace] }],
      approvalPolicy: 'on-request',
      approvalsReviewer: 'user',
      // thread/start's sandbox is kept: a change layers over the thread's settings so far.
      sandboxPolicy: WORKSPACE_WRITE,
      activePermissionProfile: null,
      model: 'gpt-5.6-terra',
      modelProvider: 'mock',
      serviceTier: null,
      effort: 'high',
      summary: 'concise',
      collaborationMode: { mode: 'default', settings: { model: 'gpt-5.6-terra', reasoning_effort: 'high', developer_instructions: null } },
      multiAgentMode: 'explicitRequestOnly',
      personality: 'pragmatic',
      disabledPluginIds: ['p1'],
    });
    expect(client.notifications.slice(from).map((note) => note.method)).toEqual(['thread/settings/updated']);
    const { thread } = (await client.request('thread/read', { threadId })) as { thread: { model: string; reasoningEffort: string } };
    expect(thread).toMatchObject({ model: 'gpt-5.6-terra', reasoningEffort: 'high' });
    expect(client.schemaFailures).toEqual([]);
  });

  it('applies to the next turn: its model request carries the new model, effort and summary; a later turn/start override keeps them', async () => {
    model.expect([sse(assistantMessage('Before.'), completed()), sse(assistantMessage('After.'), completed()), sse(assistantMessage('Later.'), completed())]);
    const threadId = await startThread();
    await runTurn(threadId);
    await updateSettings(threadId, { model: 'gpt-5.6-terra', effort: 'high', summary: 'detailed' });
    await runTurn(threadId);
    await runTurn(threadId, { approvalPolicy: 'untrusted' });
    const [before, after, later] = model.requests.map((request) => request.body as unknown as { model: string; reasoning?: { effort?: string; summary?: string } });
    expect(before!.model).toBe('gpt-5.5');
    expect(before!.reasoning?.effort).not.toBe('high');
    expect(after!.model).toBe('gpt-5.6-terra');
    expect(after!.reasoning).toMatchObject({ effort: 'high', summary: 'detailed' });
    // turn/start's own override layers over the thread's settings rather than replacing them.
    expect(later!.model).toBe('gpt-5.6-terra');
    expect(later!.reasoning).toMatchObject({ effort: 'high' });
  });

  it('is also sent by a turn/start whose overrides change the settings, before the turn starts, and not by one that changes nothing', async () => {
    model.expect([sse(assistantMessage('High.'), completed()), sse(assistantMessage('Same.'), completed())]);
    const threadId = await startThread();
    const from = client.notifications.length;
    await runTurn(threadId, { effort: 'high' });
    const methods = client.notifications.slice(from).map((note) => note.method);
    // Codex 0.171.0's order: the settings, then the turn's own notifications.
    expect(methods.slice(0, 3)).toEqual(['thread/settings/updated', 'thread/status/changed', 'turn/started']);
    expect(client.notificationsOf('thread/settings/updated').at(-1)).toMatchObject({ threadId, threadSettings: { effort: 'high', model: 'gpt-5.5' } });
    const again = client.notifications.length;
    await runTurn(threadId, { effort: 'high' });
    expect(client.notifications.slice(again).map((note) => note.method)).not.toContain('thread/settings/updated');
    expect(client.schemaFailures).toEqual([]);
  });

  it('never changes the running turn: a change made while a turn runs applies from the next turn on', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    model.expect([held(sse(assistantMessage('Running.'), completed()), { before: 'start', until: gate }), sse(assistantMessage('Next.'), completed())]);
    const threadId = await startThread();
    const { turn } = (await client.request('turn/start', { threadId, input: text('Go') })) as { turn: { id: string } };
    await client.waitFor('turn/started');
    const { result, settings } = await updateSettings(threadId, { model: 'gpt-5.6-terra', effort: 'high' });
    expect(result).toEqual({});
    expect(settings).toMatchObject({ model: 'gpt-5.6-terra', effort: 'high' });
    // The running turn still reports, and runs with, what it started with.
    expect(((await client.request('thread/read', { threadId })) as { thread: { model: string } }).thread.model).toBe('gpt-5.5');
    release();
    await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === turn.id);
    await runTurn(threadId);
    expect(model.requests.map((request) => request.body!.model)).toEqual(['gpt-5.5', 'gpt-5.6-terra']);
    expect((model.requests[1]!.body as unknown as { reasoning: unknown }).reasoning).toMatchObject({ effort: 'high' });
  });

  it('selects a built-in permission profile by id and a sandbox policy, reporting each', async () => {
    const threadId = await startThread();
    expect((await updateSettings(threadId, { permissions: ':read-only' })).settings).toMatchObject({ sandboxPolicy: { type: 'readOnly', networkAccess: false }, activePermissionProfile: { id: ':read-only', extends: null } });
    expect((await updateSettings(threadId, { sandboxPolicy: { type: 'dangerFullAccess' } })).settings).toMatchObject({ sandboxPolicy: { type: 'dangerFullAccess' }, activePermissionProfile: null });
  });

  it('refuses an unknown thread with -32600 `thread not found: <id>`', async () => {
    const threadId = '01a22c4e-0203-7f51-a38a-d99c4dbdd200';
    expect(await client.requestReply('thread/settings/update', { threadId, model: 'gpt-5.5' })).toEqual({ error: { code: -32600, message: `thread not found: ${threadId}` } });
  });

  it('refuses what it cannot honour before changing anything: both permissions and sandboxPolicy, an unknown profile, a reviewer, plan mode, a bad value', async () => {
    const threadId = await startThread();
    const refusals: [Record<string, unknown>, string][] = [
      [{ permissions: ':workspace', sandboxPolicy: { type: 'readOnly' } }, '`permissions` cannot be combined with `sandboxPolicy`'],
      [{ permissions: 'mine' }, 'failed to load configuration: default_permissions requires a `[permissions]` table'],
      [{ approvalsReviewer: 'auto_review' }, 'approvalsReviewer `auto_review` is not supported by this server; approvals go to the user'],
      [{ collaborationMode: { mode: 'plan', settings: { model: 'gpt-5.5' } } }, 'collaboration mode `plan` is not supported by this server'],
    ];
    for (const [params, message] of refusals) {
      expect(await client.requestReply('thread/settings/update', { threadId, ...params })).toEqual({ error: { code: -32600, message } });
    }
    expect(await client.requestReply('thread/settings/update', { threadId, summary: 'loud' })).toMatchObject({ error: { code: -32600 } });
    expect(client.notificationsOf('thread/settings/updated')).toEqual([]);
  });

  // Probed against Codex 0.171.0: the thread keeps any tier a client names (`fast` is `priority`;
  // null is `default`); only `priority` and `flex` reach the request, as `service_tier` after `stream`.
  it('keeps the service tier a client chose and sends it as service_tier; serviceTierForTurn is for one turn only', async () => {
    model.expect(['one', 'two', 'three', 'four', 'five', 'six'].map((answer) => sse(assistantMessage(answer), completed())));
    const threadId = await startThread({ serviceTier: 'flex' });
    const tierOf = (index: number) => (model.requests[index]!.json as Record<string, unknown>)['service_tier'];
    const lastSettings = () => (client.notificationsOf('thread/settings/updated').at(-1) as { threadSettings: { serviceTier: unknown } } | undefined)?.threadSettings.serviceTier;
    await runTurn(threadId);
    expect(tierOf(0)).toBe('flex');
    await runTurn(threadId, { serviceTier: 'fast' });
    expect(tierOf(1)).toBe('priority');
    expect(lastSettings()).toBe('priority');
    await runTurn(threadId, { serviceTierForTurn: 'default' });
    expect(model.requests[2]!.json).not.toHaveProperty('service_tier');
    await runTurn(threadId);
    expect(tierOf(3)).toBe('priority');
    // Codex's TUI sends `serviceTier: null` to clear it: the thread's tier becomes `default`.
    await runTurn(threadId, { serviceTier: null });
    expect(lastSettings()).toBe('default');
    expect(model.requests[4]!.json).not.toHaveProperty('service_tier');
    // A tier the API does not know is kept and reported, and runs at the default speed.
    expect((await updateSettings(threadId, { serviceTier: 'ultra' })).settings).toMatchObject({ serviceTier: 'ultra' });
    await runTurn(threadId);
    expect(model.requests[5]!.json).not.toHaveProperty('service_tier');
    expect(Object.keys(model.requests[1]!.json as object).slice(0, 3)).toEqual(['model', 'stream', 'service_tier']);
    expect(client.schemaFailures).toEqual([]);
  });

  // Codex's TUI runs its title-generation turn this way: `turn/start {permissions: ":read-only"}`.
  it('takes a permission profile on turn/start: the turn runs under it and the settings report it by id', async () => {
    model.expect([sse(assistantMessage('Title.'), completed())]);
    const threadId = await startThread();
    await runTurn(threadId, { permissions: ':read-only' });
    expect(client.notificationsOf('thread/settings/updated').at(-1)).toMatchObject({
      threadId,
      threadSettings: { sandboxPolicy: { type: 'readOnly' }, activePermissionProfile: { id: ':read-only', extends: null } },
    });
    const context = JSON.stringify(model.requests[0]!.body!.input);
    expect(context).toContain('Sandbox: read-only.');
    expect(await client.requestReply('turn/start', { threadId, input: text('Go'), permissions: 'mine' })).toEqual({
      error: { code: -32600, message: 'failed to load configuration: default_permissions requires a `[permissions]` table' },
    });
    expect(await client.requestReply('turn/start', { threadId, input: text('Go'), permissions: ':workspace', sandboxPolicy: { type: 'readOnly' } })).toEqual({
      error: { code: -32600, message: '`permissions` cannot be combined with `sandboxPolicy`' },
    });
  });
});
