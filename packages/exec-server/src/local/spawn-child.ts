// Starting one OS process, on pipes or under a pseudo-terminal, behind one small handle. Each child
// leads its own process group so a signal or kill reaches everything it started.
import { spawn as spawnPipe, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, readSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import type * as NodePty from '@lydell/node-pty';
import type { ProcessStream, TerminalSize } from '../process-api.js';

/** Stdin bytes that may wait unread in a child's pipe before writes are refused. */
export const MAX_PENDING_STDIN_BYTES = 8 * 1024 * 1024;
const DEFAULT_SIZE: TerminalSize = { cols: 80, rows: 24 };

/** What to run, already resolved (and wrapped by the sandbox when confined). */
export interface ChildSpec {
  readonly file: string;
  readonly args: readonly string[];
  readonly argv0?: string | undefined;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly tty: boolean;
  readonly pipeStdin: boolean;
  readonly size?: TerminalSize | undefined;
}

/** Where a child reports. `exit` comes once; `closed` once its output streams have ended. */
export interface ChildEvents {
  output(stream: ProcessStream, bytes: Uint8Array): void;
  /** `signal` is the name of the signal that ended the child, or null. */
  exit(exitCode: number, signal: NodeJS.Signals | null): void;
  closed(): void;
}

/** A started child. */
export interface ChildHandle {
  readonly pid: number;
  /** 'stdinClosed' without a writable stdin; 'full' when too much is already waiting. */
  write(bytes: Uint8Array): 'accepted' | 'stdinClosed' | 'full';
  /** Ends stdin (a PTY gets the terminal's end-of-file character); later writes answer 'stdinClosed'. */
  closeStdin(): void;
  /** False when the child has no terminal. */
  resize(size: TerminalSize): boolean;
  /** Signals the child's process group and its descendants (falling back to the child alone). */
  signal(signal: NodeJS.Signals): void;
}

/** The name of a signal number (`SIGKILL` for 9). */
export function signalName(number: number): NodeJS.Signals | null {
  const entry = Object.entries(osConstants.signals).find(([, value]) => value === number);
  return entry === undefined ? null : (entry[0] as NodeJS.Signals);
}

/** 128 + the signal's number, the shell's convention for "killed by a signal". */
export function signalExitCode(signal: NodeJS.Signals | number): number {
  const number = typeof signal === 'number' ? signal : osConstants.signals[signal];
  return 128 + number;
}

// Bounds the /proc walk for descendants of one child.
const MAX_DESCENDANTS = 4096;

/** Every live descendant of `pid` (Linux /proc; empty elsewhere), parents before children. */
export function descendantsOf(pid: number): number[] {
  const found: number[] = [];
  const pending = [pid];
  while (pending.length > 0 && found.length < MAX_DESCENDANTS) {
    const parent = pending.shift()!;
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${parent}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      let children: string;
      try {
        children = readFileSync(`/proc/${parent}/task/${task}/children`, 'utf8');
      } catch {
        continue;
      }
      for (const child of children.split(' ')) {
        const number = Number(child);
        if (child.trim() !== '' && Number.isInteger(number) && !found.includes(number)) {
          found.push(number);
          pending.push(number);
        }
      }
    }
  }
  return found;
}

/**
 * Signals the child's process group and every descendant found in /proc: descendants that started
 * their own session (a sandbox's `--new-session`, a daemonizing command) are reached too.
 */
function signalTree(pid: number | undefined, signal: NodeJS.Signals, fallback: () => void): void {
  if (pid === undefined) return;
  const descendants = descendantsOf(pid);
  try {
    process.kill(-pid, signal);
  } catch {
    // The group may already be gone, or the child may not lead one; try it alone.
    try {
      fallback();
    } catch {
      // Already exited: nothing left to signal.
    }
  }
  for (const descendant of descendants) {
    try {
      process.kill(descendant, signal);
    } catch {
      // Exited in the meantime.
    }
  }
}

/**
 * Spawns on pipes. Resolves once the OS has started the program; rejects with the spawn error
 * (ENOENT, EACCES, …) otherwise. `spawnProcess` lets the sandbox substitute its own spawner (it passes
 * extra file descriptors).
 */
