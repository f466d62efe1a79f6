// A Windows executor attached to a thread, as the model and the client see it: Codex 0.171.0's own
// Windows exec-server (run by Wine, see test/support/windows-executor.ts) reports powershell and
// serves `Z:\…` paths. The thread works there in a Windows cwd, finds AGENTS.md through that
// executor's file system, tells the model Windows paths and powershell, and applies a patch there;
// a sandboxed write the executor cannot confine is refused by it, never done unconfined.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, customToolCall, functionCall, mockProviderConfigToml, sse, startMockResponsesServer, type AppServerTestClient, type CapturedRequest, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, runTurnToEnd, spawnStdioClient, type TestHome } from './support/app-server-harness.js';
import { startWindowsExecutor, windowsExecutorSkip, windowsPathOf, type WindowsExecutor } from './support/windows-executor.js';

const SKIP = windowsExecutorSkip();

let model: MockResponsesServer;
let home: TestHome;
let executor: WindowsExecutor | undefined;
let client: AppServerTestClient;
let windowsWorkspace: string;

beforeEach(async () => {
  if (SKIP !== '') return;
  model = await startMockResponsesServer();
  // A POSIX writable root of this host's config names no place on the Windows executor.
  home = makeHome(mockProviderConfigToml(model.url, { extra: '[sandbox_workspace_write]\nwritable_roots = ["/srv/host-only"]\n' }));
  windowsWorkspace = path.join(path.dirname(home.workspace), 'windows-workspace');
  mkdirSync(windowsWorkspace);
  writeFileSync(path.join(windowsWorkspace, 'AGENTS.md'), 'Use PowerShell here.\n');
  executor = await startWindowsExecutor(path.dirname(home.workspace));
  client = spawnStdioClient(home);
  await client.initialize();
  await client.request('environment/add', { environmentId: 'win', execServerUrl: executor.url });
}, 90_000);
afterEach(async () => {
  if (SKIP !== '') return;
  await client.close();
  await executor?.stop();
  await model.close();
  home.cleanup();
});

interface Started {
  readonly thread: { readonly id: string; readonly environments: unknown };
  readonly cwd: string;
  readonly instructionSources: readonly string[];
}
const userTexts = (request: CapturedRequest) => request.messageTexts('user');

describe.skipIf(SKIP !== '')(`a Windows executor${SKIP}`, () => {
  it('works in its Windows cwd: AGENTS.md through its file system, Windows paths and powershell for the model', async () => {
    const info = (await client.request('environment/info', { environmentId: 'win' })) as { shell: { name: string } };
    expect(info.shell.name).toBe('powershell');
    const cwd = windowsPathOf(windowsWorkspace);
    model.expect([sse(functionCall('exec_command', { cmd: 'echo hi' }, { callId: 'c1' }), completed()), sse(assistantMessage('Done.'), completed())]);
    const started = (await client.request('thread/start', { approvalPolicy: 'never', sandbox: 'workspace-write', environments: [{ environmentId: 'win', cwd }] })) as Started;
    expect(started.cwd).toBe(cwd);
    expect(started.thread.environments).toEqual([{ environmentId: 'win', cwd, runtimeWorkspaceRoots: [cwd, '/srv/host-only'] }]);
    // Found by walking the executor's PathUri parents; Skein's PathUri spells drive letters in lower case.
    expect(started.instructionSources).toEqual([`${cwd.replace(/^Z:/, 'z:')}\\AGENTS.md`]);
    await runTurnToEnd(client, started.thread.id, 'hello', 60_000);

    const opening = userTexts(model.requests[0]!).find((text) => text.includes('<environment_context>'))!;
    expect(opening).toContain('Use PowerShell here.');
    const environment = opening.slice(opening.indexOf('<environment_context>'));
    expect(environment).toContain(`  <cwd>${cwd}</cwd>\n  <shell>powershell</shell>\n`);
    expect(environment).toContain(`<workspace_roots><root>${cwd}</root>`);
    expect(environment).toContain(`<entry access="read"><path>${cwd}\\.git</path></entry>`);
    // The command reaches the executor, which cannot confine it (no Windows sandbox is asked for) and refuses it.
    expect(model.requests[1]!.toolOutputText('c1')).toBe('exec_command failed: sandbox intent cannot be enforced on this executor');
  }, 120_000);

  it('beside this machine: both listed with their own cwd and shell, and a patch named for it changes only its files', async () => {
    const cwd = windowsPathOf(windowsWorkspace);
    const patch = '*** Begin Patch\n*** Environment ID: win\n*** Add File: hello.txt\n+hi from Windows\n*** End Patch\n';
    model.expect([
      sse(customToolCall('apply_patch', patch, { callId: 'sandboxed' }), completed()),
      sse(assistantMessage('Refused.'), completed()),
      sse(customToolCall('apply_patch', patch, { callId: 'unconfined' }), completed()),
      sse(assistantMessage('Done.'), completed()),
    ]);
    const started = (await client.request('thread/start', {
      approvalPolicy: 'never',
      sandbox: 'workspace-write',
      environments: [{ environmentId: 'local', cwd: home.workspace }, { environmentId: 'win', cwd }],
    })) as Started;
    await runTurnToEnd(client, started.thread.id, 'write it sandboxed', 60_000);
    const opening = userTexts(model.requests[0]!).find((text) => text.includes('<environment_context>'))!;
    const environment = opening.slice(opening.indexOf('<environment_context>'));
    expect(environment).toContain(`    <environment id="local" primary="true">\n      <cwd>${home.workspace}</cwd>\n      <shell>bash</shell>\n    </environment>\n`);
    expect(environment).toContain(`    <environment id="win" primary="false">\n      <cwd>${cwd}</cwd>\n      <shell>powershell</shell>\n    </environment>\n`);
    // Inside its workspace root, so no approval is asked; the executor cannot confine the write and refuses it.
    expect(model.requests[1]!.toolOutputText('sandboxed')).toContain('filesystem sandbox cannot be enforced on this executor');
    expect(existsSync(path.join(windowsWorkspace, 'hello.txt'))).toBe(false);

    await client.request('thread/settings/update', { threadId: started.thread.id, sandboxPolicy: { type: 'dangerFullAccess' } });
    await runTurnToEnd(client, started.thread.id, 'write it', 60_000);
    expect(model.requests[3]!.toolOutputText('unconfined')).toContain('A hello.txt');
    expect(readFileSync(path.join(windowsWorkspace, 'hello.txt'), 'utf8')).toBe('hi from Windows\n');
    expect(existsSync(path.join(home.workspace, 'hello.txt'))).toBe(false);
  }, 120_000);
});
