// Remote environments as a client sees them: `environment/add` connects to a real exec-server
// process (its own bin, on a loopback port, with a capability token), `environment/status` and
// `environment/info` describe it, and a thread started on it runs its commands and patches there.
// Every message is checked against Codex's schema by the test client.
import { spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  assistantMessage,
  completed,
  customToolCall,
  functionCall,
  mockProviderConfigToml,
  sse,
  startMockResponsesServer,
  type AppServerTestClient,
  type MockResponsesServer,
} from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, spawnStdioClient, type TestHome } from './support/app-server-harness.js';
import { EXEC_TOKEN, MARKER, closedPort, startExecServer as startExecServerIn } from './support/exec-servers.js';

/** Whether bubblewrap can give a process a tmpfs of its own here (it needs user namespaces). */
const BWRAP = spawnSync('bwrap', ['--dev-bind', '/', '/', '--tmpfs', os.tmpdir(), 'true']).status === 0;

let model: MockResponsesServer;
let home: TestHome;
const children: ChildProcess[] = [];
const clients: AppServerTestClient[] = [];

beforeEach(async () => {
  model = await startMockResponsesServer();
  home = makeHome(mockProviderConfigToml(model.url));
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill();
  await model.close();
  home.cleanup();
});

/** Starts an exec-server beside the workspace (see support/exec-servers.ts); stopped after the test. */
const startExecServer = (name: string, wrap?: (root: string) => readonly string[]) => startExecServerIn(path.dirname(home.workspace), name, children, wrap);

/**
 * Starts `skein-exec-server` on a free loopback port with a capability token; resolves to its URL.
 * `wrap` is a command line it runs under (e.g. bubblewrap giving it a file system view of its own).
 */
async function appServer(): Promise<AppServerTestClient> {
  const client = spawnStdioClient(home);
  clients.push(client);
  await client.initialize();
  return client;
}

async function refusal(client: AppServerTestClient, method: string, params: unknown): Promise<{ code: number; message: string; data?: unknown }> {
  const reply = await client.requestReply(method, params);
  if (!('error' in reply)) throw new Error(`${method} should fail, but answered ${JSON.stringify(reply.result)}`);
  return reply.error;
}

const text = (value: string) => [{ type: 'text', text: value, text_elements: [] }];

async function runTurn(client: AppServerTestClient, threadId: string, prompt: string): Promise<{ turn: { status: string } }> {
  const { turn } = (await client.request('turn/start', { threadId, input: text(prompt) })) as { turn: { id: string } };
  return (await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === turn.id)) as { turn: { status: string } };
}

