// Real `skein-exec-server` children for the environment tests: each on a free loopback port behind
// a capability token, in a folder of its own, with a marker variable only its processes see.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const EXEC_SERVER_BIN = path.join(path.dirname(fileURLToPath(import.meta.resolve('@skein/exec-server'))), 'bin.js');
export const EXEC_TOKEN = 'exec-server-test-token';
/** Only the exec-server process has it: a command that prints it ran there. */
export const MARKER = 'SKEIN_TEST_EXECUTOR';

/** A running exec-server: its URL, process and folder. */
export interface ExecServerChild {
  readonly url: string;
  readonly child: ChildProcess;
  readonly root: string;
}

/**
 * Starts an exec-server in `<parent>/<name>` (`MARKER` set to `name`), optionally under a wrapper
 * command (`wrap(root)`, e.g. bubblewrap); the child is added to `children` for the test to stop.
 */
export async function startExecServer(
  parent: string,
  name: string,
  children: ChildProcess[],
  wrap: (root: string) => readonly string[] = () => [],
): Promise<ExecServerChild> {
  const root = path.join(parent, name);
  mkdirSync(root, { recursive: true });
  const tokenFile = path.join(root, '.token');
  writeFileSync(tokenFile, `${EXEC_TOKEN}\n`);
  const [program, ...wrapArgs] = [...wrap(root), process.execPath];
  const child = spawn(program, [...wrapArgs, EXEC_SERVER_BIN, '--listen', 'ws://127.0.0.1:0', '--ws-auth', 'capability-token', '--ws-token-file', tokenFile], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: root, [MARKER]: name },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  return { url: line.trim(), child, root };
}

/** A loopback port nothing listens on. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}
