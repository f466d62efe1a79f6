// ExecSession: one command started by exec_command — its output not yet handed to the model, the
// whole output for the end event, its exit, and a way to wait for any of those to change.
import type { PathUri } from '@skein/protocol';
import type { ProcessStream } from '@skein/exec-server';
import { HeadTailBuffer } from './head-tail-buffer.js';
import { UNIFIED_EXEC_OUTPUT_MAX_BYTES } from './limits.js';

/** How a session's process ended. */
export interface SessionExit {
  readonly exitCode: number;
  readonly signal: string | null;
  readonly sandboxDenied: boolean;
}

/** What a session was started as; carried into its events. */
export interface SessionOrigin {
  /** The exec_command call that started it. */
  readonly callId: string;
  readonly sessionId: number;
  /** The executor's handle for the process. */
  readonly processId: string;
  readonly argv: readonly string[];
  /** The command as clients display it. */
  readonly command: string;
  /** The command line as the model wrote it. */
  readonly cmd: string;
  readonly cwd: PathUri;
  readonly tty: boolean;
  readonly startedAt: number;
}

/** One running (or just finished) command. */
export class ExecSession {
  readonly origin: SessionOrigin;
  /** Output produced since the last call collected it. */
  readonly #pending = new HeadTailBuffer(UNIFIED_EXEC_OUTPUT_MAX_BYTES);
  /** All output, for the end event. */
  readonly #aggregated = new HeadTailBuffer(UNIFIED_EXEC_OUTPUT_MAX_BYTES);
  #exit: SessionExit | null = null;
  #closed = false;
  #lost: string | undefined;
  #waiters = new Set<() => void>();
  /** When a call last used this session (for pruning). */
  lastUsed: number;
  /** Output-delta events sent (or held for sending) so far. */
  deltaEvents = 0;
  /**
   * Deltas that arrived before the begin event went out: an executor may report output before it
   * answers the start, and a delta ahead of its command's begin would reach no item.
   */
  heldDeltas: { readonly stream: ProcessStream; readonly chunk: Uint8Array }[] | undefined = [];
  /** Whether the end event was sent. */
  ended = false;

  constructor(origin: SessionOrigin) {
    this.origin = origin;
    this.lastUsed = origin.startedAt;
  }

  get exit(): SessionExit | null {
    return this.#exit;
  }

  /** The process exited and its output streams closed: nothing more will arrive. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Why the executor's connection was lost before the process reported its exit, if it was. */
  get lost(): string | undefined {
    return this.#lost;
  }

  addOutput(_stream: ProcessStream, chunk: Uint8Array): void {
    this.#pending.push(chunk);
    this.#aggregated.push(chunk);
    this.#wake();
  }

  markExited(exit: SessionExit): void {
    this.#exit = exit;
    this.#wake();
  }

  /** The executor is gone: nothing more will arrive, and the process's fate is unknown. */
  markLost(reason: string): void {
    this.#lost = reason;
    this.#closed = true;
    this.#wake();
  }

  markClosed(): void {
    this.#closed = true;
    this.#wake();
  }

  /** Takes the output not yet handed to the model. */
  takePending(): Buffer {
    return this.#pending.drain();
  }

  /** The whole output so far (its middle dropped beyond the buffer's budget). */
  aggregatedOutput(): string {
    return this.#aggregated.bytes().toString('utf8');
  }

  /** Resolves when output arrives, the process exits or closes, `ms` pass, or `signal` aborts. */
  async changed(ms: number, signal?: AbortSignal): Promise<void> {
    if (ms <= 0 || signal?.aborted === true) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#waiters.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  #wake(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }
}