describe('environment/add, environment/status and environment/info', () => {
  it('answers each bad executor with a typed error naming the environment and registers none of them', async () => {
    const executor = await startExecServer('executor');
    const client = await appServer();
    const port = await closedPort();
    // Accepts the TCP connection and never answers the upgrade: only the timeout ends the wait.
    const held = new Set<Socket>();
    const silent = createServer((socket) => {
      held.add(socket);
      socket.on('error', () => undefined);
    });
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const silentPort = (silent.address() as { port: number }).port;
    const cases = [
      { params: { environmentId: 'wrong-token', execServerUrl: executor.url, authBearerToken: 'not-the-token' }, code: -32600, reason: 'unauthorized' },
      { params: { environmentId: 'no-token', execServerUrl: executor.url }, code: -32600, reason: 'unauthorized' },
      { params: { environmentId: 'not-a-url', execServerUrl: 'not a url' }, code: -32600, reason: 'invalidUrl' },
      { params: { environmentId: 'http-url', execServerUrl: `http://127.0.0.1:${port}` }, code: -32600, reason: 'invalidUrl' },
      { params: { environmentId: 'unreachable', execServerUrl: `ws://127.0.0.1:${port}`, connectTimeoutMs: 2000 }, code: -32603, reason: 'unreachable' },
      { params: { environmentId: 'silent', execServerUrl: `ws://127.0.0.1:${silentPort}`, connectTimeoutMs: 300 }, code: -32603, reason: 'timeout' },
      { params: { environmentId: 'local', execServerUrl: executor.url, authBearerToken: EXEC_TOKEN }, code: -32600, reason: 'reservedId' },
      { params: { environmentId: 'far', execServerUrl: 'ws://192.0.2.1:4500', authBearerToken: EXEC_TOKEN }, code: -32600, reason: 'insecureToken' },
    ];
    for (const { params, code, reason } of cases) {
      const error = await refusal(client, 'environment/add', params);
      expect(error, params.environmentId).toMatchObject({ code, data: { environmentId: params.environmentId, reason } });
      expect(error.message).toContain(`\`${params.environmentId}\``);
      if (params.environmentId !== 'local') {
        expect(await client.request('environment/status', { environmentId: params.environmentId })).toEqual({ status: 'unknown', error: `unknown environment id \`${params.environmentId}\`` });
      }
    }
    for (const socket of held) socket.destroy();
    silent.close();
    expect(await refusal(client, 'environment/info', { environmentId: 'unreachable' })).toMatchObject({ code: -32600, data: { environmentId: 'unreachable', reason: 'unknownEnvironment' } });
    expect(client.schemaFailures).toEqual([]);
  });

  it('connects to an exec-server with its token and describes it from its own answer', async () => {
    const executor = await startExecServer('executor');
    const client = await appServer();
    expect(await client.request('environment/add', { environmentId: 'remote', execServerUrl: executor.url, authBearerToken: EXEC_TOKEN })).toEqual({});
    expect(await client.request('environment/status', { environmentId: 'remote' })).toEqual({ status: 'ready' });
    expect(await client.request('environment/status', { environmentId: 'local' })).toEqual({ status: 'ready' });
    const info = (await client.request('environment/info', { environmentId: 'remote' })) as { shell: { name: string; path: string }; cwd: string | null };
    expect(info.shell.name).toBe(path.basename(info.shell.path));
    expect(info.cwd).toBe(`file://${executor.root}`);

    executor.child.kill();
    await once(executor.child, 'exit');
    await expect.poll(() => client.request('environment/status', { environmentId: 'remote' }), { timeout: 5000 }).toMatchObject({ status: 'disconnected' });
    expect(await refusal(client, 'environment/info', { environmentId: 'remote' })).toMatchObject({ code: -32603, data: { environmentId: 'remote', reason: 'disconnected' } });
    expect(client.schemaFailures).toEqual([]);
  });
});

describe('environment/status while connecting', () => {
  it('reports `pending` while an environment/add is under way, and a failed re-add leaves the entry as it was', async () => {
    const executor = await startExecServer('executor');
    const client = await appServer();
    await client.request('environment/add', { environmentId: 'remote', execServerUrl: executor.url, authBearerToken: EXEC_TOKEN });
    executor.child.kill('SIGKILL');
    await expect.poll(() => client.request('environment/status', { environmentId: 'remote' }), { timeout: 5000 }).toMatchObject({ status: 'disconnected' });

    // Accepts the TCP connection and never answers the upgrade: the re-add waits for its timeout.
    const held = new Set<Socket>();
    const silent = createServer((socket) => {
      held.add(socket);
      socket.on('error', () => undefined);
    });
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const silentUrl = `ws://127.0.0.1:${(silent.address() as { port: number }).port}`;
    const readd = client.requestReply('environment/add', { environmentId: 'remote', execServerUrl: silentUrl, connectTimeoutMs: 3000 });
    const fresh = client.requestReply('environment/add', { environmentId: 'fresh', execServerUrl: silentUrl, connectTimeoutMs: 3000 });
    await expect.poll(() => held.size, { timeout: 5000 }).toBe(2);
    expect(await client.request('environment/status', { environmentId: 'remote' })).toEqual({ status: 'pending' });
    expect(await client.request('environment/status', { environmentId: 'fresh' })).toEqual({ status: 'pending' });
    // A second add of an id being added is refused rather than raced.
    expect(await refusal(client, 'environment/add', { environmentId: 'remote', execServerUrl: silentUrl })).toMatchObject({ code: -32600, data: { environmentId: 'remote', reason: 'busy' } });

    expect(await readd).toMatchObject({ error: { code: -32603, data: { environmentId: 'remote', reason: 'timeout' } } });
    expect(await fresh).toMatchObject({ error: { code: -32603, data: { environmentId: 'fresh', reason: 'timeout' } } });
    expect(await client.request('environment/status', { environmentId: 'remote' })).toMatchObject({ status: 'disconnected' });
    expect(await client.request('environment/status', { environmentId: 'fresh' })).toEqual({ status: 'unknown', error: 'unknown environment id `fresh`' });
    for (const socket of held) socket.destroy();
    silent.close();
    expect(client.schemaFailures).toEqual([]);
  });
});

