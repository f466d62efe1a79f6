// Codex's own terminal UI against `skein app-server`: the real `codex --remote` (Codex 0.171.0, a
// devDependency) in a pseudo-terminal, its screen read through a headless terminal emulator, the
// mock model behind the server. The test types and reads the screen as a person would: the start-up
// screens, a turn with a command and its output, the agent view, /quit's token usage, and a resume.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, functionCall, sse } from '@skein/test-support';
import { describe, expect, it } from 'vitest';
import { CODEX_SKIP, codex, KEYS, useTuiScenario } from './support/codex-tui.js';

const scenario = useTuiScenario();

describe('Codex 0.171.0 terminal UI against skein app-server', () => {
  it.skipIf(codex.missing !== undefined)(`runs a whole session: a command, the answer, the agent view, /quit and a resume${CODEX_SKIP}`, { timeout: 90_000 }, async () => {
    const { model, workspace } = scenario();
    mkdirSync(path.join(workspace, '.git'));
    // The command, then the answer. The TUI also asks for a thread title on a thread of its own, at
    // the same time as the answer: both get the same text, so either order reads the same.
    model.expect([
      sse(functionCall('exec_command', { cmd: 'echo hi' }), completed()),
      sse(assistantMessage('It printed hi.'), completed()),
      sse(assistantMessage('It printed hi.'), completed()),
    ]);
    // Start-up (the model list offers the newer model, as Codex's own server does for gpt-5.5) ends at the prompt.
    const tui = await scenario().start();

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
    const resumed = scenario().open(['resume', threadId ?? '']);
    const history = await resumed.waitFor('It printed hi.');
    expect(history).toContain('Run echo hi');
    expect(history).not.toContain('■');
  });
});
