// Codex's own terminal UI against `skein app-server` (issue #35): a command the user interrupts keeps
// running, the TUI shows "1 background terminal running", and the line clears once the command
// exits (it never did: Skein lost the command at the interrupt); and the TUI's title thread, which
// it starts with `permissions: ":read-only"`, runs read-only (it was handed a writable sandbox).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, functionCall, sse } from '@skein/test-support';
import { describe, expect, it } from 'vitest';
import { CODEX_SKIP, codex, KEYS, useTuiScenario } from './support/codex-tui.js';

const scenario = useTuiScenario();

describe('Codex 0.171.0 terminal UI against skein app-server', () => {
  it.skipIf(codex.missing !== undefined)(`clears an interrupted command's background terminal when it exits; the title thread runs read-only${CODEX_SKIP}`, { timeout: 90_000 }, async () => {
    const { model, root, workspace } = scenario();
    const gate = path.join(root, 'gate');
    mkdirSync(path.join(workspace, '.git'));
    // The user's turn and the TUI's title thread ask the model at the same time, in either order:
    // both get the same command, which waits for the gate; the title thread then gets its answer.
    const waitForGate = functionCall('exec_command', { cmd: `echo started; while [ ! -e ${gate} ]; do sleep 0.1; done; echo done`, yield_time_ms: 60_000 });
    model.expect([sse(waitForGate, completed()), sse(waitForGate, completed()), sse(assistantMessage('Long command'), completed())]);
    const tui = await scenario().start();
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
