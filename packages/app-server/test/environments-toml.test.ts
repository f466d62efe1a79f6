// `$CODEX_HOME/environments.toml` as a client sees it: the app-server registers each executor at
// start (real exec-server processes: one on a loopback port with a capability token, one started
// over stdio), a thread started without `environments` attaches them with the default as the
// primary, an unreachable one is reported by `environment/status` without stopping the server, and
// a bad file refuses to start with Codex's error text.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { assistantMessage, completed, functionCall, mockProviderConfigToml, sse, startMockResponsesServer, type AppServerTestClient, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, makeHome, spawnStdioClient, type TestHome } from './support/app-server-harness.js';
import { EXEC_SERVER_BIN, EXEC_TOKEN, MARKER, closedPort, startExecServer as startExecServerIn } from './support/exec-servers.js';


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

const writeEnvironments = (text: string) => writeFileSync(path.join(home.home, 'environments.toml'), text);

async function appServer(): Promise<AppServerTestClient> {
  const client = spawnStdioClient(home);
  clients.push(client);
  await client.initialize();
  return client;
}

const text = (value: string) => [{ type: 'text', text: value, text_elements: [] }];

/** `environment/status` once no connection attempt is under way: start-up connects in the background, `pending` until then. */
async function settledStatus(client: AppServerTestClient, environmentId: string): Promise<unknown> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const status = (await client.request('environment/status', { environmentId })) as { status: string };
    if (status.status !== 'pending' || Date.now() > deadline) return status;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function runTurn(client: AppServerTestClient, threadId: string, prompt: string): Promise<{ turn: { status: string } }> {
  const { turn } = (await client.request('turn/start', { threadId, input: text(prompt) })) as { turn: { id: string } };
  return (await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === turn.id)) as { turn: { status: string } };
}

