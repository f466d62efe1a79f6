// `runtimeWorkspaceRoots` as a client, the model and the sandbox see them, as Codex 0.171.0 applies
// them: the roots are what workspace-write lets a command write (a cwd left out is not writable),
// `<workspace_roots>` lists them, the v2 sandbox reports the legacy policy that stands for them, a
// settings update replaces them for later turns, and a resumed thread keeps those it started with.
// The directories live under /var/tmp: everything under /tmp is writable in any sandbox.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { probeSandbox } from '@skein/sandboxing';
import { assistantMessage, completed, functionCall, mockProviderConfigToml, probeSandboxForTests, sse, startMockResponsesServer, type AppServerTestClient, type CapturedRequest, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, runTurnToEnd, spawnStdioClient, type TestHome } from './support/app-server-harness.js';

const { skip: NO_SANDBOX } = await probeSandboxForTests(() => probeSandbox({ env: process.env, cwd: process.cwd() }));

let model: MockResponsesServer;
let home: TestHome;
let client: AppServerTestClient;
let base: string;
let ws: string;
let extra: string;
let extra2: string;

beforeEach(async () => {
  model = await startMockResponsesServer();
  home = makeHome(mockProviderConfigToml(model.url));
  base = mkdtempSync('/var/tmp/skein-roots-');
  [ws, extra, extra2] = ['ws', 'extra', 'extra2'].map((name) => path.join(base, name)) as [string, string, string];
  for (const directory of [ws, extra, extra2]) mkdirSync(directory);
  client = spawnStdioClient(home);
  await client.initialize();
});
afterEach(async () => {
  await client.close();
  await model.close();
  home.cleanup();
  rmSync(base, { recursive: true, force: true });
});

const environmentContexts = (request: CapturedRequest) => request.messageTexts('user').filter((message) => message.startsWith('<environment_context>'));
const guarded = (root: string) => ['.git', '.agents', '.codex', '.aws'].map((name) => `<entry access="read"><path>${root}/${name}</path></entry>`);
const write = (target: string) => `<entry access="write"><path>${target}</path></entry>`;
const TEMPORARY = '<entry access="write"><special>:slash_tmp</special></entry><entry access="write"><special>:tmpdir</special></entry>';
/** What these tests read of thread/start and thread/resume answers. */
interface Opened {
  readonly thread: { readonly id: string; readonly environments: unknown };
  readonly runtimeWorkspaceRoots: readonly string[];
  readonly sandbox: unknown;
}
const open = async (method: string, params: unknown) => (await client.request(method, params)) as Opened;
const touch = (file: string, ...targets: string[]) => targets.map((target) => `touch ${target}/${file} && echo ${file}-${path.basename(target)}`).join('; ');

