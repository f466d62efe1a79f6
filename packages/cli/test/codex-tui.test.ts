// Codex's own terminal UI against `skein app-server`: the real `codex --remote` (Codex 0.171.0, a
// devDependency) in a pseudo-terminal, its screen read through a headless terminal emulator, the
// mock model behind the server. The test types and reads the screen as a person would: the start-up
// screens, a turn with a command and its output, the agent view, /quit's token usage, and a resume.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pty from '@lydell/node-pty';
import { assistantMessage, completed, functionCall, mockProviderConfigToml, resolveCodexBinary, sse, startMockResponsesServer, type MockResponsesServer } from '@skein/test-support';
import { Terminal } from '@xterm/headless';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN } from './support/exec-run.js';

const codex = resolveCodexBinary(import.meta.url);
const SKIP = codex.missing === undefined ? '' : ` (skipped: ${codex.missing})`;
// Codex refuses to keep its home under TMPDIR, so the homes live in the package.
const HOMES = path.join(import.meta.dirname, '..', '.test-homes');
const COLS = 120;
const ROWS = 40;

/** One `codex --remote` session in a pseudo-terminal, and what its screen shows. */
class TuiSession {
  readonly #terminal = new Terminal({ cols: COLS, rows: ROWS, allowProposedApi: true });
  readonly #process: pty.IPty;
  #exited = false;

  constructor(args: readonly string[], cwd: string, env: Record<string, string | undefined>) {
    this.#process = pty.spawn(codex.binary ?? 'codex', [...args], { name: 'xterm-256color', cols: COLS, rows: ROWS, cwd, env });
    this.#process.onData((data) => this.#terminal.write(data));
    this.#process.onExit(() => (this.#exited = true));
  }

  /** The visible screen, one line per row, trailing blanks trimmed. */
  screen(): string {
    const buffer = this.#terminal.buffer.active;
    const lines: string[] = [];
    for (let row = 0; row < ROWS; row += 1) lines.push(buffer.getLine(buffer.viewportY + row)?.translateToString(true) ?? '');
    return lines.join('\n');
  }

  /** Waits until the screen shows `text`; fails with the screen when it does not in time. */
  async waitFor(text: string | RegExp, timeoutMs = 20_000): Promise<string> {
    const shows = (screen: string) => (typeof text === 'string' ? screen.includes(text) : text.test(screen));
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = this.screen();
      if (shows(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`the screen never showed ${String(text)}; it shows:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  type(keys: string): void {
    this.#process.write(keys);
  }

  /**
   * Types `keys` until the screen shows `text`. A screen that has just appeared may not read keys
   * yet (the TUI drops what arrives before its input loop runs), so a key that changed nothing is sent again.
   */
  async pressUntil(keys: string, text: string | RegExp, attempts = 5): Promise<string> {
    for (let attempt = 1; ; attempt += 1) {
      this.type(keys);
      try {
        return await this.waitFor(text, attempt === attempts ? 20_000 : 1_500);
      } catch (error) {
        if (attempt === attempts) throw error;
      }
    }
  }

  close(): void {
    if (!this.#exited) this.#process.kill();
  }
}

const KEYS = { enter: '\r', escape: '\x1b', down: '\x1b[B', left: '\x1b[D' } as const;

let root: string;
let model: MockResponsesServer;
let server: ChildProcess | undefined;
const sessions: TuiSession[] = [];

beforeEach(async () => {
  root = path.join(HOMES, randomUUID());
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

/** `skein app-server --listen ws://127.0.0.1:0` over a home pointing at the mock model; resolves to its URL. */
async function startSkeinServer(skeinHome: string, workspace: string): Promise<string> {
  const child = spawn(process.execPath, [BIN, 'app-server', '--listen', 'ws://127.0.0.1:0'], {
    cwd: workspace,
    env: { PATH: process.env.PATH, HOME: root, CODEX_HOME: skeinHome, MOCK_API_KEY: 'sk-mock', TZ: 'UTC' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  server = child;
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on: (ws:\/\/\S+)/.exec(stderr);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`skein app-server exited with ${code}:\n${stderr}`)));
  });
}

describe('Codex 0.171.0 terminal UI against skein app-server', () => {
  it.skipIf(codex.missing !== undefined)(`runs a whole session: a command, the answer, the agent view, /quit and a resume${SKIP}`, { timeout: 90_000 }, async () => {
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
    const url = await startSkeinServer(skeinHome, workspace);
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
