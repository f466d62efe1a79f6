// Starts the built exec-server binary (dist/bin.js) as a real process and stops it; shared by the tests
// that talk to it over WebSocket.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

/** The package's own server entry point, as built. */
export const SERVER_BIN = path.join(import.meta.dirname, '..', 'dist', 'bin.js');

/** A running `skein-exec-server`. */
export interface RunningServer {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  stop(): Promise<void>;
}

/**
 * Starts the server with `args` (default: a free loopback port) and waits for the URL it prints.
 * `command` runs another program instead of Node; `bin: null` leaves out this package's script;
 * `env` replaces the inherited environment.
 */
export async function startServer(
  args: readonly string[] = ['--listen', 'ws://127.0.0.1:0'],
  options: { command?: readonly string[]; bin?: string | null; env?: Readonly<Record<string, string | undefined>> } = {},
): Promise<RunningServer> {
  const [program, ...prefix] = options.command ?? [process.execPath];
  const script = options.bin === null ? [] : [options.bin ?? SERVER_BIN];
  const child = spawn(program!, [...prefix, ...script, ...args], { stdio: ['pipe', 'pipe', 'pipe'], cwd: path.dirname(SERVER_BIN), env: options.env ?? process.env });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`exec-server exited with ${code} before listening: ${stderr}`)));
  });
  return {
    url,
    child,
    stderr: () => stderr,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
