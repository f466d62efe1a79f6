// `deferred_executor` as a client and the model see it: a configured executor that is still
// connecting when a turn starts (a real stdio exec-server held behind a gate file the test opens)
// reaches the model as `starting`; `wait_for_environment` waits for it; once it is ready the model is
// told once, before the next request, and never again. A start-up that fails is reported as failed.
// With the flag off, thread/start waits for the executor instead. Recorded against Codex 0.171.0.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, functionCall, mockProviderConfigToml, sse, startMockResponsesServer, type AppServerTestClient, type CapturedRequest, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, runTurnToEnd, spawnStdioClient, type TestHome } from './support/app-server-harness.js';
import { EXEC_SERVER_BIN, MARKER } from './support/exec-servers.js';

const NO_USABLE = 'No usable execution environment is available. Wait for an environment to become available before using this tool.';

let model: MockResponsesServer;
let home: TestHome;
let root: string;
let gate: string;
const clients: AppServerTestClient[] = [];

beforeEach(async () => {
  model = await startMockResponsesServer();
  root = '';
  gate = '';
});
afterEach(async () => {
  // The executor waits for its gate: open it so the child can start and be stopped with the server.
  if (gate !== '' && !existsSync(gate)) writeFileSync(gate, '');
  for (const client of clients.splice(0)) await client.close();
  await model.close();
  home.cleanup();
});

/**
 * A server whose environments.toml names `remote` (the default, then `local`): an exec-server over
 * stdio that starts only once the test writes the gate file, or (`fails`) exits then.
 */
async function serverWithGatedExecutor(deferred: boolean, options: { readonly fails?: boolean } = {}): Promise<AppServerTestClient> {
  home = makeHome(mockProviderConfigToml(model.url, { extra: `[features]\ndeferred_executor = ${deferred}\n` }));
  root = path.join(path.dirname(home.workspace), 'executor');
  mkdirSync(root);
  gate = path.join(root, 'gate');
  const start = options.fails === true ? 'exit 3' : `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(EXEC_SERVER_BIN)} --listen stdio`;
  writeFileSync(
    path.join(home.home, 'environments.toml'),
    [
      'default = "remote"',
      '[[environments]]',
      'id = "remote"',
      'program = "sh"',
      `args = ["-c", ${JSON.stringify(`while [ ! -e gate ]; do sleep 0.05; done; ${start}`)}]`,
      `cwd = ${JSON.stringify(root)}`,
      `env = { ${MARKER} = "remote" }`,
      'initialize_timeout_sec = 60',
    ].join('\n'),
  );
  const client = spawnStdioClient(home);
  clients.push(client);
  await client.initialize();
  return client;
}

