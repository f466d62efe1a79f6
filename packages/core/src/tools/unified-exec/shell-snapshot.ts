// Shell snapshots (`shell_snapshot`, on by default as in Codex): the environment a login shell ends
// up with once its profile scripts ran, captured once per executor, shell, cwd and starting
// environment, so later commands run the shell without `-l` — no profile scripts per command — with
// that environment. The capture runs on the command's own executor (a remote machine captures its
// own shell), under the command's sandbox. Snapshots are kept per executor, not per thread: every
// thread on an environment (a fork, a child) reuses what an earlier one captured.
//
// As in Codex, what carries over is the exported environment; functions, aliases and shell options
// a profile defines do not reach the commands.
import { createHash } from 'node:crypto';
import type { ExecEnvPolicy, ExecutorProcesses, FileSystemSandboxContext } from '@skein/exec-server';
import type { PathUri } from '@skein/protocol';

/** How long a capture may take before commands fall back to a login shell each (Codex's bound). */
export const SHELL_SNAPSHOT_TIMEOUT_MS = 10_000;
/** Output a capture keeps; an environment larger than this is not snapshotted. */
const MAX_SNAPSHOT_BYTES = 1024 * 1024;
/** Shells whose `-lc` runs profile scripts and which take `-c` without them. */
const POSIX_SHELLS = new Set(['bash', 'zsh', 'sh', 'dash', 'ksh', 'mksh']);
/**
 * Variables that describe the capturing process, not the user's environment: the shell's own, and
 * the markers a sandbox sets (a later command under another sandbox, or none, must not inherit them).
 */
const PROCESS_VARIABLES = new Set(['_', 'PWD', 'OLDPWD', 'SHLVL', 'CODEX_SANDBOX', 'CODEX_SANDBOX_NETWORK_DISABLED']);
/** Snapshots kept per executor; the least recently used beyond this are dropped. */
const MAX_SNAPSHOTS_PER_EXECUTOR = 32;

/** The environment a login shell set up. */
export interface ShellSnapshot {
  readonly env: Readonly<Record<string, string>>;
}

/** What a capture starts from: the first command's shell, cwd, variables and sandbox. */
export interface SnapshotRequest {
  readonly shell: string;
  readonly cwd: PathUri;
  readonly env: Readonly<Record<string, string>>;
  readonly envPolicy?: ExecEnvPolicy | undefined;
  readonly sandbox: FileSystemSandboxContext | null;
  /** A monotonic milliseconds clock, for the capture's deadline. */
  readonly now: () => number;
}

const snapshots = new WeakMap<object, Map<string, Promise<ShellSnapshot | undefined>>>();
let captures = 0;

/**
 * The snapshot for `request` on `processes`: captured on first use, then shared. Undefined when the
 * shell is not a POSIX shell or the capture failed (commands then run `-lc` each, as without one).
 */
export function shellSnapshot(processes: ExecutorProcesses, request: SnapshotRequest): Promise<ShellSnapshot | undefined> {
  if (!POSIX_SHELLS.has(shellName(request.shell))) return Promise.resolve(undefined);
  // Per executor: a handle that reconnects to another exec-server gets that one's own snapshot.
  const executor = processes.currentExecutor?.() ?? processes;
  let byKey = snapshots.get(executor);
  if (byKey === undefined) {
    byKey = new Map();
    snapshots.set(executor, byKey);
  }
  // The sandbox is part of the key: what a confined profile could see (its network, its files) is
  // not what an unconfined one sees.
  const key = createHash('sha256').update(JSON.stringify([request.shell, request.cwd.toString(), request.env, request.envPolicy ?? null, request.sandbox])).digest('hex');
  let snapshot = byKey.get(key);
  if (snapshot === undefined) {
    // A failed capture is kept too: commands then run their login shell, rather than capturing again each time.
    snapshot = capture(processes, request);
  }
  byKey.delete(key);
  byKey.set(key, snapshot);
  const oldest = byKey.keys().next().value;
  if (byKey.size > MAX_SNAPSHOTS_PER_EXECUTOR && oldest !== undefined) byKey.delete(oldest);
  return snapshot;
}

/** Runs `<shell> -lc 'env -0'` and reads the variables it printed. */
async function capture(processes: ExecutorProcesses, request: SnapshotRequest): Promise<ShellSnapshot | undefined> {
  const processId = `shell-snapshot-${process.pid}-${++captures}`;
  try {
    await processes.start({ processId, argv: [request.shell, '-lc', 'env -0'], cwd: request.cwd, env: request.env, envPolicy: request.envPolicy, tty: false, sandbox: request.sandbox });
  } catch {
    return undefined;
  }
  const deadline = request.now() + SHELL_SNAPSHOT_TIMEOUT_MS;
  const stdout: Uint8Array[] = [];
  let bytes = 0;
  let afterSeq = 0;
  try {
    for (;;) {
      const left = deadline - request.now();
      if (left <= 0 || bytes > MAX_SNAPSHOT_BYTES) return undefined;
      const read = await processes.read(processId, { afterSeq, waitMs: Math.min(left, 1_000) });
      for (const chunk of read.chunks) {
        if (chunk.stream === 'stdout') {
          stdout.push(chunk.chunk);
          bytes += chunk.chunk.length;
        }
      }
      afterSeq = read.nextSeq - 1;
      if (read.closed) {
        return read.exitCode === 0 && read.failure === null ? { env: parseEnv(Buffer.concat(stdout).toString('utf8')) } : undefined;
      }
    }
  } catch {
    return undefined;
  } finally {
    // Nothing is left running behind a capture that timed out.
    await processes.terminate(processId).catch(() => undefined);
  }
}

/** `env -0`'s NUL-separated `NAME=value` entries, without the capturing process's own variables. */
function parseEnv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of text.split('\0')) {
    const equals = entry.indexOf('=');
    if (equals <= 0) continue;
    const name = entry.slice(0, equals);
    if (!PROCESS_VARIABLES.has(name)) env[name] = entry.slice(equals + 1);
  }
  return env;
}

function shellName(shell: string): string {
  return shell.slice(Math.max(shell.lastIndexOf('/'), shell.lastIndexOf('\\')) + 1).replace(/\.exe$/i, '');
}
