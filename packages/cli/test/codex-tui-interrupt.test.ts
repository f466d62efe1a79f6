// Codex's own terminal UI against `skein app-server` (issue #35): a command the user interrupts keeps
// running, the TUI shows "1 background terminal running", and the line clears once the command
// exits (it never did: Skein lost the command at the interrupt); and the TUI's title thread, which
// it starts with `permissions: ":read-only"`, runs read-only (it was handed a writable sandbox).
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
  it.skipIf(codex.missing !== undefined)(`clears an interrupted command's background terminal when it exits; the title thread runs read-only${CODEX_SKIP}`, { timeout: 90_000 }, async () => {
    const skeinHome = path.join(root, 'skein-home');
    const codexHome = path.join(root, 'codex-home');
    const workspace = path.join(root, 'workspace');
    const gate = path.join(root, 'gate');
    for (const dir of [skeinHome, codexHome, path.join(workspace, '.git')]) mkdirSync(dir, { recursive: true });
    const trusted = `\n[projects.${JSON.stringify(workspace)}]\ntrust_level = "trusted"\n`;
    writeFileSync(path.join(skeinHome, 'config.toml'), `${mockProviderConfigToml(model.url, { envKey: 'MOCK_API_KEY' })}${trusted}`);
    writeFileSync(path.join(codexHome, 'config.toml'), trusted);
    // The user's turn and the TUI's title thread ask the model at the same time, in either order:
    // both get the same command, which waits for the gate; the title thread then gets its answer.
    const waitForGate = functionCall('exec_command', { cmd: `echo started; while [ ! -e ${gate} ]; do sleep 0.1; done; echo done`, yield_time_ms: 60_000 });
    model.expect([sse(waitForGate, completed()), sse(waitForGate, completed()), sse(assistantMessage('Long command'), completed())]);
    const started = await startSkeinServer(workspace, { PATH: process.env.PATH, HOME: root, CODEX_HOME: skeinHome, MOCK_API_KEY: 'sk-mock', TZ: 'UTC' });
    server = started.child;
    const tui = new TuiSession(['--remote', started.url], workspace, { PATH: process.env.PATH, HOME: root, CODEX_HOME: codexHome, TERM: 'xterm-256color', TZ: 'UTC' });
    sessions.push(tui);

    await tui.waitFor('Use existing model');
    await tui.pressUntil(KEYS.down, '› 2. Use existing model');
    tui.type(KEYS.enter);
    await tui.waitFor('Ask Codex to do anything');
    tui.type('Run the long command');
    await tui.waitFor('› Run the long command');
    tui.type(KEYS.enter);
    await tui.waitFor('1 background terminal running');
    await tui.waitUntil(() => model.requests.length >= 2, 'both threads asking the model');

    tui.type(KEYS.escape);
    const interrupted = await tui.waitFor('Conversation interrupted');
    // The command still runs after the interrupt, and the TUI says so.
    expect(interrupted).toContain('1 background terminal running');

    writeFileSync(gate, '');
    await tui.waitUntil((screen) => !screen.includes('background terminal'), 'the background terminal line cleared');
    await tui.waitUntil(() => model.requests.length === 3, 'the title thread’s answer');

    const asked = model.requests.map((request) => JSON.stringify(request.body?.input));
    const [user, ...title] = [...asked.filter((input) => input.includes('Run the long command')), ...asked.filter((input) => !input.includes('Run the long command'))];
    expect(title).toHaveLength(2);
    for (const input of title) expect(input).toContain('Sandbox: read-only.');
    expect(user).not.toContain('Sandbox: read-only.');
  });
});
