// What the Codex-TUI tests share: the real `codex --remote` (Codex 0.171.0, a devDependency) in a
// pseudo-terminal, its screen read through a headless terminal emulator, and `skein app-server`
// listening on a WebSocket for it.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pty from '@lydell/node-pty';
import { mockProviderConfigToml, resolveCodexBinary, startMockResponsesServer, type MockResponsesServer } from '@skein/test-support';
import { Terminal } from '@xterm/headless';
import { afterEach, beforeEach } from 'vitest';
import { BIN } from './exec-run.js';

/** The Codex binary, or why it is missing (the tests skip with that reason). */
export const codex = resolveCodexBinary(import.meta.url);
/** A skip reason for test titles, empty when Codex is there. */
export const CODEX_SKIP = codex.missing === undefined ? '' : ` (skipped: ${codex.missing})`;
/** Codex refuses to keep its home under TMPDIR, so test homes live in the package. */
export const TUI_HOMES = path.join(import.meta.dirname, '..', '..', '.test-homes');
const COLS = 120;
const ROWS = 40;

/** Keys as the terminal sends them. */
export const KEYS = { enter: '\r', escape: '\x1b', down: '\x1b[B', left: '\x1b[D' } as const;

/** One `codex --remote` session in a pseudo-terminal, and what its screen shows. */
export class TuiSession {
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

  /** Waits until `shows(screen)`; fails with the screen when it does not in time. */
  async waitUntil(shows: (screen: string) => boolean, what: string, timeoutMs = 20_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = this.screen();
      if (shows(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`the screen never showed ${what}; it shows:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Waits until the screen shows `text`. */
  waitFor(text: string | RegExp, timeoutMs = 20_000): Promise<string> {
    return this.waitUntil((screen) => (typeof text === 'string' ? screen.includes(text) : text.test(screen)), String(text), timeoutMs);
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

/**
 * Starts `skein app-server --listen ws://127.0.0.1:0` in `workspace` over `skeinHome`; resolves to
 * the server and its URL once it listens. `env` is the whole environment the server gets.
 */
export async function startSkeinServer(workspace: string, env: Record<string, string | undefined>): Promise<{ readonly child: ChildProcess; readonly url: string }> {
  const child = spawn(process.execPath, [BIN, 'app-server', '--listen', 'ws://127.0.0.1:0'], { cwd: workspace, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on: (ws:\/\/\S+)/.exec(stderr);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`skein app-server exited with ${code}:\n${stderr}`)));
  });
  return { child, url };
}

/** One test's homes (Skein's and Codex's), its workspace (trusted by both) and its mock model. */
export interface TuiScenario {
  readonly root: string;
  readonly model: MockResponsesServer;
  readonly skeinHome: string;
  readonly codexHome: string;
  readonly workspace: string;
  /** Starts `skein app-server` and Codex's TUI against it, past the start-up screens to the prompt. */
  start(): Promise<TuiSession>;
  /** Another TUI session against the started server (`codex --remote <url> …args`). */
  open(args: readonly string[]): TuiSession;
}

/**
 * Registers the hooks that give each test a fresh scenario (a workspace with an empty `.git` unless
 * the test makes its own repository first) and stop its server, TUI sessions and model afterwards.
 */
export function useTuiScenario(): () => TuiScenario {
  let scenario: TuiScenario | undefined;
  let server: ChildProcess | undefined;
  const sessions: TuiSession[] = [];
  beforeEach(async () => {
    const root = path.join(TUI_HOMES, randomUUID());
    const model = await startMockResponsesServer();
    const [skeinHome, codexHome, workspace] = ['skein-home', 'codex-home', 'workspace'].map((name) => path.join(root, name)) as [string, string, string];
    for (const dir of [skeinHome, codexHome, workspace]) mkdirSync(dir, { recursive: true });
    const trusted = `\n[projects.${JSON.stringify(workspace)}]\ntrust_level = "trusted"\n`;
    writeFileSync(path.join(skeinHome, 'config.toml'), `${mockProviderConfigToml(model.url, { envKey: 'MOCK_API_KEY' })}${trusted}`);
    writeFileSync(path.join(codexHome, 'config.toml'), trusted);
    let url: string | undefined;
    const open = (args: readonly string[]): TuiSession => {
      if (url === undefined) throw new Error('start the server before opening a session');
      const session = new TuiSession(['--remote', url, ...args], workspace, { PATH: process.env.PATH, HOME: root, CODEX_HOME: codexHome, TERM: 'xterm-256color', TZ: 'UTC' });
      sessions.push(session);
      return session;
    };
    scenario = {
      root,
      model,
      skeinHome,
      codexHome,
      workspace,
      open,
      async start() {
        const started = await startSkeinServer(workspace, { PATH: process.env.PATH, HOME: root, CODEX_HOME: skeinHome, MOCK_API_KEY: 'sk-mock', TZ: 'UTC' });
        server = started.child;
        url = started.url;
        const tui = open([]);
        // Codex's own server offers the newer model for gpt-5.5; so does Skein's model list.
        await tui.waitFor('Use existing model');
        await tui.pressUntil(KEYS.down, '› 2. Use existing model');
        tui.type(KEYS.enter);
        await tui.waitFor('Ask Codex to do anything');
        // The footer names the model once the thread is configured: a command typed before that
        // (on a loaded machine) finds no thread ("No active thread is available").
        await tui.waitFor(/GPT-5\.5 \w+ · /);
        return tui;
      },
    };
  });
  afterEach(async () => {
    for (const session of sessions.splice(0)) session.close();
    server?.kill();
    server = undefined;
    const ended = scenario;
    scenario = undefined;
    if (ended === undefined) return;
    try {
      await ended.model.close();
    } finally {
      rmSync(ended.root, { recursive: true, force: true });
    }
  });
  return () => {
    if (scenario === undefined) throw new Error('the TUI scenario exists only inside a test');
    return scenario;
  };
}
