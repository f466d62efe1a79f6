// Permission profiles on thread/start, resume and fork (issue #35), as Codex 0.171.0 answers them
// (probed): `permissions: ":read-only"` runs the thread read-only and reports `{id: ":read-only"}`
// whatever config.toml's sandbox_mode says, `runtimeWorkspaceRoots: []` is echoed as given, and a
// profile beside `sandbox`, or one the server does not have, is refused before anything is made.
// Codex's TUI starts its title-generation thread this way; a dropped profile handed the model a
// writable workspace. The directories live under /var/tmp: everything under /tmp is writable in any sandbox.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { probeSandbox } from '@skein/sandboxing';
import { assistantMessage, completed, functionCall, mockProviderConfigToml, probeSandboxForTests, sse, startMockResponsesServer, type AppServerTestClient, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, runTurnToEnd, spawnStdioClient, type TestHome } from './support/app-server-harness.js';

const { skip: NO_SANDBOX } = await probeSandboxForTests(() => probeSandbox({ env: process.env, cwd: process.cwd() }));

let model: MockResponsesServer;
let home: TestHome;
let client: AppServerTestClient;
let base: string;
let ws: string;

beforeEach(async () => {
  model = await startMockResponsesServer();
  // config.toml asks for a writable workspace, so only the client's profile can make a thread read-only.
  home = makeHome(`sandbox_mode = "workspace-write"\napproval_policy = "never"\n${mockProviderConfigToml(model.url)}`);
  base = mkdtempSync('/var/tmp/skein-permissions-');
  ws = path.join(base, 'ws');
  mkdirSync(ws);
  client = spawnStdioClient(home);
  await client.initialize({ capabilities: { experimentalApi: true } });
});
afterEach(async () => {
  await client.close();
  await model.close();
  home.cleanup();
  rmSync(base, { recursive: true, force: true });
});

/** What these tests read of thread/start, resume and fork answers. */
interface Opened {
  readonly thread: { readonly id: string };
  readonly sandbox: unknown;
  readonly activePermissionProfile: unknown;
  readonly runtimeWorkspaceRoots: readonly string[];
}
const open = async (method: string, params: Record<string, unknown>) => (await client.request(method, { cwd: ws, ...params })) as Opened;

const READ_ONLY = { type: 'readOnly', networkAccess: false };
const WORKSPACE_WRITE = { type: 'workspaceWrite', writableRoots: [], networkAccess: false, excludeTmpdirEnvVar: false, excludeSlashTmp: false };

describe.skipIf(NO_SANDBOX !== '')(`a read-only thread${NO_SANDBOX}`, () => {
  it('is answered read-only with its profile by id, and a command it runs cannot write the workspace', async () => {
    model.expect([
      sse(functionCall('exec_command', { cmd: `touch ${ws}/made && echo wrote` }, { callId: 'c1' }), completed()),
      sse(assistantMessage('Could not write.'), completed()),
    ]);
    // Without a profile the thread gets config's writable workspace (config chose, so no profile is active).
    const writable = await open('thread/start', {});
    expect({ sandbox: writable.sandbox, profile: writable.activePermissionProfile }).toEqual({ sandbox: WORKSPACE_WRITE, profile: null });

    const started = await open('thread/start', { permissions: ':read-only', runtimeWorkspaceRoots: [] });
    expect(started.sandbox).toEqual(READ_ONLY);
    expect(started.activePermissionProfile).toEqual({ id: ':read-only', extends: null });
    expect(started.runtimeWorkspaceRoots).toEqual([]);
    await runTurnToEnd(client, started.thread.id, 'write a file', 30_000);

    expect(model.requests[1]!.toolOutputText('c1')).toMatch(/made': Read-only file system/);
    expect(existsSync(path.join(ws, 'made'))).toBe(false);
    expect(JSON.stringify(model.requests[0]!.body!.input)).toContain('Sandbox: read-only.');
    expect(client.schemaFailures).toEqual([]);
  });
});

describe('permissions on thread/start, resume and fork', () => {
  it('honours each built-in profile on start and fork, and on the resume of a thread another client left loaded', async () => {
    model.expect([sse(assistantMessage('One.'), completed()), sse(assistantMessage('Two.'), completed())]);
    const started = await open('thread/start', { permissions: ':workspace' });
    expect({ sandbox: started.sandbox, profile: started.activePermissionProfile }).toEqual({ sandbox: WORKSPACE_WRITE, profile: { id: ':workspace', extends: null } });
    const threadId = started.thread.id;
    await runTurnToEnd(client, threadId, 'one');

    const forked = await open('thread/fork', { threadId, permissions: ':danger-full-access' });
    expect({ sandbox: forked.sandbox, profile: forked.activePermissionProfile }).toEqual({ sandbox: { type: 'dangerFullAccess' }, profile: { id: ':danger-full-access', extends: null } });

    // The thread is still loaded: the resume joins it, and its next turn runs read-only.
    const resumed = await open('thread/resume', { threadId, permissions: ':read-only' });
    expect({ sandbox: resumed.sandbox, profile: resumed.activePermissionProfile }).toEqual({ sandbox: READ_ONLY, profile: { id: ':read-only', extends: null } });
    await runTurnToEnd(client, threadId, 'two');
    expect(JSON.stringify(model.requests[0]!.body!.input)).not.toContain('Sandbox: read-only.');
    expect(JSON.stringify(model.requests[1]!.body!.input)).toContain('Sandbox: read-only.');
    expect(client.schemaFailures).toEqual([]);
  });

  it('refuses a profile beside `sandbox` and one the server does not have, in Codex words, and makes no thread', async () => {
    model.expect([sse(assistantMessage('One.'), completed())]);
    const started = await open('thread/start', {});
    await runTurnToEnd(client, started.thread.id, 'one');
    const refusals: [Record<string, unknown>, string][] = [
      [{ permissions: ':read-only', sandbox: 'workspace-write' }, '`permissions` cannot be combined with `sandbox`'],
      [{ permissions: ':nope' }, 'failed to load configuration: default_permissions refers to unknown built-in profile `:nope`'],
      [{ permissions: 'mine' }, 'failed to load configuration: default_permissions requires a `[permissions]` table'],
    ];
    for (const method of ['thread/start', 'thread/resume', 'thread/fork']) {
      for (const [params, message] of refusals) {
        const reply = await client.requestReply(method, { cwd: ws, ...(method === 'thread/start' ? {} : { threadId: started.thread.id }), ...params });
        expect({ method, reply }).toEqual({ method, reply: { error: { code: -32600, message } } });
      }
    }
    expect(await client.request('thread/loaded/list', {})).toMatchObject({ data: [started.thread.id] });
    expect(client.schemaFailures).toEqual([]);
  });
});
