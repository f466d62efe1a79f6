// One standalone process (`command/exec`, `process/spawn`) on a connection's LocalProcesses: per-stream
// capture that keeps the first `capBytes` (as Codex), optional streaming of the same bytes, a timeout
// that kills and reports 124, and the exit.
import type { FileSystemSandboxContext, LocalProcesses, ProcessEvent, TerminalSize } from '@skein/exec-server';
import { PathUri } from '@skein/protocol';
import { STANDALONE_OUTPUT_HARD_CAP_BYTES } from '../limits.js';

/** The exit code Codex reports for a command its timeout ended. */
export const TIMEOUT_EXIT_CODE = 124;
// LocalProcesses keeps some output for its own reads and sandbox-denial checks; we capture our own.
const RETAINED_BYTES = 64 * 1024;

/** Which stream a chunk belongs to on the wire (PTY output is `stdout`). */
export type OutputStream = 'stdout' | 'stderr';

/** How to run one standalone process. */
export interface StandaloneProcessSpec {
  readonly argv: readonly string[];
  /** Absolute, native. */
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly tty: boolean;
  /** Keep stdin open for writes (implied by `tty`). */
  readonly pipeStdin: boolean;
  readonly size?: TerminalSize | undefined;
  /** Null: run unconfined. */
  readonly sandbox: FileSystemSandboxContext | null;
  /** Per-stream capture cap; null: only the hard cap applies. */
  readonly capBytes: number | null;
  /** Null: no timeout. */
  readonly timeoutMs: number | null;
  /** Called for every captured chunk when the output is streamed instead of buffered. */
  readonly onDelta?: ((stream: OutputStream, bytes: Uint8Array, capReached: boolean) => void) | undefined;
}

/** How a standalone process ended. Buffered streams hold their capture; streamed ones are empty. */
export interface StandaloneExit {
  readonly exitCode: number;
  readonly stdout: Uint8Array;
  readonly stderr: Uint8Array;
  readonly stdoutCapReached: boolean;
  readonly stderrCapReached: boolean;
}

class Capture {
  readonly parts: Uint8Array[] = [];
  bytes = 0;
  capReached = false;

  constructor(private readonly cap: number) {}

  /** The part of `chunk` within the cap (possibly empty), and whether the cap is now reached. */
  take(chunk: Uint8Array): Uint8Array {
    if (this.capReached) return chunk.subarray(0, 0);
    const room = this.cap - this.bytes;
    const part = chunk.byteLength > room ? chunk.subarray(0, room) : chunk;
    this.bytes += part.byteLength;
    if (this.bytes >= this.cap && chunk.byteLength >= room) this.capReached = true;
    return part;
  }

  concat(): Uint8Array {
    return Buffer.concat(this.parts);
  }
}

/** A started standalone process; `exit` resolves once it has exited and all its output was handled. */
export class StandaloneProcess {
  private constructor(
    private readonly processes: LocalProcesses,
    private readonly id: string,
    readonly exit: Promise<StandaloneExit>,
  ) {}

  /** Starts `spec` as `id` on `processes`; rejects with the ProcessError of a failed start. */
  static async start(processes: LocalProcesses, id: string, spec: StandaloneProcessSpec): Promise<StandaloneProcess> {
    const cap = Math.min(spec.capBytes ?? STANDALONE_OUTPUT_HARD_CAP_BYTES, STANDALONE_OUTPUT_HARD_CAP_BYTES);
    const captures: Record<OutputStream, Capture> = { stdout: new Capture(cap), stderr: new Capture(cap) };
    let finish: (event: Extract<ProcessEvent, { type: 'exited' }>) => void = () => undefined;
    const exited = new Promise<Extract<ProcessEvent, { type: 'exited' }>>((resolve) => {
      finish = resolve;
    });
    let done = false;
    const unsubscribe = processes.subscribe((event) => {
      if (event.processId !== id || done) return;
      if (event.type === 'output') {
        const stream: OutputStream = event.stream === 'stderr' ? 'stderr' : 'stdout';
        const capture = captures[stream];
        const wasReached = capture.capReached;
        const part = capture.take(event.chunk);
        if (part.byteLength === 0 && (wasReached || !capture.capReached)) return;
        if (spec.onDelta === undefined) capture.parts.push(part);
        else spec.onDelta(stream, part, capture.capReached);
      } else if (event.type === 'exited' || event.type === 'lost') {
        done = true;
        unsubscribe();
        finish(event.type === 'exited' ? event : { type: 'exited', processId: id, seq: 0, exitCode: 1, signal: null, sandboxDenied: false });
      }
    });
    try {
      await processes.start({
        processId: id,
        argv: spec.argv,
        cwd: PathUri.fromNativePath(spec.cwd, process.platform === 'win32' ? 'windows' : 'posix'),
        env: spec.env,
        tty: spec.tty,
        pipeStdin: spec.pipeStdin,
        sandbox: spec.sandbox,
        outputByteCap: RETAINED_BYTES,
        size: spec.size,
      });
    } catch (error) {
      unsubscribe();
      throw error;
    }
    let timedOut = false;
    const timer =
      spec.timeoutMs === null
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            void processes.terminate(id);
          }, spec.timeoutMs);
    const exit = exited.then((event): StandaloneExit => {
      clearTimeout(timer);
      return {
        exitCode: timedOut ? TIMEOUT_EXIT_CODE : event.exitCode,
        stdout: captures.stdout.concat(),
        stderr: captures.stderr.concat(),
        stdoutCapReached: captures.stdout.capReached,
        stderrCapReached: captures.stderr.capReached,
      };
    });
    return new StandaloneProcess(processes, id, exit);
  }

  /** Writes stdin bytes; false when the process has no stdin (anymore). */
  async write(bytes: Uint8Array): Promise<boolean> {
    return (await this.processes.write(this.id, bytes)) === 'accepted';
  }

  closeStdin(): Promise<void> {
    return this.processes.closeStdin(this.id);
  }

  resize(size: TerminalSize): Promise<void> {
    return this.processes.resize(this.id, size);
  }

  /** Kills the process tree; its exit is reported as the OS gives it (137 for SIGKILL). */
  async kill(): Promise<void> {
    await this.processes.terminate(this.id);
  }
}

/** Output bytes as the text Codex reports: UTF-8 when valid, else each byte as Windows-1252. */
export function outputText(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}