export function startPipeChild(
  spec: ChildSpec,
  events: ChildEvents,
  spawnProcess: (spec: ChildSpec) => ChildProcess = defaultSpawn,
): Promise<ChildHandle> {
  const child = spawnProcess(spec);
  return new Promise<ChildHandle>((resolve, reject) => {
    let open = 2;
    const streamDone = (): void => {
      open -= 1;
      if (open === 0) events.closed();
    };
    child.stdout?.on('data', (data: Buffer) => events.output('stdout', new Uint8Array(data)));
    child.stderr?.on('data', (data: Buffer) => events.output('stderr', new Uint8Array(data)));
    child.stdout?.once('close', streamDone);
    child.stderr?.once('close', streamDone);
    // An EPIPE on stdin (the child stopped reading) is not the server's failure.
    child.stdin?.on('error', () => undefined);
    child.once('error', (error) => reject(error));
    child.once('exit', (code, signal) => events.exit(code ?? signalExitCode(signal ?? 'SIGKILL'), code === null ? (signal ?? 'SIGKILL') : null));
    child.once('spawn', () => {
      const handle: ChildHandle = {
        pid: child.pid ?? -1,
        write(bytes) {
          const stdin = child.stdin;
          if (stdin === null || stdin.destroyed || !stdin.writable) return 'stdinClosed';
          if (stdin.writableLength > MAX_PENDING_STDIN_BYTES) return 'full';
          stdin.write(bytes);
          return 'accepted';
        },
        closeStdin() {
          child.stdin?.end();
        },
        resize: () => false,
        signal: (signal) => signalTree(child.pid, signal, () => child.kill(signal)),
      };
      resolve(handle);
    });
  });
}

/**
 * node-pty closes the terminal (destroys its socket, which owns the master fd) too early twice over:
 * - 200 ms after the child exits, dropping what was still unread: on a loaded machine that timer can
 *   run before the read (CI lost a command's last line this way). So the socket first reads what the
 *   master still holds.
 * - as soon as no process holds the terminal's slave side open: the master then reads end-of-file,
 *   and the socket, a duplex that does not stay half open, destroys itself. The kernel hangs the
 *   terminal up and sends SIGHUP to the command: one that closed its side and runs on dies of it, and
 *   so, racing, does one that closes its output on the way out (`cat` does), reported as exit 129
 *   instead of its own code. So while the child runs, closing waits until it has exited.
 * Relies on node-pty 1.1's `_socket` and `_fd`; without them it does nothing.
 */
function guardTerminalClose(pty: NodePty.IPty, output: (bytes: Uint8Array) => void): void {
  const internals = pty as unknown as { _socket?: TerminalSocket; _fd?: unknown };
  const socket = internals._socket;
  const fd = internals._fd;
  if (socket === undefined || typeof socket.destroy !== 'function' || typeof fd !== 'number') return;
  const destroy = socket.destroy.bind(socket);
  const started = processStat(pty.pid);
  let waitingForExit = false;
  socket.destroy = (...args: unknown[]) => {
    drainTerminal(socket, fd, output);
    if (socket.destroyed === false && childIsRunning(pty.pid, started)) {
      if (!waitingForExit) {
        waitingForExit = true;
        // Nothing more can be read; stop polling the hung-up fd while the command finishes.
        socket.pause();
        socket._handle?.readStop?.();
        whenExited(pty.pid, started, () => {
          if (socket.destroyed === false) destroy(...args);
        });
      }
      return socket;
    }
    destroy(...args);
    return socket;
  };
}

/** The parts of node-pty's socket (a tty.ReadStream over the master) the guard uses. */
interface TerminalSocket {
  destroyed?: unknown;
  destroy: (...args: unknown[]) => unknown;
  pause: () => unknown;
  _handle?: { readStop?: () => unknown } | null;
}

// 16 reads of 64 KiB: more than a terminal buffers, far less than would stall the executor.
const MAX_DRAIN_READS = 16;

/** Hands on what the master fd still holds, read while the socket (which owns the fd) is alive. */
function drainTerminal(socket: TerminalSocket, fd: number, output: (bytes: Uint8Array) => void): void {
  const buffer = Buffer.alloc(64 * 1024);
  // Only while the socket is alive does it own the fd; a destroyed one's number may be reused.
  // Bounded: a background process may keep the terminal busy after the command has exited.
  for (let reads = 0; reads < MAX_DRAIN_READS && socket.destroyed === false; reads += 1) {
    let read: number;
    try {
      // The fd is non-blocking: EAGAIN when empty, EIO once the terminal is gone and drained.
      read = readSync(fd, buffer);
    } catch {
      return;
    }
    if (read <= 0) return;
    output(new Uint8Array(buffer.subarray(0, read)));
  }
}

