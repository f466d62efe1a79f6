// One started process as the protocol sees it: numbered events (output, exited, closed), retained
// output for reads that may wait, and the exit status.
import { EXIT_DRAIN_GRACE_MS, MAX_READ_WAIT_MS } from '../limits.js';
import type {
  ProcessEvent,
  ProcessReadResult,
  ProcessSignal,
  ProcessStream,
  ReadProcessOptions,
  TerminalSize,
  WriteStatus,
} from '../process-api.js';
import { RetainedOutput } from './retained-output.js';
import type { ChildEvents, ChildHandle } from './spawn-child.js';

// Phrases a confined command prints when the sandbox, not the command, said no.
const DENIAL_MARKERS = ['read-only file system', 'permission denied', 'operation not permitted', 'seccomp', 'bwrap:'];
const DENIAL_SCAN_BYTES = 64 * 1024;
const SIGNALS: Readonly<Record<ProcessSignal, NodeJS.Signals>> = { interrupt: 'SIGINT' };

/** A process's state machine; the owner attaches the OS child once it has started. */
export class ManagedProcess {
  private nextSeq = 1;
  private readonly output: RetainedOutput;
  private handle: ChildHandle | undefined;
  private osExitCode: number | undefined;
  private exitSignal: string | null = null;
  private streamsClosed = false;
  private exitReported = false;
  private closed = false;
  private sandboxDenied = false;
  private drainTimer: NodeJS.Timeout | undefined;
  private readonly waiters = new Set<() => void>();
  private resolveFinished: () => void = () => undefined;
  /** Resolves once the process has exited and that was reported. */
  readonly finished: Promise<void>;

  constructor(
    readonly processId: string,
    outputCapBytes: number,
    private readonly sandboxed: boolean,
    private readonly emit: (event: ProcessEvent) => void,
  ) {
    this.output = new RetainedOutput(outputCapBytes);
    this.finished = new Promise((resolve) => {
      this.resolveFinished = resolve;
    });
  }

  /** The callbacks the OS child reports to. */
  readonly events: ChildEvents = {
    output: (stream, bytes) => this.onOutput(stream, bytes),
    exit: (exitCode, signal) => this.onExit(exitCode, signal),
    closed: () => this.onStreamsClosed(),
  };

  attach(handle: ChildHandle): void {
    this.handle = handle;
  }

  /** True until the OS reported the exit. */
  get running(): boolean {
    return this.osExitCode === undefined;
  }

  /** Output after `afterSeq` and the current state, waiting up to `waitMs` when there is nothing newer. */
  async read(options: ReadProcessOptions = {}): Promise<ProcessReadResult> {
    const afterSeq = Math.max(0, options.afterSeq ?? 0);
    const waitMs = Math.min(Math.max(0, options.waitMs ?? 0), MAX_READ_WAIT_MS);
    if (waitMs > 0 && this.nextSeq - 1 <= afterSeq && !this.closed) await this.nextEvent(waitMs);
    const maxBytes = options.maxBytes == null ? undefined : Math.max(0, options.maxBytes);
    const { chunks, exhausted } = this.output.after(afterSeq, maxBytes);
    const last = chunks.at(-1);
    return {
      chunks,
      // When the byte budget cut the list short, resume right after the last chunk returned.
      nextSeq: exhausted && last !== undefined ? last.seq + 1 : this.nextSeq,
      exited: this.exitReported,
      exitCode: this.exitReported ? (this.osExitCode ?? null) : null,
      signal: this.exitReported ? this.exitSignal : null,
      closed: this.closed,
      failure: null,
      sandboxDenied: this.sandboxDenied,
    };
  }

  write(bytes: Uint8Array): WriteStatus | 'full' {
    if (this.handle === undefined) return 'starting';
    if (!this.running) return 'stdinClosed';
    return bytes.byteLength === 0 ? 'accepted' : this.handle.write(bytes);
  }

  /** Ends stdin; false while the child is still starting. */
  closeStdin(): boolean {
    if (this.handle === undefined) return false;
    if (this.running) this.handle.closeStdin();
    return true;
  }

  signal(signal: ProcessSignal): void {
    if (this.running) this.handle?.signal(SIGNALS[signal]);
  }

  /** Kills the process group; returns whether the process was still running. */
  terminate(): boolean {
    const wasRunning = this.running;
    if (wasRunning) this.handle?.signal('SIGKILL');
    return wasRunning;
  }

  resize(size: TerminalSize): boolean {
    return this.handle?.resize(size) ?? false;
  }

  private allocate(): number {
    const seq = this.nextSeq;
    this.nextSeq += 1;
    return seq;
  }

  private publish(event: ProcessEvent): void {
    this.emit(event);
    for (const wake of [...this.waiters]) wake();
  }

  private nextEvent(waitMs: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, waitMs);
      this.waiters.add(wake);
    });
  }

  private onOutput(stream: ProcessStream, chunk: Uint8Array): void {
    const seq = this.allocate();
    this.output.push({ seq, stream, chunk });
    this.publish({ type: 'output', processId: this.processId, seq, stream, chunk });
  }

  private onExit(exitCode: number, signal: string | null): void {
    this.osExitCode = exitCode;
    this.exitSignal = signal;
    if (this.streamsClosed) return this.reportExit();
    // Give the pipes a moment to deliver the last output, so `exited` follows it as in Codex.
    this.drainTimer = setTimeout(() => this.reportExit(), EXIT_DRAIN_GRACE_MS);
  }

  private onStreamsClosed(): void {
    this.streamsClosed = true;
    if (this.exitReported) return this.reportClosed();
    if (this.osExitCode !== undefined) this.reportExit();
  }

  private reportExit(): void {
    if (this.exitReported || this.osExitCode === undefined) return;
    clearTimeout(this.drainTimer);
    this.exitReported = true;
    const exitCode = this.osExitCode;
    this.sandboxDenied = this.sandboxed && exitCode !== 0 && this.looksDenied();
    this.publish({
      type: 'exited',
      processId: this.processId,
      seq: this.allocate(),
      exitCode,
      signal: this.exitSignal,
      sandboxDenied: this.sandboxDenied,
    });
    this.resolveFinished();
    if (this.streamsClosed) this.reportClosed();
  }

  private reportClosed(): void {
    if (this.closed) return;
    this.closed = true;
    this.publish({ type: 'closed', processId: this.processId, seq: this.allocate() });
  }

  private looksDenied(): boolean {
    const tail = this.output.tail(DENIAL_SCAN_BYTES).toLowerCase();
    return DENIAL_MARKERS.some((marker) => tail.includes(marker));
  }
}
