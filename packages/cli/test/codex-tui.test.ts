// Codex's own terminal UI against `skein app-server`: the real `codex --remote` (Codex 0.171.0, a
// devDependency) in a pseudo-terminal, its screen read through a headless terminal emulator, the
// mock model behind the server. The test types and reads the screen as a person would: the start-up
// screens, a turn with a command and its output, the agent view, /quit's token usage, and a resume.
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, functionCall, mockProviderConfigToml, sse, startMockResponsesServer, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CODEX_SKIP, codex, KEYS, startSkeinServer, TUI_HOMES, TuiSession } from './support/codex-tui.js';

let root: string;
let model: MockResponsesServer;
let server: ChildProcess | undefined;
const sessions: TuiSession[] = [];

beforeEach(async () => {
  root = path.join(TUI_HOMES, randomUUID());
  model = await startMockResponsesServer();
});
afterEach(async () => {
  for (const session of sessions.splice(0)) session.close();
  server?.kill();
  server = undefined;
  try {
    await model.close();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

describe('Codex 0.171.0 terminal UI against skein app-server', () => {
  it.skipIf(codex.missing !== undefined)(`runs a whole session: a command, the answer, the agent view, /quit and a resume${CODEX_SKIP}`, { timeout: 90_000 }, async () => {
    const skeinHome = path.join(root, 'skein-home');
    const codexHome = path.join(root, 'codex-home');
    const workspace = path.join(root, 'workspace');
    for (const dir of [skeinHome, codexHome, path.join(workspace, '.git')]) mkdirSync(dir, { recursive: true });
    const trusted = `\n[projects.${JSON.stringify(workspace)}]\ntrust_level = "trusted"\n`;
    writeFileSync(path.join(skeinHome, 'config.toml'), `${mockProviderConfigToml(model.url, { envKey: 'MOCK_API_KEY' })}${trusted}`);
    writeFileSync(path.join(codexHome, 'config.toml'), trusted);
    // The command, then the answer. The TUI also asks for a thread title on a thread of its own, at
    // the same time as the answer: both get the same text, so either order reads the same.
    model.expect([
      sse(functionCall('exec_command', { cmd: 'echo hi' }), completed()),
      sse(assistantMessage('It printed hi.'), completed()),
      sse(assistantMessage('It printed hi.'), completed()),
    ]);
    const started = await startSkeinServer(workspace, { PATH: process.env.PATH, HOME: root, CODEX_HOME: skeinHome, MOCK_API_KEY: 'sk-mock', TZ: 'UTC' });
    server = started.child;
    const url = started.url;
    const env = { PATH: process.env.PATH, HOME: root, CODEX_HOME: codexHome, TERM: 'xterm-256color', TZ: 'UTC' };
    const tui = new TuiSession(['--remote', url], workspace, env);
    sessions.push(tui);

    // Start-up: the model list offers the newer model, as Codex's own server does for gpt-5.5.
    await tui.waitFor('Use existing model');
    await tui.pressUntil(KEYS.down, '› 2. Use existing model');
    tui.type(KEYS.enter);
    await tui.waitFor('Ask Codex to do anything');

    tui.type('Run echo hi');
    await tui.waitFor('› Run echo hi');
    tui.type(KEYS.enter);
    const answered = await tui.waitFor('It printed hi.');
    expect(answered).toContain('Ran echo hi');
    expect(answered).toMatch(/└ hi/);
    // No error line (the TUI marks them with ■) and no warnings.
    expect(answered).not.toContain('■');
    expect(answered.toLowerCase()).not.toContain('warning');

    // The agent view lists the thread, ready, with what it last said.
    await tui.waitFor('Ask Codex to do anything');
    tui.type(KEYS.left);
    const agents = await tui.waitFor('Agent command center');
    expect(agents).toMatch(/Run echo hi\s+Ready/);
    tui.type(KEYS.escape);
    await tui.waitFor('Ask Codex to do anything');

    tui.type('/quit');
    await tui.waitFor('/quit');
    tui.type(KEYS.enter);
    const quit = await tui.waitFor(/Token usage so far: total=\d+ input=\d+ output=\d+/);
    expect(quit).toMatch(/Token usage so far: total=220 input=200 output=20/);
    const threadId = /resume ([0-9a-f-]{36})/.exec(quit)?.[1];
    expect(threadId).toBeDefined();

    // A second session resumes the thread: the earlier turn is on screen again.
    const resumed = new TuiSession(['--remote', url, 'resume', threadId ?? ''], workspace, env);
    sessions.push(resumed);
    const history = await resumed.waitFor('It printed hi.');
    expect(history).toContain('Run echo hi');
    expect(history).not.toContain('■');
  });
});