/** A process as Linux's /proc/<pid>/stat shows it: its state letter and its start time (a pid may be reused). */
interface ProcessStat {
  readonly state: string;
  readonly startTime: string;
}

function processStat(pid: number): ProcessStat | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After `pid (comm) `: state is field 3, start time field 22.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', startTime: fields[19] ?? '' };
  } catch {
    return undefined;
  }
}

/**
 * Whether the child `started` describes has not exited yet: a zombie has exited, a missing or reused
 * pid was reaped. Without /proc (not Linux) answers false: the terminal is then closed at once, as before.
 */
function childIsRunning(pid: number, started: ProcessStat | undefined): boolean {
  const now = processStat(pid);
  return started !== undefined && now !== undefined && now.startTime === started.startTime && now.state !== 'Z' && now.state !== 'X';
}

/** The longest wait between two looks at a child the terminal is kept open for. */
const MAX_EXIT_POLL_MS = 100;

/** Calls `then` once the child has exited, checking often at first (most commands are on their way out). */
function whenExited(pid: number, started: ProcessStat | undefined, then: () => void, delayMs = 1): void {
  if (!childIsRunning(pid, started)) {
    then();
    return;
  }
  setTimeout(() => whenExited(pid, started, then, Math.min(delayMs * 2, MAX_EXIT_POLL_MS)), delayMs);
}

function defaultSpawn(spec: ChildSpec): ChildProcess {
  return spawnPipe(spec.file, [...spec.args], {
    cwd: spec.cwd,
    env: spec.env,
    argv0: spec.argv0,
    stdio: [spec.pipeStdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    // A new session: the child leads a process group, so kills reach its descendants.
    detached: true,
    windowsHide: true,
  });
}

// Loaded on first use: importing this package must not load a native addon nobody needs.
let ptyModule: Promise<typeof NodePty> | undefined;

/** Spawns under a pseudo-terminal (stdin always writable). Spawn problems surface as output and exit 1. */
export async function startPtyChild(spec: ChildSpec, events: ChildEvents): Promise<ChildHandle> {
  const size = spec.size ?? DEFAULT_SIZE;
  ptyModule ??= import('@lydell/node-pty');
  const { spawn: spawnPty } = await ptyModule;
  const pty: NodePty.IPty = spawnPty(spec.file, [...spec.args], {
    name: 'xterm-256color',
    cols: size.cols,
    rows: size.rows,
    cwd: spec.cwd,
    env: { ...spec.env },
    // null: data arrives as Buffers, so bytes that are not UTF-8 survive.
    encoding: null,
  });
  let exited = false;
  let stdinClosed = false;
  // With `encoding: null` node-pty emits Buffers although its typings say string.
  const onBytes = pty.onData as unknown as (listener: (data: string | Buffer) => void) => void;
  onBytes((data) => events.output('pty', typeof data === 'string' ? new TextEncoder().encode(data) : new Uint8Array(data)));
  guardTerminalClose(pty, (bytes) => events.output('pty', bytes));
  pty.onExit(({ exitCode, signal }) => {
    exited = true;
    const signalled = signal !== undefined && signal !== 0;
    events.exit(signalled ? signalExitCode(signal) : exitCode, signalled ? signalName(signal) : null);
    // node-pty reports exit once the terminal is closed, and guardTerminalClose read what it held.
    events.closed();
  });
  return {
    pid: pty.pid,
    write(bytes) {
      if (exited || stdinClosed) return 'stdinClosed';
      // node-pty's typings say string, but it hands the value to a socket, which takes bytes as they are.
      const writeBytes = pty.write.bind(pty) as (data: string | Buffer) => void;
      writeBytes(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      return 'accepted';
    },
    closeStdin() {
      // A terminal has no separate input stream to end: Ctrl-D at the start of a line is its end of file.
      if (!exited && !stdinClosed) pty.write('\x04');
      stdinClosed = true;
    },
    resize(next) {
      if (!exited) pty.resize(next.cols, next.rows);
      return true;
    },
    signal: (signal) => signalTree(pty.pid, signal, () => pty.kill(signal)),
  };
}