describe.skipIf(NO_SANDBOX !== '')(`runtimeWorkspaceRoots${NO_SANDBOX}`, () => {
  it('makes the roots writable and tells the model; a settings update replaces them, and a cwd left out is not writable', async () => {
    model.expect([
      sse(functionCall('exec_command', { cmd: touch('made', ws, extra, extra2) }, { callId: 'c1' }), completed()),
      sse(assistantMessage('Done.'), completed()),
      sse(functionCall('exec_command', { cmd: touch('again', ws, extra2) }, { callId: 'c2' }), completed()),
      sse(assistantMessage('Done again.'), completed()),
    ]);
    const started = await open('thread/start', {
      cwd: ws,
      approvalPolicy: 'never',
      sandbox: 'workspace-write',
      environments: [{ environmentId: 'local', cwd: ws, runtimeWorkspaceRoots: [ws, extra] }],
    });
    expect(started.runtimeWorkspaceRoots).toEqual([ws, extra]);
    expect(started.thread.environments).toEqual([{ environmentId: 'local', cwd: ws, runtimeWorkspaceRoots: [ws, extra] }]);
    expect(started.sandbox).toEqual({ type: 'workspaceWrite', writableRoots: [extra], networkAccess: false, excludeTmpdirEnvVar: false, excludeSlashTmp: false });
    const threadId = started.thread.id;
    await runTurnToEnd(client, threadId, 'touch them', 30_000);

    const first = model.requests[1]!.toolOutputText('c1');
    expect(first).toContain('made-ws');
    expect(first).toContain('made-extra');
    expect(first).toMatch(/extra2\/made': Read-only file system/);
    const [opening] = environmentContexts(model.requests[0]!);
    expect(opening).toContain(`<filesystem><workspace_roots><root>${ws}</root><root>${extra}</root></workspace_roots>`);
    const interleaved = guarded(ws).flatMap((entry, index) => [entry, guarded(extra)[index]!]);
    expect(opening).toContain(`<entry access="read"><special>:root</special></entry>${write(ws)}${write(extra)}${TEMPORARY}${interleaved.join('')}</file_system>`);

    await client.requestReply('thread/settings/update', { threadId, environments: [{ environmentId: 'local', cwd: ws, runtimeWorkspaceRoots: [extra2] }] });
    const updated = (await client.waitFor('thread/settings/updated', (params) => (params as { threadId: string }).threadId === threadId)) as { threadSettings: Record<string, unknown> };
    expect(updated.threadSettings.environments).toEqual([{ environmentId: 'local', cwd: ws, runtimeWorkspaceRoots: [extra2] }]);
    // A legacy workspace-write policy always lets the cwd be written, so every writable place is named
    // (the server has no $TMPDIR, so it is excluded).
    expect(updated.threadSettings.sandboxPolicy).toEqual({ type: 'workspaceWrite', writableRoots: [extra2, '/tmp'], networkAccess: false, excludeTmpdirEnvVar: true, excludeSlashTmp: false });
    await runTurnToEnd(client, threadId, 'again', 30_000);

    const second = model.requests[3]!.toolOutputText('c2');
    expect(second).toMatch(/ws\/again': Read-only file system/);
    expect(second).toContain('again-extra2');
    // Between turns only what changed is told: the cwd and shell did not.
    const update = environmentContexts(model.requests[2]!).at(-1)!;
    expect(update).not.toContain('<cwd>');
    expect(update).not.toContain('<shell>');
    expect(update).toContain(`<workspace_roots><root>${extra2}</root></workspace_roots><permission_profile type="managed"><file_system type="restricted"><entry access="read"><special>:root</special></entry>${write(extra2)}${TEMPORARY}${guarded(extra2).join('')}`);
  });
});

describe('runtimeWorkspaceRoots on thread/start', () => {
  it('takes the top-level roots for the primary, records them, and keeps them on resume', async () => {
    model.expect([sse(assistantMessage('Done.'), completed())]);
    const started = await open('thread/start', { cwd: ws, sandbox: 'workspace-write', runtimeWorkspaceRoots: [extra] });
    expect(started.runtimeWorkspaceRoots).toEqual([extra]);
    expect(started.thread.environments).toEqual([{ environmentId: 'local', cwd: ws, runtimeWorkspaceRoots: [extra] }]);
    expect(started.sandbox).toEqual({ type: 'workspaceWrite', writableRoots: [extra, '/tmp'], networkAccess: false, excludeTmpdirEnvVar: true, excludeSlashTmp: false });
    const threadId = started.thread.id;
    await runTurnToEnd(client, threadId, 'hello', 30_000);
    expect(environmentContexts(model.requests[0]!)[0]).toContain(`<workspace_roots><root>${extra}</root></workspace_roots>`);
    expect(environmentContexts(model.requests[0]!)[0]).not.toContain(write(ws));

    const sessions = path.join(home.home, 'sessions');
    const file = findRollout(sessions);
    const meta = JSON.parse(readFileSync(file, 'utf8').split('\n')[0]!) as { payload: { runtime_workspace_roots?: string[] } };
    expect(meta.payload.runtime_workspace_roots).toEqual([extra]);

    await client.close();
    client = spawnStdioClient(home);
    await client.initialize();
    const resumed = await open('thread/resume', { threadId, excludeTurns: true });
    expect(resumed.runtimeWorkspaceRoots).toEqual([extra]);
    expect(resumed.thread.environments).toEqual([{ environmentId: 'local', cwd: ws, runtimeWorkspaceRoots: [extra] }]);
  });

  it('takes turn/start\'s roots for this and later turns; a resume keeps the roots of the last turn, or the defaults when it had them', async () => {
    model.expect([sse(assistantMessage('One.'), completed()), sse(assistantMessage('Two.'), completed()), sse(assistantMessage('Three.'), completed())]);
    const started = await open('thread/start', { cwd: ws, sandbox: 'workspace-write', runtimeWorkspaceRoots: [ws, extra] });
    const threadId = started.thread.id;
    await client.request('turn/start', { threadId, input: [{ type: 'text', text: 'narrow', text_elements: [] }], runtimeWorkspaceRoots: [extra2] });
    const announced = (await client.waitFor('thread/settings/updated', (params) => (params as { threadId: string }).threadId === threadId)) as { threadSettings: { environments: unknown } };
    expect(announced.threadSettings.environments).toEqual([{ environmentId: 'local', cwd: ws, runtimeWorkspaceRoots: [extra2] }]);
    await client.waitFor('turn/completed', () => true, 30_000);
    expect(environmentContexts(model.requests[0]!)[0]).toContain(`<workspace_roots><root>${extra2}</root></workspace_roots>`);

    await client.close();
    client = spawnStdioClient(home);
    await client.initialize();
    // The header says [ws, extra]; the last turn ran over [extra2], and that is what the thread works over.
    expect((await open('thread/resume', { threadId, excludeTurns: true, sandbox: 'workspace-write' })).runtimeWorkspaceRoots).toEqual([extra2]);
    await runTurnToEnd(client, threadId, 'again', 30_000);
    // Nothing changed for the model: no update follows the first turn's context.
    expect(environmentContexts(model.requests[1]!)).toHaveLength(1);

    // A fresh thread on the defaults resumes on today's defaults, not on what its header recorded.
    const plain = await open('thread/start', { cwd: ws, sandbox: 'workspace-write' });
    await runTurnToEnd(client, plain.thread.id, 'hello', 30_000);
    await client.close();
    writeFileSync(path.join(home.home, 'config.toml'), mockProviderConfigToml(model.url, { extra: `[sandbox_workspace_write]\nwritable_roots = [${JSON.stringify(extra)}]\n` }));
    client = spawnStdioClient(home);
    await client.initialize();
    await expect(client.requestReply('thread/resume', { threadId: plain.thread.id, runtimeWorkspaceRoots: ['nope'] })).resolves.toMatchObject({ error: { code: -32600 } });
    expect((await open('thread/resume', { threadId: plain.thread.id, excludeTurns: true })).runtimeWorkspaceRoots).toEqual([ws, extra]);
  });

  it('defaults to the cwd and the configured writable roots, each protected', async () => {
    await client.close();
    home.cleanup();
    home = makeHome(mockProviderConfigToml(model.url, { extra: `[sandbox_workspace_write]\nwritable_roots = [${JSON.stringify(extra)}]\n` }));
    client = spawnStdioClient(home);
    await client.initialize();
    model.expect([sse(assistantMessage('Done.'), completed())]);
    const started = await open('thread/start', { cwd: ws, sandbox: 'workspace-write' });
    expect(started.runtimeWorkspaceRoots).toEqual([ws, extra]);
    expect(started.sandbox).toMatchObject({ writableRoots: [extra] });
    await runTurnToEnd(client, started.thread.id, 'hello', 30_000);
    const [opening] = environmentContexts(model.requests[0]!);
    expect(opening).toContain(`<workspace_roots><root>${ws}</root><root>${extra}</root></workspace_roots>`);
    // The configured root is a root: written once, before the temporary places, and protected.
    expect(opening).toContain(`${write(ws)}${write(extra)}${TEMPORARY}${guarded(ws)[0]}${guarded(extra)[0]}`);
  });

  it('refuses a root that is not an absolute path, naming it, and starts nothing', async () => {
    await expect(client.requestReply('thread/start', { cwd: ws, runtimeWorkspaceRoots: ['relative/dir'] })).resolves.toMatchObject({
      error: { code: -32600, message: 'invalid runtime workspace root: path `relative/dir` does not use absolute POSIX or Windows path syntax', data: { reason: 'invalidWorkspaceRoot', root: 'relative/dir' } },
    });
    await expect(client.requestReply('thread/start', { cwd: ws, environments: [{ environmentId: 'local', cwd: ws, runtimeWorkspaceRoots: [ws, 'x'] }] })).resolves.toMatchObject({
      error: { code: -32600, message: 'invalid runtime workspace root for environment `local`: path `x` does not use absolute POSIX or Windows path syntax', data: { environmentId: 'local' } },
    });
    expect(existsSync(path.join(home.home, 'sessions'))).toBe(false);
  });
});

function findRollout(directory: string): string {
  for (const entry of readdirSync(directory, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.jsonl')) return path.join(entry.parentPath, entry.name);
  }
  throw new Error(`no rollout under ${directory}`);
}
