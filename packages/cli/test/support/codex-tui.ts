// What the Codex-TUI tests share: the real `codex --remote` (Codex 0.171.0, a devDependency) in a
// pseudo-terminal, its screen read through a headless terminal emulator, and `skein app-server`
// listening on a WebSocket for it.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import pty from '@lydell/node-pty';
import { resolveCodexBinary } from '@skein/test-support';
import { Terminal } from '@xterm/headless';
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
