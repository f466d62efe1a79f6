// Extensions in the app-server: the built binary loads those config.toml and `--extension` name,
// their tools run in app-server turns, and each load failure reaches the client as `configWarning`.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, functionCall, mockProviderConfigToml, sse, startMockResponsesServer, type AppServerTestClient, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, makeHome, spawnStdioClient, type TestHome } from './support/app-server-harness.js';

const NOTE_EXTENSION = path.join(import.meta.dirname, 'fixtures', 'note-extension.mjs');

let model: MockResponsesServer;
let home: TestHome;
let client: AppServerTestClient | undefined;
beforeEach(async () => {
  model = await startMockResponsesServer();
});
afterEach(async () => {
  await client?.close();
  client = undefined;
  await model.close();
  home.cleanup();
});

const withExtensions = (...specs: string[]) => `${mockProviderConfigToml(model.url)}\n[skein]\nextensions = ${JSON.stringify(specs)}\n`;
const text = (value: string) => [{ type: 'text', text: value, text_elements: [] }];

async function runTurn(connection: AppServerTestClient, cwd: string, prompt: string): Promise<void> {
  const { thread } = (await connection.request('thread/start', { cwd, approvalPolicy: 'never' })) as { thread: { id: string } };
  const { turn } = (await connection.request('turn/start', { threadId: thread.id, input: text(prompt) })) as { turn: { id: string } };
  await connection.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === turn.id);
}

const warnings = (connection: AppServerTestClient) => connection.notificationsOf('configWarning').map((params) => (params as { summary: string }).summary);

describe('extensions in the app-server', () => {
  it('loads an extension config.toml names; its tool runs in an app-server turn', async () => {
    home = makeHome(withExtensions(NOTE_EXTENSION));
    client = spawnStdioClient(home);
    await client.initialize();
    model.expect([sse(functionCall('note_add', { text: 'buy milk' }), completed()), sse(assistantMessage('Noted.'), completed())]);
    await runTurn(client, home.workspace, 'Note: buy milk.');
    expect(model.requests[0]!.toolNames()).toContain('note_add');
    expect(model.requests[1]!.toolOutputText('call_mock_0002')).toBe('noted: buy milk');
    expect(warnings(client)).toEqual([]);
  });

  it('loads --extension too, and tells each client about an extension that failed to load', async () => {
    home = makeHome(withExtensions('./no-such-extension.mjs'));
    client = spawnStdioClient(home, ['--extension', NOTE_EXTENSION]);
    await client.initialize();
    await client.waitFor('configWarning');
    expect(warnings(client)).toEqual([`extension './no-such-extension.mjs' (from ${path.join(home.home, 'config.toml')}): no file ${path.join(home.home, 'no-such-extension.mjs')}`]);
    model.expect([sse(functionCall('note_add', { text: 'still here' }), completed()), sse(assistantMessage('Noted.'), completed())]);
    await runTurn(client, home.workspace, 'Note it.');
    expect(model.requests[1]!.toolOutputText('call_mock_0002')).toBe('noted: still here');
  });

  it("reports a trusted project's failing extension to the client that opened a thread there", async () => {
    home = makeHome(mockProviderConfigToml(model.url));
    const project = path.join(home.workspace, 'project');
    mkdirSync(path.join(project, '.git'), { recursive: true });
    mkdirSync(path.join(project, '.codex'));
    writeFileSync(path.join(project, '.codex', 'config.toml'), '[skein]\nextensions = ["./throws.mjs"]\n');
    writeFileSync(path.join(project, '.codex', 'throws.mjs'), "throw new Error('project extension is broken');\n");
    writeFileSync(path.join(home.home, 'config.toml'), `${mockProviderConfigToml(model.url)}\n[projects.${JSON.stringify(project)}]\ntrust_level = "trusted"\n`);
    client = spawnStdioClient(home);
    await client.initialize();
    model.expect([sse(assistantMessage('Hello.'), completed())]);
    await runTurn(client, project, 'Hi.');
    expect(warnings(client)).toEqual([expect.stringContaining(`extension './throws.mjs' (from ${path.join(project, '.codex', 'config.toml')}): importing`)]);
    expect(warnings(client)[0]).toContain('project extension is broken');
  });

  it('refuses to start under --strict-config when an extension fails to load', async () => {
    home = makeHome(withExtensions('./no-such-extension.mjs'));
    const child = spawn(process.execPath, [BIN, '--strict-config'], { cwd: home.workspace, env: home.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).not.toBe(0);
    expect(stderr).toContain("extension './no-such-extension.mjs'");
  });
});
