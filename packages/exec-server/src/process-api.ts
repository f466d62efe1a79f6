// ExecutorProcesses: starting commands and streaming their output, the same whether they run here or on
// an exec-server elsewhere. Owns the interface, its value types and ProcessError.
import { lazySchema, type PathUri } from '@skein/protocol/executor';
import * as z from 'zod';
import type { FileSystemSandboxContext } from './sandbox-context.js';

/** Where an output chunk came from; a PTY merges both streams into `pty`. */
export const ProcessStream = lazySchema(() => z.enum(['stdout', 'stderr', 'pty']));
export type ProcessStream = z.infer<typeof ProcessStream>;

/** Signals a client may send; `interrupt` is SIGINT (Ctrl-C). */
export const ProcessSignal = lazySchema(() => z.enum(['interrupt']));
export type ProcessSignal = z.infer<typeof ProcessSignal>;

/** What happened to a stdin write. */
export const WriteStatus = lazySchema(() => z.enum(['accepted', 'unknownProcess', 'stdinClosed', 'starting']));
export type WriteStatus = z.infer<typeof WriteStatus>;

/** How a process was confined: `none`, or the platform sandbox (`linuxSeccomp` for bubblewrap + seccomp). */
export const SandboxType = lazySchema(() => z.string());
export type SandboxType = z.infer<typeof SandboxType>;

/** A terminal size in character cells. */
export const TerminalSize = lazySchema(() => z.object({ cols: z.number().int().min(1).max(1000), rows: z.number().int().min(1).max(1000) }));
export type TerminalSize = z.infer<typeof TerminalSize>;

/** Codex's `shell_environment_policy`, applied on the executor to build the child's environment. */
export const ExecEnvPolicy = lazySchema(() => z.object({
  inherit: z.enum(['all', 'core', 'none']),
  ignoreDefaultExcludes: z.boolean(),
  exclude: z.array(z.string()),
  set: z.record(z.string(), z.string()),
  includeOnly: z.array(z.string()),
}));
export type ExecEnvPolicy = z.infer<typeof ExecEnvPolicy>;

/** How to start a process. */
export interface StartProcessParams {
  /** The caller's handle for the process, unique per owner; not an OS pid. */
  readonly processId: string;
  /** Program and arguments; the program is looked up on the `PATH` of `env`. */
  readonly argv: readonly string[];
  readonly cwd: PathUri;
  /** The complete environment, unless `envPolicy` is given: nothing is inherited from the executor. */
  readonly env: Readonly<Record<string, string>>;
  /**
   * Build the environment on the executor from its own variables by this policy, `env` laid over
   * it: a remote machine's PATH and HOME are its own. Only remote executors take it; local
   * processes answer 'InvalidArgument', since their caller already holds the host's variables.
   */
  readonly envPolicy?: ExecEnvPolicy | null | undefined;
  /** Run under a pseudo-terminal (output arrives as the `pty` stream). */
  readonly tty: boolean;
  /** Keep stdin open for `write` when not a tty (default false: stdin is /dev/null). */
  readonly pipeStdin?: boolean | undefined;
  /** The `argv[0]` the program sees, when it differs from the program looked up. */
  readonly arg0?: string | null | undefined;
  /** Confine the process; a restrictive context runs it through the platform sandbox. */
  readonly sandbox?: FileSystemSandboxContext | null | undefined;
  /** Output bytes kept for `read` (default `DEFAULT_RETAINED_OUTPUT_BYTES`); older chunks are dropped. */
  readonly outputByteCap?: number | undefined;
  /** Initial terminal size for `tty` (default 80×24). */
  readonly size?: TerminalSize | undefined;
}

/** The answer to a start. */
export interface StartProcessResult {
  readonly processId: string;
  readonly sandboxType: SandboxType;
}

/** Which output to read and how long to wait for some. */
export interface ReadProcessOptions {
  /** Return chunks with a larger sequence number (default 0: everything retained). */
  readonly afterSeq?: number | null | undefined;
  /** Stop adding chunks once this many bytes are returned (at least one chunk is returned). */
  readonly maxBytes?: number | null | undefined;
  /** Wait up to this long (capped by `MAX_READ_WAIT_MS`) when nothing newer than `afterSeq` exists yet. */
  readonly waitMs?: number | null | undefined;
}