describe('threads on a remote environment', () => {
  it('runs exec_command and apply_patch on the exec-server the thread was started on', async () => {
    const executor = await startExecServer('executor');
    const project = path.join(executor.root, 'project');
    mkdirSync(project);
    const patch = ['*** Begin Patch', '*** Add File: made-remotely.txt', '+hello from the executor', '*** End Patch'].join('\n');
    model.expect([
      sse(functionCall('exec_command', { cmd: `echo "$${MARKER}"; pwd` }, { callId: 'call_where' }), completed()),
      sse(customToolCall('apply_patch', patch, { callId: 'call_patch' }), completed()),
      sse(assistantMessage('Done.'), completed()),
    ]);
    const client = await appServer();
    await client.request('environment/add', { environmentId: 'remote', execServerUrl: executor.url, authBearerToken: EXEC_TOKEN });
    const started = (await client.request('thread/start', {
      approvalPolicy: 'never',
      sandbox: 'danger-full-access',
      environments: [{ environmentId: 'remote', cwd: project }],
    })) as { thread: { id: string; environments: unknown }; cwd: string };
    expect(started.thread.environments).toEqual([{ environmentId: 'remote', cwd: project, runtimeWorkspaceRoots: [project] }]);
    expect(started.cwd).toBe(project);

    const done = await runTurn(client, started.thread.id, 'Where are you? Then add a file.');
    expect(done.turn.status).toBe('completed');
    // The marker exists only in the exec-server's environment, so the command ran there.
    expect(model.requests[1]!.toolOutputText('call_where')).toMatch(new RegExp(`Output:\\nexecutor\\n${project}\\n$`));
    expect(readFileSync(path.join(project, 'made-remotely.txt'), 'utf8')).toBe('hello from the executor\n');
    expect(existsSync(path.join(home.workspace, 'made-remotely.txt'))).toBe(false);
    const context = model.requests[0]!.messageTexts('user').find((message) => message.startsWith('<environment_context>'));
    expect(context).toContain(`<cwd>${project}</cwd>`);
    expect(client.schemaFailures).toEqual([]);
  });

  it("works in a stored environment's own cwd, not the legacy top-level cwd beside it (the seed's rule)", async () => {
    const executor = await startExecServer('executor');
    const project = path.join(executor.root, 'project');
    mkdirSync(project);
    model.expect([sse(functionCall('exec_command', { cmd: 'pwd' }, { callId: 'call_where' }), completed()), sse(assistantMessage('There.'), completed())]);
    const client = await appServer();
    await client.request('environment/add', { environmentId: 'remote', execServerUrl: executor.url, authBearerToken: EXEC_TOKEN });
    const started = (await client.request('thread/start', {
      approvalPolicy: 'never',
      sandbox: 'danger-full-access',
      cwd: home.workspace,
      environments: [{ environmentId: 'remote', cwd: project }],
    })) as { thread: { id: string }; cwd: string };
    expect(started.cwd).toBe(project);
    await runTurn(client, started.thread.id, 'Where are you?');
    expect(model.requests[1]!.toolOutputText('call_where')).toMatch(new RegExp(`Output:\\n${project}\\n$`));
    const context = model.requests[0]!.messageTexts('user').find((message) => message.startsWith('<environment_context>'));
    expect(context).toContain(`<cwd>${project}</cwd>`);
    expect(context).not.toContain(`<cwd>${home.workspace}</cwd>`);
  });

  it("never moves a named environment's cwd for a bare cwd on a later turn or settings update (the seed's rule)", async () => {
    const executor = await startExecServer('executor');
    const project = path.join(executor.root, 'sticky');
    mkdirSync(project);
    const pwd = (callId: string) => [sse(functionCall('exec_command', { cmd: 'pwd' }, { callId }), completed()), sse(assistantMessage('Here.'), completed())];
    model.expect([...pwd('call_turn'), ...pwd('call_settings')]);
    const client = await appServer();
    await client.request('environment/add', { environmentId: 'remote', execServerUrl: executor.url, authBearerToken: EXEC_TOKEN });
    const started = (await client.request('thread/start', { approvalPolicy: 'never', sandbox: 'danger-full-access', environments: [{ environmentId: 'remote', cwd: project }] })) as { thread: { id: string } };
    const threadId = started.thread.id;
    // Codex 0.171.0 moves the primary environment to such a cwd (probed); the seed keeps it.
    const { turn } = (await client.request('turn/start', { threadId, cwd: home.workspace, input: text('Where now?') })) as { turn: { id: string } };
    await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === turn.id);
    await client.request('thread/settings/update', { threadId, cwd: home.workspace });
    await runTurn(client, threadId, 'And now?');
    expect(model.requests[1]!.toolOutputText('call_turn')).toMatch(new RegExp(`Output:\\n${project}\\n$`));
    expect(model.requests[3]!.toolOutputText('call_settings')).toMatch(new RegExp(`Output:\\n${project}\\n$`));
    const contexts = model.requests[3]!.messageTexts('user').filter((message) => message.startsWith('<environment_context>'));
    expect(contexts.join('\n')).not.toContain(`<cwd>${home.workspace}</cwd>`);
  });

  it('moves a thread to a remote executor from the turn that selects it', async () => {
    const executor = await startExecServer('executor');
    model.expect([
      sse(functionCall('exec_command', { cmd: `echo "[$${MARKER}]"` }, { callId: 'call_before' }), completed()),
      sse(assistantMessage('Here.'), completed()),
      sse(functionCall('exec_command', { cmd: `echo "[$${MARKER}]"` }, { callId: 'call_after' }), completed()),
      sse(assistantMessage('There.'), completed()),
    ]);
    const client = await appServer();
    await client.request('environment/add', { environmentId: 'remote', execServerUrl: executor.url, authBearerToken: EXEC_TOKEN });
    const started = (await client.request('thread/start', { cwd: home.workspace, approvalPolicy: 'never', sandbox: 'danger-full-access' })) as { thread: { id: string; environments: unknown } };
    expect(started.thread.environments).toEqual([{ environmentId: 'local', cwd: home.workspace, runtimeWorkspaceRoots: [home.workspace] }]);
    expect((await runTurn(client, started.thread.id, 'Where?')).turn.status).toBe('completed');

    const { turn } = (await client.request('turn/start', { threadId: started.thread.id, input: text('And now?'), environments: [{ environmentId: 'remote', cwd: executor.root }] })) as { turn: { id: string } };
    await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === turn.id);
    expect(model.requests[1]!.toolOutputText('call_before')).toMatch(/Output:\n\[\]\n$/);
    expect(model.requests[3]!.toolOutputText('call_after')).toMatch(/Output:\n\[executor\]\n$/);
    expect(client.schemaFailures).toEqual([]);
  });

  it('tells the thread when its executor goes away, and keeps the thread', async () => {
    const executor = await startExecServer('executor');
    const client = await appServer();
    await client.request('environment/add', { environmentId: 'remote', execServerUrl: executor.url, authBearerToken: EXEC_TOKEN });
    const started = (await client.request('thread/start', { approvalPolicy: 'never', sandbox: 'danger-full-access', environments: [{ environmentId: 'remote', cwd: executor.root }] })) as { thread: { id: string } };
    executor.child.kill();
    expect(await client.waitFor('thread/environment/disconnected')).toEqual({ threadId: started.thread.id, environmentId: 'remote' });
    expect(await client.request('thread/loaded/list', {})).toMatchObject({ data: [started.thread.id] });
    expect(client.schemaFailures).toEqual([]);
  });

  it('ends a command whose executor dies mid-turn with an error naming it, keeps the thread, and reconnects it on a re-add', async () => {
    const executor = await startExecServer('executor');
    model.expect([
      sse(functionCall('exec_command', { cmd: 'echo started; sleep 30', yield_time_ms: 30_000 }, { callId: 'call_sleep' }), completed()),
      sse(assistantMessage('It went away.'), completed()),
      sse(functionCall('exec_command', { cmd: `echo "[$${MARKER}]"` }, { callId: 'call_gone' }), completed()),
      sse(assistantMessage('Still gone.'), completed()),
      sse(functionCall('exec_command', { cmd: `echo "[$${MARKER}]"` }, { callId: 'call_back' }), completed()),
      sse(assistantMessage('Back.'), completed()),
    ]);
    const client = await appServer();
    await client.request('environment/add', { environmentId: 'remote', execServerUrl: executor.url, authBearerToken: EXEC_TOKEN });
    const started = (await client.request('thread/start', { approvalPolicy: 'never', sandbox: 'danger-full-access', environments: [{ environmentId: 'remote', cwd: executor.root }] })) as { thread: { id: string } };
    const threadId = started.thread.id;

    const { turn } = (await client.request('turn/start', { threadId, input: text('Sleep there.') })) as { turn: { id: string } };
    await client.waitFor('item/commandExecution/outputDelta', (params) => (params as { itemId: string }).itemId === 'call_sleep');
    executor.child.kill('SIGKILL');
    // The command yields after 30 s at the earliest, past this wait's limit: the turn ends because
    // the connection closed, not because the command's time ran out.
    const done = (await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === turn.id)) as { turn: { status: string } };
    expect(done.turn.status).toBe('completed');
    const lost = model.requests[1]!.toolOutputText('call_sleep');
    expect(lost).toContain('exec_command failed: ');
    expect(lost).toContain(`(environment \`remote\` at ${new URL(executor.url).toString()}: the exec-server connection closed: WebSocket closed (`);
    expect(lost).toContain('); whether it still runs there is unknown');
    expect(lost).toContain('Output before that:\nstarted\n');
    const item = (await client.waitFor('item/completed', (params) => (params as { item: { id: string } }).item.id === 'call_sleep')) as { item: { status: string; exitCode: number | null } };
    expect(item.item).toMatchObject({ status: 'failed', exitCode: -1 });
    expect(await client.waitFor('thread/environment/disconnected')).toEqual({ threadId, environmentId: 'remote' });
    expect(await client.request('environment/status', { environmentId: 'remote' })).toMatchObject({ status: 'disconnected' });

    // The thread survives: its next turn runs, and its command fails naming the environment.
    expect((await runTurn(client, threadId, 'Try again.')).turn.status).toBe('completed');
    expect(model.requests[3]!.toolOutputText('call_gone')).toContain('environment `remote` is disconnected: the connection to the exec-server at ');

    // A fresh executor added under the same id: the thread is told, and its next command runs there.
    const reborn = await startExecServer('reborn');
    expect(await client.request('environment/add', { environmentId: 'remote', execServerUrl: reborn.url, authBearerToken: EXEC_TOKEN })).toEqual({});
    expect(await client.waitFor('thread/environment/connected')).toEqual({ threadId, environmentId: 'remote' });
    expect(await client.request('environment/status', { environmentId: 'remote' })).toEqual({ status: 'ready' });
    expect((await runTurn(client, threadId, 'And now?')).turn.status).toBe('completed');
    expect(model.requests[5]!.toolOutputText('call_back')).toMatch(/Output:\n\[reborn\]\n$/);
    expect(client.notificationsOf('thread/environment/connected')).toHaveLength(1);
    expect(client.schemaFailures).toEqual([]);
  });

  it('refuses an unknown environment id and skips an unreachable one with a warning', async () => {
    const live = await startExecServer('live');
    const dying = await startExecServer('dying');
    model.expect([sse(functionCall('exec_command', { cmd: `echo "$${MARKER}"` }, { callId: 'call_where' }), completed()), sse(assistantMessage('Done.'), completed())]);
    const client = await appServer();
    await client.request('environment/add', { environmentId: 'live', execServerUrl: live.url, authBearerToken: EXEC_TOKEN });
    await client.request('environment/add', { environmentId: 'dying', execServerUrl: dying.url, authBearerToken: EXEC_TOKEN });

    const unknown = await refusal(client, 'thread/start', { environments: [{ environmentId: 'ghost', cwd: live.root }] });
    expect(unknown).toMatchObject({ code: -32600, data: { environmentId: 'ghost', reason: 'unknownEnvironment' } });

    dying.child.kill();
    await once(dying.child, 'exit');
    await expect.poll(() => client.request('environment/status', { environmentId: 'dying' }), { timeout: 5000 }).toMatchObject({ status: 'disconnected' });
    const started = (await client.request('thread/start', {
      approvalPolicy: 'never',
      sandbox: 'danger-full-access',
      environments: [
        { environmentId: 'dying', cwd: dying.root },
        { environmentId: 'live', cwd: live.root },
      ],
    })) as { thread: { id: string; environments: unknown } };
    const warning = (await client.waitFor('warning')) as { threadId: string; message: string };
    expect(warning.threadId).toBe(started.thread.id);
    expect(warning.message).toContain('`dying`');
    expect(started.thread.environments).toEqual([{ environmentId: 'live', cwd: live.root, runtimeWorkspaceRoots: [live.root] }]);

    expect((await runTurn(client, started.thread.id, 'Where are you?')).turn.status).toBe('completed');
    expect(model.requests[1]!.toolOutputText('call_where')).toMatch(/Output:\nlive\n$/);
    expect(client.schemaFailures).toEqual([]);
  });

  it('runs a user shell command on the local environment while a remote one is primary; with only a remote one its turn fails as Codex', async () => {
    const executor = await startExecServer('executor');
    const client = await appServer();
    await client.request('environment/add', { environmentId: 'remote', execServerUrl: executor.url, authBearerToken: EXEC_TOKEN });
    const command = `echo "[$${MARKER}]"; pwd`;
    const commandItem = (threadId: string) =>
      client.waitFor('item/completed', (params) => (params as { threadId: string; item: { type: string } }).threadId === threadId && (params as { item: { type: string } }).item.type === 'commandExecution') as Promise<{
        item: { source: string; status: string; cwd: string; aggregatedOutput: string };
      }>;

    // Remote primary, this machine second in its own cwd: the command runs here (no marker), in that cwd.
    const both = (await client.request('thread/start', {
      approvalPolicy: 'never',
      sandbox: 'danger-full-access',
      environments: [
        { environmentId: 'remote', cwd: executor.root },
        { environmentId: 'local', cwd: home.workspace },
      ],
    })) as { thread: { id: string } };
    expect(await client.request('thread/shellCommand', { threadId: both.thread.id, command })).toEqual({});
    expect((await commandItem(both.thread.id)).item).toMatchObject({ source: 'userShell', status: 'completed', cwd: home.workspace, aggregatedOutput: `[]\n${home.workspace}\n` });
    expect((await client.waitFor('turn/completed', (params) => (params as { threadId: string }).threadId === both.thread.id))).toMatchObject({ turn: { status: 'completed', error: null } });
    // The model's own commands still run on the primary.
    model.expect([sse(functionCall('exec_command', { cmd: command }, { callId: 'call_model' }), completed()), sse(assistantMessage('Done.'), completed())]);
    expect((await runTurn(client, both.thread.id, 'Where?')).turn.status).toBe('completed');
    expect(model.requests[1]!.toolOutputText('call_model')).toMatch(new RegExp(`Output:\\n\\[executor\\]\\n${executor.root}\\n$`));
    // The model is told what the user ran, and where it ran.
    expect(model.requests[0]!.messageTexts('user').find((message) => message.startsWith('<user_shell_command>'))).toContain(`[]\n${home.workspace}\n`);

    // Only the remote one: Codex 0.171.0 accepts the request, then fails the turn it starts.
    const remoteOnly = (await client.request('thread/start', { approvalPolicy: 'never', sandbox: 'danger-full-access', environments: [{ environmentId: 'remote', cwd: executor.root }] })) as { thread: { id: string } };
    expect(await client.request('thread/shellCommand', { threadId: remoteOnly.thread.id, command: `touch ${path.join(executor.root, 'never.txt')}` })).toEqual({});
    const failed = (await client.waitFor('turn/completed', (params) => (params as { threadId: string }).threadId === remoteOnly.thread.id)) as { turn: { id: string } };
    const unavailable = { message: 'shell is unavailable in this session', codexErrorInfo: null, additionalDetails: null };
    expect(failed.turn).toMatchObject({ status: 'failed', error: unavailable });
    expect(client.notificationsOf('error')).toContainEqual({ threadId: remoteOnly.thread.id, turnId: failed.turn.id, willRetry: false, error: unavailable });
    expect(existsSync(path.join(executor.root, 'never.txt'))).toBe(false);
    expect(client.schemaFailures).toEqual([]);
  });

  it('refuses a cwd that is no directory on its environment with a typed error naming both, and changes nothing', async () => {
    const executor = await startExecServer('executor');
    writeFileSync(path.join(executor.root, 'a-file'), '');
    model.expect([sse(functionCall('exec_command', { cmd: `echo "[$${MARKER}]"; pwd` }, { callId: 'call_where' }), completed()), sse(assistantMessage('Done.'), completed())]);
    const client = await appServer();
    await client.request('environment/add', { environmentId: 'remote', execServerUrl: executor.url, authBearerToken: EXEC_TOKEN });
    const invalidCwd = (environmentId: string, cwd: string) => ({ code: -32600, data: { environmentId, reason: 'invalidCwd', cwd } });

    // thread/start: refused, no thread left behind (none loaded, none stored).
    const missing = await refusal(client, 'thread/start', { approvalPolicy: 'never', sandbox: 'danger-full-access', environments: [{ environmentId: 'remote', cwd: '/no/such/dir' }] });
    expect(missing).toMatchObject(invalidCwd('remote', '/no/such/dir'));
    expect(missing.message).toBe('environment `remote`: cwd `/no/such/dir` does not exist on that environment');
    const notDirectory = path.join(executor.root, 'a-file');
    const file = await refusal(client, 'thread/start', { environments: [{ environmentId: 'remote', cwd: notDirectory }] });
    expect(file).toMatchObject(invalidCwd('remote', notDirectory));
    expect(file.message).toBe(`environment \`remote\`: cwd \`${notDirectory}\` is not a directory on that environment`);
    // One bad entry refuses the whole list, even after a good one.
    const second = await refusal(client, 'thread/start', {
      environments: [
        { environmentId: 'remote', cwd: executor.root },
        { environmentId: 'local', cwd: '/no/such/local/dir' },
      ],
    });
    expect(second).toMatchObject(invalidCwd('local', '/no/such/local/dir'));
    expect(await client.request('thread/loaded/list', {})).toMatchObject({ data: [] });
    expect(await client.request('thread/list', {})).toMatchObject({ data: [] });
    expect(client.notificationsOf('thread/started')).toEqual([]);

    // turn/start: refused, the thread keeps its environments and no turn starts.
    const started = (await client.request('thread/start', { approvalPolicy: 'never', sandbox: 'danger-full-access', environments: [{ environmentId: 'remote', cwd: executor.root }] })) as { thread: { id: string } };
    const threadId = started.thread.id;
    const kept = [{ environmentId: 'remote', cwd: executor.root, runtimeWorkspaceRoots: [executor.root] }];
    const turn = await refusal(client, 'turn/start', { threadId, input: text('Where?'), environments: [{ environmentId: 'remote', cwd: '/no/such/dir' }] });
    expect(turn).toMatchObject(invalidCwd('remote', '/no/such/dir'));
    expect(turn.message).toContain('`remote`');
    expect(turn.message).toContain('`/no/such/dir`');
    expect(client.notificationsOf('turn/started')).toEqual([]);
    expect(((await client.request('thread/read', { threadId })) as { thread: { environments: unknown } }).thread.environments).toEqual(kept);
    // thread/settings/update alike.
    expect(await refusal(client, 'thread/settings/update', { threadId, environments: [{ environmentId: 'remote', cwd: '/no/such/dir' }] })).toMatchObject(invalidCwd('remote', '/no/such/dir'));
    expect(client.notificationsOf('thread/settings/updated')).toEqual([]);

    // The next turn still runs on the executor in the thread's own cwd.
    expect((await runTurn(client, threadId, 'Where?')).turn.status).toBe('completed');
    expect(model.requests[1]!.toolOutputText('call_where')).toMatch(new RegExp(`Output:\\n\\[executor\\]\\n${executor.root}\\n$`));
    expect(client.schemaFailures).toEqual([]);
  });

  it.skipIf(!BWRAP)('checks the cwd on the executor’s own file system, not this host’s (the executor under bubblewrap)', async () => {
    // `view` is empty on this host but, for the executor, a tmpfs holding only `executor-only`.
    const executor = await startExecServer('isolated', (root) => ['bwrap', '--die-with-parent', '--dev-bind', '/', '/', '--tmpfs', path.join(root, 'view'), '--dir', path.join(root, 'view', 'executor-only')]);
    const view = path.join(executor.root, 'view');
    mkdirSync(path.join(view, 'host-only'), { recursive: true });
    const client = await appServer();
    await client.request('environment/add', { environmentId: 'remote', execServerUrl: executor.url, authBearerToken: EXEC_TOKEN });

    const hostOnly = path.join(view, 'host-only');
    expect(await refusal(client, 'thread/start', { environments: [{ environmentId: 'remote', cwd: hostOnly }] })).toMatchObject({ code: -32600, data: { environmentId: 'remote', reason: 'invalidCwd', cwd: hostOnly } });
    const executorOnly = path.join(view, 'executor-only');
    expect(existsSync(executorOnly)).toBe(false);
    const started = (await client.request('thread/start', { approvalPolicy: 'never', sandbox: 'danger-full-access', environments: [{ environmentId: 'remote', cwd: executorOnly }] })) as { thread: { environments: unknown } };
    expect(started.thread.environments).toEqual([{ environmentId: 'remote', cwd: executorOnly, runtimeWorkspaceRoots: [executorOnly] }]);
    expect(client.schemaFailures).toEqual([]);
  });

  it('offers a choice of environment with two attached, and runs each call where it names', async () => {
    const first = await startExecServer('first');
    const second = await startExecServer('second');
    const patch = ['*** Begin Patch', '*** Environment ID: second', '*** Add File: only-here.txt', '+second', '*** End Patch'].join('\n');
    model.expect([
      sse(
        functionCall('exec_command', { cmd: `echo "$${MARKER}"; pwd` }, { callId: 'call_primary' }),
        functionCall('exec_command', { cmd: `echo "$${MARKER}"; pwd`, environment_id: 'second' }, { callId: 'call_second' }),
        functionCall('exec_command', { cmd: 'true', environment_id: 'elsewhere' }, { callId: 'call_unknown' }),
        completed(),
      ),
      sse(customToolCall('apply_patch', patch, { callId: 'call_patch' }), completed()),
      sse(assistantMessage('Done.'), completed()),
    ]);
    const client = await appServer();
    await client.request('environment/add', { environmentId: 'first', execServerUrl: first.url, authBearerToken: EXEC_TOKEN });
    await client.request('environment/add', { environmentId: 'second', execServerUrl: second.url, authBearerToken: EXEC_TOKEN });
    const started = (await client.request('thread/start', {
      approvalPolicy: 'never',
      sandbox: 'danger-full-access',
      environments: [
        { environmentId: 'first', cwd: first.root },
        { environmentId: 'second', cwd: second.root },
      ],
    })) as { thread: { id: string; environments: unknown } };
    expect(started.thread.environments).toEqual([
      { environmentId: 'first', cwd: first.root, runtimeWorkspaceRoots: [first.root] },
      { environmentId: 'second', cwd: second.root, runtimeWorkspaceRoots: [second.root] },
    ]);

    expect((await runTurn(client, started.thread.id, 'Look around both.')).turn).toMatchObject({ status: 'completed', error: null });
    const [request, answers, patched] = model.requests;
    const tools = (request!.body?.tools ?? []) as { name: string; parameters?: { properties: Record<string, unknown> }; format?: { definition: string } }[];
    const tool = (name: string) => tools.find((candidate) => candidate.name === name)!;
    expect(Object.keys(tool('exec_command').parameters!.properties)).toContain('environment_id');
    expect(Object.keys(tool('view_image').parameters!.properties)).toContain('environment_id');
    expect(Object.keys(tool('write_stdin').parameters!.properties)).not.toContain('environment_id');
    expect(tool('apply_patch').format!.definition).toContain('start: begin_patch environment_id? hunk+ end_patch\nenvironment_id: "*** Environment ID: " filename LF\n');
    const context = request!.messageTexts('user').find((message) => message.startsWith('<environment_context>'))!;
    expect(context).toContain(
      [
        '  <environments>',
        '    <environment id="first" primary="true">',
        `      <cwd>${first.root}</cwd>`,
        '      <shell>bash</shell>',
        '    </environment>',
        '    <environment id="second" primary="false">',
        `      <cwd>${second.root}</cwd>`,
        '      <shell>bash</shell>',
        '    </environment>',
        '  </environments>',
      ].join('\n'),
    );
    expect(answers!.toolOutputText('call_primary')).toMatch(new RegExp(`Output:\\nfirst\\n${first.root}\\n$`));
    expect(answers!.toolOutputText('call_second')).toMatch(new RegExp(`Output:\\nsecond\\n${second.root}\\n$`));
    expect(answers!.toolOutputText('call_unknown')).toContain('unknown environment id `elsewhere`');
    expect(patched!.toolOutputText('call_patch')).toContain('only-here.txt');
    expect(readFileSync(path.join(second.root, 'only-here.txt'), 'utf8')).toBe('second\n');
    expect(existsSync(path.join(first.root, 'only-here.txt'))).toBe(false);
    expect(client.schemaFailures).toEqual([]);
  });
});
