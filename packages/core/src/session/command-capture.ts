// One-off commands a host runs on a thread's environment for its own use (gathering a diff for a
// review): started on the environment's own process runner under the thread's sandbox, their output
// read back with a byte bound and a deadline. Nothing is shown to the model or recorded as an item.
import type { ExecEnvPolicy, ExecutorProcesses, FileSystemSandboxContext } from '@skein/exec-server';
import type { PathUri } from '@skein/protocol';

/** Output a capture keeps when the caller names no bound (stdout and stderr together). */
export const DEFAULT_CAPTURE_MAX_BYTES = 1024 * 1024;
/** How long a capture may run when the caller names no deadline. */
export const DEFAULT_CAPTURE_TIMEOUT_MS = 60_000;
/** The longest a single read waits for output before checking the deadline and the signal again. */
const READ_WAIT_MS = 1_000;

/** What a host asks of {@link ThreadHandle.captureCommand}. */
export interface CaptureCommandOptions {
  /** Variables laid over the environment's own (as `[shell_environment_policy]` builds them). */
  readonly env?: Readonly<Record<string, string>> | undefined;
  /**
   * Stdout and stderr bytes kept together (default {@link DEFAULT_CAPTURE_MAX_BYTES}). Past it the
   * command is ended and the capture says `truncated`.
   */
  readonly maxOutputBytes?: number | undefined;
  /** Ends the command after this long (default {@link DEFAULT_CAPTURE_TIMEOUT_MS}); the capture says `timedOut`. */
  readonly timeoutMs?: number | undefined;
  /** Ends the command early; the capture rejects with the signal's reason. */
  readonly signal?: AbortSignal | undefined;
}

/** How a captured command ended and what it printed. */
export interface CommandCapture {
  /** Null when it did not exit by itself (cut at the bound, timed out) or failed to run. */
  readonly exitCode: number | null;
  /** Stdout as UTF-8 text (a multi-byte character cut at the bound is replaced). */
  readonly stdout: string;
  readonly stderr: string;
  /** The output passed the bound: what was read up to it is kept, the command was ended. */
  readonly truncated: boolean;
  readonly timedOut: boolean;
  /** Why the command could not run or read (the executor's message), else null. */
  readonly failure: string | null;
}

/** Where and how a capture runs (what {@link captureCommand} needs of an environment). */
export interface CaptureTarget {
  readonly processes: ExecutorProcesses;
  readonly cwd: PathUri;
  readonly env: Readonly<Record<string, string>>;
  readonly envPolicy?: ExecEnvPolicy | undefined;
  readonly sandbox: FileSystemSandboxContext | null;
  /** A monotonic milliseconds clock, for the deadline. */
  readonly now: () => number;
}

let captures = 0;

/** Runs `argv` on `target` to its end (or its bound, deadline, or abort) and returns what it printed. */
export async function captureCommand(target: CaptureTarget, argv: readonly string[], options: CaptureCommandOptions = {}): Promise<CommandCapture> {
  const maxBytes = options.maxOutputBytes ?? DEFAULT_CAPTURE_MAX_BYTES;
  const signal = options.signal;
  signal?.throwIfAborted();
  const processId = `capture-${process.pid}-${++captures}`;
  const empty = { stdout: '', stderr: '', truncated: false, timedOut: false };
  try {
    await target.processes.start({
      processId,
      argv,
      cwd: target.cwd,
      env: { ...target.env, ...options.env },
      envPolicy: target.envPolicy,
      tty: false,
      sandbox: target.sandbox,
      // Retained beyond the bound, so nothing is dropped between two reads before the cut.
      outputByteCap: maxBytes + 64 * 1024,
    });
  } catch (error) {
    return { ...empty, exitCode: null, failure: error instanceof Error ? error.message : String(error) };
  }
  const deadline = target.now() + (options.timeoutMs ?? DEFAULT_CAPTURE_TIMEOUT_MS);
  const stdout: Uint8Array[] = [];
  const stderr: Uint8Array[] = [];
  let bytes = 0;
  let afterSeq = 0;
  try {
    for (;;) {
      signal?.throwIfAborted();
      const left = deadline - target.now();
      if (left <= 0) return { ...collected(stdout, stderr), exitCode: null, truncated: false, timedOut: true, failure: null };
      const read = await target.processes.read(processId, { afterSeq, waitMs: Math.min(left, READ_WAIT_MS) });
      for (const chunk of read.chunks) {
        const room = maxBytes - bytes;
        // What passes the bound is dropped; the count goes past it so the capture ends as truncated.
        if (room > 0) (chunk.stream === 'stderr' ? stderr : stdout).push(chunk.chunk.length > room ? chunk.chunk.subarray(0, room) : chunk.chunk);
        bytes += chunk.chunk.length;
      }
      afterSeq = read.nextSeq - 1;
      if (bytes > maxBytes) return { ...collected(stdout, stderr), exitCode: null, truncated: true, timedOut: false, failure: null };
      if (read.closed) return { ...collected(stdout, stderr), exitCode: read.failure === null ? read.exitCode : null, truncated: false, timedOut: false, failure: read.failure };
    }
  } finally {
    // Nothing outlives its capture: a command cut at the bound, timed out or aborted is ended.
    await target.processes.terminate(processId).catch(() => undefined);
  }
}

function collected(stdout: readonly Uint8Array[], stderr: readonly Uint8Array[]): { readonly stdout: string; readonly stderr: string } {
  return { stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') };
}