/** One piece of output. */
export interface ProcessOutputChunk {
  readonly seq: number;
  readonly stream: ProcessStream;
  readonly chunk: Uint8Array;
}

/** A read's answer: output plus the process's state. */
export interface ProcessReadResult {
  readonly chunks: readonly ProcessOutputChunk[];
  /** The sequence number after the last thing reported; the next read passes `afterSeq: nextSeq - 1`. */
  readonly nextSeq: number;
  readonly exited: boolean;
  /** The exit status; 128 + signal number when a signal ended the process. */
  readonly exitCode: number | null;
  /** The signal that ended the process (`SIGKILL`, …), or null. A Skein addition to Codex's answer. */
  readonly signal: string | null;
  /** True once the process exited and its output streams closed. */
  readonly closed: boolean;
  readonly failure: string | null;
  /** The process failed in a way that looks like the sandbox refused it. */
  readonly sandboxDenied: boolean;
}

/** Pushed to subscribers as it happens, in sequence order per process. */
export type ProcessEvent =
  | { readonly type: 'output'; readonly processId: string; readonly seq: number; readonly stream: ProcessStream; readonly chunk: Uint8Array }
  | {
      readonly type: 'exited';
      readonly processId: string;
      readonly seq: number;
      readonly exitCode: number;
      /** The signal that ended the process, or null when it exited by itself. */
      readonly signal: string | null;
      readonly sandboxDenied: boolean;
    }
  | { readonly type: 'closed'; readonly processId: string; readonly seq: number }
  /**
   * The connection to the executor running the process closed before it reported its exit: nothing
   * more will arrive, and whether it still runs is unknown. Only remote processes report it.
   */
  | { readonly type: 'lost'; readonly processId: string; readonly reason: string };

/** Stable reasons a process call fails. */
export const ProcessErrorCode = lazySchema(() => z.enum([
  'ProcessExists',
  'UnknownProcess',
  'InvalidArgument',
  'SpawnFailed',
  'TooManyProcesses',
  'StdinFull',
  'NotATerminal',
  'SandboxUnavailable',
  'Closed',
]));
export type ProcessErrorCode = z.infer<typeof ProcessErrorCode>;

/** Raised by ExecutorProcesses implementations, local or remote, for the same failure. */
export class ProcessError extends Error {
  override readonly name = 'ProcessError';
  readonly code: ProcessErrorCode;
  /** For 'SpawnFailed': the OS error name (`ENOENT` when the program or cwd is missing). */
  readonly errno: string | undefined;

  constructor(code: ProcessErrorCode, message: string, errno?: string) {
    super(message);
    this.code = code;
    this.errno = errno;
  }
}

/**
 * Processes owned by one client. `close` terminates every process still running and resolves once
 * they are gone — the guarantee that nothing outlives its owner.
 */
export interface ExecutorProcesses {
  start(params: StartProcessParams): Promise<StartProcessResult>;
  read(processId: string, options?: ReadProcessOptions): Promise<ProcessReadResult>;
  /** Writes to stdin ('stdinClosed' when there is none, 'unknownProcess' for a handle never started). */
  write(processId: string, chunk: Uint8Array, writeId?: string): Promise<WriteStatus>;
  /** Sends a signal to the process group; unknown handles are ignored, as in Codex. */
  signal(processId: string, signal: ProcessSignal): Promise<void>;
  /** Kills the process group; `running` says whether it was still running. */
  terminate(processId: string): Promise<{ readonly running: boolean }>;
  /** Resizes a tty process's terminal. */
  resize(processId: string, size: TerminalSize): Promise<void>;
  /** Calls `listener` for every event of every process; returns the unsubscribe function. */
  subscribe(listener: (event: ProcessEvent) => void): () => void;
  /** Terminates every running process and waits for them to exit. */
  close(): Promise<void>;
  /**
   * The executor processes start on now, for handles whose executor can change (a link that
   * reconnects to a new exec-server): what callers learn about an executor (a shell snapshot) is
   * kept per identity. Without it the handle itself is the identity.
   */
  currentExecutor?(): object;
}