const runTurn = (client: AppServerTestClient, threadId: string, prompt: string) => runTurnToEnd(client, threadId, prompt, 30_000);

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('the condition did not become true within 20 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The `<environment_context>` texts a request carries, in order. */
const environmentContexts = (request: CapturedRequest) => request.messageTexts('user').filter((message) => message.startsWith('<environment_context>'));

const environment = (id: string, primary: string, state: string) => `    <environment id="${id}"${primary}>\n      <cwd>${'CWD'}</cwd>\n${state}    </environment>\n`;

describe('deferred_executor', () => {
  it('tells the model an executor is starting, waits for it on request, then says once that it is ready', async () => {
    const client = await serverWithGatedExecutor(true);
    model.expect([
      sse(
        functionCall('exec_command', { cmd: 'echo early', environment_id: 'remote' }, { callId: 'call_early' }),
        functionCall('wait_for_environment', { environment_id: 'remote' }, { callId: 'call_wait' }),
        functionCall('wait_for_environment', { environment_id: 'nope' }, { callId: 'call_unknown' }),
        // Written while `local` was the primary: it runs there, even though `remote` is ready by now.
        functionCall('exec_command', { cmd: `echo "[$${MARKER}]"` }, { callId: 'call_unnamed_before' }),
        completed(),
      ),
      sse(
        functionCall('exec_command', { cmd: `echo "[$${MARKER}]"`, environment_id: 'remote' }, { callId: 'call_remote' }),
        // Once told, the primary is `remote`.
        functionCall('exec_command', { cmd: `echo "[$${MARKER}]"` }, { callId: 'call_unnamed_after' }),
        completed(),
      ),
      sse(assistantMessage('Done.'), completed()),
      sse(assistantMessage('Again.'), completed()),
    ]);
    // thread/start does not wait for the executor.
    const started = (await client.request('thread/start', { cwd: home.workspace, approvalPolicy: 'never', sandbox: 'danger-full-access' })) as { thread: { id: string; environments: { environmentId: string }[] } };
    expect(started.thread.environments.map((entry) => entry.environmentId)).toEqual(['remote', 'local']);
    const threadId = started.thread.id;
    const turn = runTurn(client, threadId, 'Use the remote machine.');
    // The first request has gone out while the executor is held: now let it start.
    await until(() => model.requests.length >= 1);
    writeFileSync(gate, '');
    await turn;
    await runTurn(client, threadId, 'And again.');

    const [first, second, third, nextTurn] = model.requests;
    const cwd = (context: string) => context.replaceAll(home.workspace, 'CWD');
    // The first request: listed by id, the ready `local` the primary, `remote` starting; the wait tool and its instructions.
    expect(environmentContexts(first!).map(cwd)).toEqual([
      expect.stringContaining(`  <environments>\n${environment('local', ' primary="true"', '      <shell>bash</shell>\n')}${environment('remote', ' primary="false"', '      <status>starting</status>\n')}  </environments>\n`),
    ]);
    expect(first!.toolNames()).toEqual(expect.arrayContaining(['exec_command', 'write_stdin', 'wait_for_environment']));
    expect(first!.toolNames().indexOf('wait_for_environment')).toBe(first!.toolNames().indexOf('write_stdin') + 1);
    expect(first!.messageTexts('developer').some((message) => message.includes('<environments_instructions>'))).toBe(true);
    // A call on the starting environment fails at once; the wait answers once it is ready.
    expect(second!.toolOutputText('call_early')).toBe(NO_USABLE);
    expect(second!.toolOutputText('call_wait')).toBe('{"environment_id":"remote","status":"ready"}');
    expect(second!.toolOutputText('call_unknown')).toBe('environment `nope` is neither ready nor starting');
    expect(second!.toolOutputText('call_unnamed_before')).toMatch(/Output:\n\[\]\n$/);
    // One update, after the outputs: `remote` ready and the primary again.
    const update = environmentContexts(second!).slice(1);
    expect(update.map(cwd)).toEqual([expect.stringContaining(`  <environments>\n${environment('local', ' primary="false"', '      <shell>bash</shell>\n')}${environment('remote', ' primary="true"', '      <shell>bash</shell>\n')}  </environments>\n`)]);
    const items = second!.inputItems();
    expect(items.at(-1)).toMatchObject({ type: 'message', role: 'user' });
    // The command then ran on the executor, and nothing new was said: not in the turn, not in the next.
    expect(third!.toolOutputText('call_remote')).toMatch(/Output:\n\[remote\]\n$/);
    expect(third!.toolOutputText('call_unnamed_after')).toMatch(/Output:\n\[remote\]\n$/);
    expect(environmentContexts(third!)).toEqual(environmentContexts(second!));
    expect(environmentContexts(nextTurn!)).toEqual(environmentContexts(second!));
    expect(client.notificationsOf('thread/environment/connected')).toEqual([{ threadId, environmentId: 'remote' }]);
    expect(client.schemaFailures).toEqual([]);
  });

  it('reports an executor that fails to start as failed, and calls on it as unusable', async () => {
    const client = await serverWithGatedExecutor(true, { fails: true });
    model.expect([
      sse(functionCall('wait_for_environment', { environment_id: 'remote' }, { callId: 'call_wait' }), completed()),
      sse(functionCall('exec_command', { cmd: 'echo hi', environment_id: 'remote' }, { callId: 'call_remote' }), functionCall('exec_command', { cmd: 'echo here' }, { callId: 'call_local' }), completed()),
      sse(assistantMessage('Done without it.'), completed()),
    ]);
    const { thread } = (await client.request('thread/start', { cwd: home.workspace, approvalPolicy: 'never', sandbox: 'danger-full-access' })) as { thread: { id: string } };
    const turn = runTurn(client, thread.id, 'Use the remote machine.');
    await until(() => model.requests.length >= 1);
    writeFileSync(gate, '');
    await turn;

    const [, second, third] = model.requests;
    expect(second!.toolOutputText('call_wait')).toMatch(/^Environment `remote` failed to start: exec-server connection attempt failed: .+/);
    const update = environmentContexts(second!).at(-1)!;
    // Only the environment that changed is listed.
    expect(update).toMatch(/<environments>\n {4}<environment id="remote" primary="false">\n {6}<cwd>[^<]+<\/cwd>\n {6}<status>failed<\/status>\n {6}<error>exec-server connection attempt failed: [^<]+<\/error>\n {4}<\/environment>\n {2}<\/environments>/);
    expect(third!.toolOutputText('call_remote')).toBe(NO_USABLE);
    expect(third!.toolOutputText('call_local')).toMatch(/Output:\nhere\n$/);
    expect(environmentContexts(third!)).toEqual(environmentContexts(second!));
    expect(client.notificationsOf('thread/environment/connected')).toEqual([]);
  });

  it('is off by default in effect: thread/start waits for the executor, and the model never hears `starting`', async () => {
    const client = await serverWithGatedExecutor(false);
    model.expect([sse(functionCall('exec_command', { cmd: `echo "[$${MARKER}]"` }, { callId: 'call_remote' }), completed()), sse(assistantMessage('Done.'), completed())]);
    const starting = client.request('thread/start', { cwd: home.workspace, approvalPolicy: 'never', sandbox: 'danger-full-access' });
    // The executor is still held (the start's answer, below, shows it waited: remote is attached and ready).
    expect(await client.request('environment/status', { environmentId: 'remote' })).toEqual({ status: 'pending' });
    writeFileSync(gate, '');
    const { thread } = (await starting) as { thread: { id: string; environments: { environmentId: string }[] } };
    expect(thread.environments.map((entry) => entry.environmentId)).toEqual(['remote', 'local']);
    await runTurn(client, thread.id, 'Where are you?');

    const [first, second] = model.requests;
    expect(environmentContexts(first!)).toEqual([expect.stringContaining('<environment id="remote" primary="true">')]);
    expect(environmentContexts(first!)[0]).not.toContain('<status>');
    expect(first!.toolNames()).not.toContain('wait_for_environment');
    expect(first!.messageTexts('developer').some((message) => message.includes('<environments_instructions>'))).toBe(false);
    expect(second!.toolOutputText('call_remote')).toMatch(/Output:\n\[remote\]\n$/);
    expect(client.notificationsOf('warning').filter((warning) => (warning as { message: string }).message.includes('remote'))).toEqual([]);
  });
});