describe('environments.toml', () => {
  it('registers its executors at start and attaches them, the default first, to a thread started without environments', async () => {
    const executor = await startExecServer('executor');
    const port = await closedPort();
    writeEnvironments(
      [
        'default = "remote"',
        '[[environments]]',
        'id = "remote"',
        `url = "${executor.url}"`,
        `auth_bearer_token = "${EXEC_TOKEN}"`,
        '[[environments]]',
        'id = "dead"',
        `url = "ws://127.0.0.1:${port}"`,
        'connect_timeout_sec = 2',
      ].join('\n'),
    );
    model.expect([
      sse(
        functionCall('exec_command', { cmd: `echo "[$${MARKER}]"; pwd` }, { callId: 'call_primary' }),
        functionCall('exec_command', { cmd: `echo "[$${MARKER}]"`, environment_id: 'local' }, { callId: 'call_local' }),
        completed(),
      ),
      sse(assistantMessage('Done.'), completed()),
    ]);
    // The unreachable executor does not stop the server from starting.
    const client = await appServer();
    expect(await settledStatus(client, 'remote')).toEqual({ status: 'ready' });
    const dead = (await settledStatus(client, 'dead')) as { status: string; error: string };
    expect(dead.status).toBe('disconnected');
    expect(dead.error).toMatch(new RegExp(`^exec-server connection attempt failed: cannot connect to ws://127\\.0\\.0\\.1:${port}/: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}$`));
    expect(await client.request('environment/info', { environmentId: 'remote' })).toMatchObject({ cwd: `file://${executor.root}` });

    const started = (await client.request('thread/start', { cwd: executor.root, approvalPolicy: 'never', sandbox: 'danger-full-access' })) as { thread: { id: string; environments: unknown } };
    expect(started.thread.environments).toEqual([
      { environmentId: 'remote', cwd: executor.root, runtimeWorkspaceRoots: [executor.root] },
      { environmentId: 'local', cwd: executor.root, runtimeWorkspaceRoots: [executor.root] },
    ]);
    const warning = (await client.waitFor('warning')) as { threadId: string; message: string };
    expect(warning).toMatchObject({ threadId: started.thread.id });
    expect(warning.message).toContain('environment `dead` was skipped');

    expect((await runTurn(client, started.thread.id, 'Where are you?')).turn.status).toBe('completed');
    // The marker exists only in the exec-server's environment, so the primary's command ran there.
    expect(model.requests[1]!.toolOutputText('call_primary')).toMatch(new RegExp(`Output:\\n\\[executor\\]\\n${executor.root}\\n$`));
    expect(model.requests[1]!.toolOutputText('call_local')).toMatch(/Output:\n\[\]\n$/);
    expect(client.schemaFailures).toEqual([]);
  });

  it('starts a `program` executor and speaks to it over stdio', async () => {
    const root = path.join(path.dirname(home.workspace), 'spawned');
    mkdirSync(root);
    writeEnvironments(
      [
        'include_local = false',
        '[[environments]]',
        'id = "spawned"',
        `program = ${JSON.stringify(process.execPath)}`,
        `args = [${JSON.stringify(EXEC_SERVER_BIN)}, "--listen", "stdio"]`,
        `cwd = ${JSON.stringify(root)}`,
        `env = { ${MARKER} = "over-stdio" }`,
        '[[environments]]',
        'id = "missing"',
        'program = "/nonexistent/skein-exec-server"',
      ].join('\n'),
    );
    model.expect([sse(functionCall('exec_command', { cmd: `echo "[$${MARKER}]"; pwd` }, { callId: 'call_where' }), completed()), sse(assistantMessage('Done.'), completed())]);
    const client = await appServer();
    expect(await settledStatus(client, 'spawned')).toEqual({ status: 'ready' });
    const missing = (await settledStatus(client, 'missing')) as { status: string; error: string };
    expect(missing.status).toBe('disconnected');
    expect(missing.error).toMatch(/^exec-server connection attempt failed: could not connect to `\/nonexistent\/skein-exec-server`: .*ENOENT/);
    const started = (await client.request('thread/start', { cwd: root, approvalPolicy: 'never', sandbox: 'danger-full-access' })) as { thread: { id: string; environments: unknown } };
    expect(started.thread.environments).toEqual([{ environmentId: 'spawned', cwd: root, runtimeWorkspaceRoots: [root] }]);
    expect(((await client.waitFor('warning')) as { message: string }).message).toContain('environment `missing` was skipped');
    // include_local = false: this machine is no environment of the server.
    expect(await client.request('environment/status', { environmentId: 'local' })).toEqual({ status: 'unknown', error: 'unknown environment id `local`' });
    const refused = await client.requestReply('thread/start', { environments: [{ environmentId: 'local', cwd: root }] });
    expect(refused).toMatchObject({ error: { code: -32600, data: { environmentId: 'local', reason: 'unknownEnvironment' } } });
    expect((await runTurn(client, started.thread.id, 'Where are you?')).turn.status).toBe('completed');
    expect(model.requests[1]!.toolOutputText('call_where')).toMatch(new RegExp(`Output:\\n\\[over-stdio\\]\\n${root}\\n$`));
    expect(client.schemaFailures).toEqual([]);
  });

  it('connects lazily: an executor that comes up after the server started is used once asked for', async () => {
    const port = await closedPort();
    writeEnvironments(['default = "later"', '[[environments]]', 'id = "later"', `url = "ws://127.0.0.1:${port}"`].join('\n'));
    const client = await appServer();
    expect(await settledStatus(client, 'later')).toMatchObject({ status: 'disconnected' });
    const root = path.join(path.dirname(home.workspace), 'later');
    mkdirSync(root);
    const child = spawn(process.execPath, [EXEC_SERVER_BIN, '--listen', `ws://127.0.0.1:${port}`], { cwd: root, env: { PATH: process.env.PATH, HOME: root }, stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(child);
    await once(createInterface({ input: child.stdout }), 'line');
    expect(await client.request('environment/status', { environmentId: 'later' })).toEqual({ status: 'ready' });
    const started = (await client.request('thread/start', { cwd: root })) as { thread: { environments: unknown } };
    expect(started.thread.environments).toEqual([
      { environmentId: 'later', cwd: root, runtimeWorkspaceRoots: [root] },
      { environmentId: 'local', cwd: root, runtimeWorkspaceRoots: [root] },
    ]);
    // A client's environment/add of a configured id replaces it.
    const other = await startExecServer('other');
    await client.request('environment/add', { environmentId: 'later', execServerUrl: other.url, authBearerToken: EXEC_TOKEN });
    expect(await client.request('environment/info', { environmentId: 'later' })).toMatchObject({ cwd: `file://${other.root}` });
    expect(client.schemaFailures).toEqual([]);
  });

  it('reports `pending` while the start-up connection is under way, then the failure', async () => {
    // Accepts the TCP connection and never answers the upgrade: the attempt lasts until its timeout,
    // long enough that a loaded machine still asks while it runs.
    // The attempt alone takes its 4 s timeout, so the test gets more than the default 5 s.
    const held = new Set<Socket>();
    const silent = createServer((socket) => {
      held.add(socket);
      socket.on('error', () => undefined);
    });
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const port = (silent.address() as { port: number }).port;
    writeEnvironments(['[[environments]]', 'id = "slow"', `url = "ws://127.0.0.1:${port}"`, 'connect_timeout_sec = 4'].join('\n'));
    const client = await appServer();
    await expect.poll(() => held.size, { timeout: 5000 }).toBeGreaterThan(0);
    expect(await client.request('environment/status', { environmentId: 'slow' })).toEqual({ status: 'pending' });
    const settled = (await settledStatus(client, 'slow')) as { status: string; error: string };
    expect(settled.status).toBe('disconnected');
    expect(settled.error).toMatch(/^exec-server connection attempt failed: no answer from ws:\/\/127\.0\.0\.1:\d+\/ within 4000 ms$/);
    for (const socket of held) socket.destroy();
    silent.close();
    expect(client.schemaFailures).toEqual([]);
  }, 20_000);

  it('reconnects a configured executor that came back when a thread next uses it, and tells the thread', async () => {
    const port = await closedPort();
    const root = path.join(path.dirname(home.workspace), 'flaky');
    mkdirSync(root);
    const listen = async (name: string): Promise<ChildProcess> => {
      const child = spawn(process.execPath, [EXEC_SERVER_BIN, '--listen', `ws://127.0.0.1:${port}`], { cwd: root, env: { PATH: process.env.PATH, HOME: root, [MARKER]: name }, stdio: ['ignore', 'pipe', 'inherit'] });
      children.push(child);
      await once(createInterface({ input: child.stdout }), 'line');
      return child;
    };
    const first = await listen('first');
    writeEnvironments(['default = "flaky"', 'include_local = false', '[[environments]]', 'id = "flaky"', `url = "ws://127.0.0.1:${port}"`].join('\n'));
    model.expect([
      sse(functionCall('exec_command', { cmd: `echo "[$${MARKER}]"` }, { callId: 'call_again' }), completed()),
      sse(assistantMessage('Back.'), completed()),
    ]);
    const client = await appServer();
    expect(await settledStatus(client, 'flaky')).toEqual({ status: 'ready' });
    const started = (await client.request('thread/start', { cwd: root, approvalPolicy: 'never', sandbox: 'danger-full-access' })) as { thread: { id: string } };
    const threadId = started.thread.id;
    first.kill('SIGKILL');
    expect(await client.waitFor('thread/environment/disconnected')).toEqual({ threadId, environmentId: 'flaky' });

    await listen('second');
    // The turn's command finds the connection closed and connects again, as environments.toml says how.
    expect((await runTurn(client, threadId, 'Are you back?')).turn.status).toBe('completed');
    expect(await client.waitFor('thread/environment/connected')).toEqual({ threadId, environmentId: 'flaky' });
    expect(model.requests[1]!.toolOutputText('call_again')).toMatch(/Output:\n\[second\]\n$/);
    expect(await client.request('environment/status', { environmentId: 'flaky' })).toEqual({ status: 'ready' });
    expect(client.schemaFailures).toEqual([]);
  });

  it('gives a thread no environment with default = "none"', async () => {
    writeEnvironments('default = "none"\n');
    const client = await appServer();
    const started = (await client.request('thread/start', { cwd: home.workspace })) as { thread: { environments: unknown } };
    expect(started.thread.environments).toEqual([]);
  });

  it('refuses to start on a bad file, with Codex error text', async () => {
    writeEnvironments('[[environments]]\nid = "local"\nurl = "ws://127.0.0.1:1"\n');
    const child = spawn(process.execPath, [BIN], { cwd: home.workspace, env: home.env, stdio: ['pipe', 'ignore', 'pipe'] });
    children.push(child);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).not.toBe(0);
    expect(stderr).toContain(`exec-server protocol error: failed to parse environment config \`${path.join(home.home, 'environments.toml')}\`: environment id \`local\` is reserved`);
  });
});
