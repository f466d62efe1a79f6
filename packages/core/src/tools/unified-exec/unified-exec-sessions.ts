// UnifiedExecSessions: one thread's exec_command processes. Starts commands through the thread's
// ExecutorProcesses (under the turn's sandbox context), collects output until exit or the yield
// deadline, keeps still-running ones as numbered sessions for write_stdin, prunes the oldest beyond
// the limit, reports begin / output-delta / end events, and kills everything in `closeAll`.
import { randomInt } from 'node:crypto';
import type { ExecEnvPolicy, ExecutorProcesses, FileSystemSandboxContext, ProcessEvent, ProcessStream, StartProcessParams } from '@skein/exec-server';
import type { PathUri } from '@skein/protocol';
import { ExecSession, type SessionExit, type SessionOrigin } from './exec-session.js';
import { budgetOutput, newChunkId, type ExecResponse } from './exec-output.js';
import {
  DEFAULT_MAX_OUTPUT_TOKENS,
  DETACHED_EXIT_POLL_MS,
  MAX_OUTPUT_DELTA_EVENTS,
  MAX_SESSION_ID,
  MAX_UNIFIED_EXEC_SESSIONS,
  MIN_SESSION_ID,
  POST_EXIT_OUTPUT_GRACE_MS,
  PRUNE_PROTECTED_RECENT_SESSIONS,
  TERMINATE_WAIT_MS,
} from './limits.js';
import { execYieldTime, resolveWorkdir, writeYieldTime } from './request-bounds.js';
import { displayCommand, shellArgv } from './shell-command.js';
import { shellSnapshot } from './shell-snapshot.js';
import { UnifiedExecError } from './unified-exec-error.js';

/** Set for every command so tools print plain, unpaged, colourless text the model can read. */
export const UNIFIED_EXEC_ENV: Readonly<Record<string, string>> = {
  NO_COLOR: '1',
  TERM: 'dumb',
  LANG: 'C.UTF-8',
  LC_CTYPE: 'C.UTF-8',
  LC_ALL: 'C.UTF-8',
  COLORTERM: '',
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  GH_PAGER: 'cat',
};

/** What a client is told about a command (the lead maps these to client events). */
export type UnifiedExecEvent =
  | {
      readonly type: 'begin';
      /** The exec_command call id (the client's item id). */
      readonly callId: string;
      readonly sessionId: number;
      /** As clients display it: `/bin/bash -lc 'echo hi'`. */
      readonly command: string;
      readonly argv: readonly string[];
      /** The model's `cmd`, before the shell wrapped it. */
      readonly cmd: string;
      readonly cwd: PathUri;
      readonly tty: boolean;
      /** How the executor confined it (`none`, `linuxSeccomp`, …). */
      readonly sandboxType: string;
    }
  | { readonly type: 'outputDelta'; readonly callId: string; readonly sessionId: number; readonly stream: ProcessStream; readonly chunk: Uint8Array }
  | {
      readonly type: 'end';
      readonly callId: string;
      readonly sessionId: number;
      readonly command: string;
      readonly argv: readonly string[];
      readonly cwd: PathUri;
      readonly exitCode: number;
      readonly signal: string | null;
      readonly sandboxDenied: boolean;
      /** The whole session's output (its middle dropped beyond `UNIFIED_EXEC_OUTPUT_MAX_BYTES`). */
      readonly aggregatedOutput: string;
      readonly durationMs: number;
    };

/** Options of {@link UnifiedExecSessions}. */
export interface UnifiedExecSessionsOptions {
  /** The thread's environment: where commands run. */
  readonly processes: ExecutorProcesses;
  /** The complete environment commands get (`UNIFIED_EXEC_ENV` is laid over it). */
  readonly env: Readonly<Record<string, string>>;
  /** When set, the executor builds the variables from its own by this policy, `env` laid over them. */
  readonly envPolicy?: ExecEnvPolicy | undefined;
  /** The user's shell, used when the model names none (`/bin/bash`). */
  readonly defaultShell: string;
  /**
   * Login-shell commands run `-c` with the environment a login shell set up once (see
   * shell-snapshot.ts) instead of running the profile scripts each time.
   */
  readonly shellSnapshots?: boolean | undefined;
  readonly onEvent?: ((event: UnifiedExecEvent) => void) | undefined;
  /** Live sessions kept (default `MAX_UNIFIED_EXEC_SESSIONS`). */
  readonly maxSessions?: number | undefined;
  /** A monotonic milliseconds clock (the thread's), for deadlines and wall times. */
  readonly monotonicMs: () => number;
}

/** An exec_command request, already parsed. */
export interface ExecCommandRequest {
  readonly callId: string;
  readonly cmd: string;
  /** The turn's working directory; `workdir` is resolved against it. */
  readonly cwd: PathUri;
  readonly workdir?: string | null | undefined;
  readonly shell?: string | null | undefined;
  /** Run the shell as a login shell (`-lc`, the default) or not (`-c`). */
  readonly login?: boolean | null | undefined;
  readonly tty?: boolean | null | undefined;
  readonly yieldTimeMs?: number | null | undefined;
  readonly maxOutputTokens?: number | null | undefined;
  /** The turn's sandbox context; null runs the command unconfined (danger-full-access). */
  readonly sandbox: FileSystemSandboxContext | null;
  /** Stops waiting (the process keeps running) when the turn is interrupted. */
  readonly signal?: AbortSignal | undefined;
}

/** A write_stdin request, already parsed. Empty `chars` polls. */
export interface WriteStdinRequest {
  readonly sessionId: number;
  readonly chars?: string | null | undefined;
  readonly yieldTimeMs?: number | null | undefined;
  readonly maxOutputTokens?: number | null | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** The exec_command / write_stdin processes of one thread. */
export class UnifiedExecSessions {
  readonly #options: UnifiedExecSessionsOptions;
  readonly #now: () => number;
  readonly #maxSessions: number;
  /** Sessions the model may still address, by session id. */
  readonly #sessions = new Map<number, ExecSession>();
  /** Every session whose process events still matter, by executor process id. */
  readonly #byProcess = new Map<string, ExecSession>();
  readonly #unsubscribe: () => void;
  #nextProcess = 0;
  #closed = false;

  constructor(options: UnifiedExecSessionsOptions) {
    this.#options = options;
    this.#now = options.monotonicMs;
    this.#maxSessions = Math.max(1, options.maxSessions ?? MAX_UNIFIED_EXEC_SESSIONS);
    this.#unsubscribe = options.processes.subscribe((event) => {
      this.#onProcessEvent(event);
    });
  }

  /** Session ids the model may address, oldest first. */
  liveSessionIds(): number[] {
    return [...this.#sessions.keys()];
  }

  /** The sessions whose process still runs, oldest first. */
  running(): SessionOrigin[] {
    return [...this.#sessions.values()].filter((session) => session.exit === null).map((session) => session.origin);
  }

  /** What a request would run, and where: for approvals, before anything starts. */
  commandLine(request: Pick<ExecCommandRequest, 'cmd' | 'cwd' | 'workdir' | 'shell' | 'login'>): { readonly argv: readonly string[]; readonly command: string; readonly cwd: PathUri } {
    const argv = shellArgv(request.shell ?? this.#options.defaultShell, request.cmd, request.login ?? true);
    return { argv, command: displayCommand(argv), cwd: resolveWorkdir(request.cwd, request.workdir) };
  }

  /** Starts `cmd` and waits for it to exit or for the yield time to pass. */
  async execCommand(request: ExecCommandRequest): Promise<ExecResponse> {
    if (this.#closed) throw new UnifiedExecError('Closed', 'the thread has ended; no more commands can run');
    if (request.cmd.trim() === '') throw new UnifiedExecError('EmptyCommand', 'cmd must not be empty');
    const { argv, cwd } = this.commandLine(request);
    const tty = request.tty ?? false;
    const sessionId = this.#newSessionId();
    const processId = `unified-exec-${++this.#nextProcess}-${sessionId}`;
    const startedAt = this.#now();
    const session = new ExecSession({ callId: request.callId, sessionId, processId, argv, command: displayCommand(argv), cmd: request.cmd, cwd, tty, startedAt });
    this.#byProcess.set(processId, session);
    let sandboxType: string;
    try {
      const spawn = await this.#spawnForm(argv, request);
      // A capture takes a while: the thread may have ended, or the turn been interrupted, meanwhile.
      if (this.#closed) throw new UnifiedExecError('Closed', 'the thread has ended; no more commands can run');
      if (request.signal?.aborted === true) throw request.signal.reason;
      ({ sandboxType } = await this.#options.processes.start({ processId, cwd, tty, sandbox: request.sandbox, ...spawn }));
    } catch (error) {
      this.#byProcess.delete(processId);
      throw error;
    }
    this.#emit({ type: 'begin', callId: request.callId, sessionId, command: session.origin.command, argv, cmd: request.cmd, cwd, tty, sandboxType });
    // Output that arrived before the start was answered goes out now, after the begin it belongs to;
    // later deltas go out as they come.
    const held = session.heldDeltas ?? [];
    session.heldDeltas = undefined;
    for (const delta of held) this.#emitDelta(session, delta.stream, delta.chunk);
    let response: ExecResponse;
    try {
      response = await this.#collect(session, startedAt, execYieldTime(request.yieldTimeMs), request.maxOutputTokens, request.signal);
    } catch (error) {
      await this.#leaveRunning(session);
      throw error;
    }
    if (response.sessionId !== null) await this.#store(session);
    return response;
  }

  /**
   * A call that stopped waiting (its turn was interrupted) leaves its command running, as Codex
   * does: the command stays among the background terminals, and ends for clients when it exits
   * (a command that already exited ends now).
   */
  async #leaveRunning(session: ExecSession): Promise<void> {
    if (session.exit !== null || session.closed || this.#closed) {
      if (session.exit !== null) this.#finish(session, session.exit);
      return;
    }
    await this.#store(session);
    void this.#finishOnExit(session);
  }

  /** Waits for a session no call is collecting to exit, then ends it (after the trailing output's grace). */
  async #finishOnExit(session: ExecSession): Promise<void> {
    while (session.exit === null && !session.closed) await session.changed(DETACHED_EXIT_POLL_MS);
    const exitSeenAt = this.#now();
    while (!session.closed && this.#now() - exitSeenAt < POST_EXIT_OUTPUT_GRACE_MS) await session.changed(exitSeenAt + POST_EXIT_OUTPUT_GRACE_MS - this.#now());
    // A call (write_stdin) or a terminate may have ended it meanwhile; a lost executor ends it as a failure.
    if (session.ended) return;
    this.#finish(session, session.exit ?? { exitCode: -1, signal: null, sandboxDenied: false });
  }

  /**
   * How `argv` is started: as it is, or — a login shell with a snapshot — the shell with `-c` and the
   * snapshot's environment (clients and approvals still see the `-lc` form).
   */
  async #spawnForm(argv: readonly string[], request: ExecCommandRequest): Promise<Pick<StartProcessParams, 'argv' | 'env' | 'envPolicy'>> {
    const env = { ...this.#options.env, ...UNIFIED_EXEC_ENV };
    const asIs = { argv, env, envPolicy: this.#options.envPolicy };
    const [shell, flag, cmd] = argv;
    if (this.#options.shellSnapshots !== true || flag !== '-lc' || shell === undefined || cmd === undefined) return asIs;
    const snapshot = await shellSnapshot(this.#options.processes, { shell, cwd: request.cwd, env, envPolicy: this.#options.envPolicy, sandbox: request.sandbox, now: this.#now });
    if (snapshot === undefined) return asIs;
    // The snapshot is the whole environment: an executor building one by policy would add to it.
    return { argv: [shell, '-c', cmd], env: { ...snapshot.env, ...UNIFIED_EXEC_ENV }, envPolicy: undefined };
  }

  /** Writes `chars` to a session's terminal (nothing: a poll) and collects its output again. */
  async writeStdin(request: WriteStdinRequest): Promise<ExecResponse> {
    const session = this.#sessions.get(request.sessionId);
    if (session === undefined) throw UnifiedExecError.unknownSession(request.sessionId);
    const started = this.#now();
    session.lastUsed = started;
    const chars = request.chars ?? '';
    // A process that already exited has nothing to read input; the call reports its exit instead.
    if (chars !== '' && session.exit === null) {
      if (!session.origin.tty) {
        throw new UnifiedExecError('StdinClosed', `session ${request.sessionId} has no stdin; start the command with tty: true to write to it`);
      }
      const status = await this.#options.processes.write(session.origin.processId, new TextEncoder().encode(chars));
      if (status === 'unknownProcess') {
        this.#forget(session);
        throw UnifiedExecError.unknownSession(request.sessionId);
      }
      if (status === 'stdinClosed') throw new UnifiedExecError('StdinClosed', `stdin of session ${request.sessionId} is closed`);
    }
    return this.#collect(session, started, writeYieldTime(request.yieldTimeMs, chars === ''), request.maxOutputTokens, request.signal);
  }

  /** Kills one session's process and forgets it; false when no session has that id. */
  async terminate(sessionId: number): Promise<boolean> {
    const session = this.#sessions.get(sessionId);
    if (session === undefined) return false;
    this.#sessions.delete(sessionId);
    await this.#terminate(session);
    return true;
  }

  /** Kills every session's process (the thread ended) and stops listening; further starts fail. */
  async closeAll(): Promise<void> {
    this.#closed = true;
    const sessions = [...this.#byProcess.values()];
    this.#sessions.clear();
    await Promise.all(sessions.map((session) => this.#terminate(session)));
    this.#byProcess.clear();
    this.#unsubscribe();
  }

  async #collect(session: ExecSession, started: number, yieldMs: number, maxOutputTokens: number | null | undefined, signal: AbortSignal | undefined): Promise<ExecResponse> {
    const deadline = started + yieldMs;
    let exitSeenAt: number | null = null;
    for (;;) {
      if (signal?.aborted === true) throw signal.reason;
      if (session.closed) break;
      const now = this.#now();
      if (session.exit !== null) {
        exitSeenAt ??= now;
        if (now - exitSeenAt >= POST_EXIT_OUTPUT_GRACE_MS) break;
        await session.changed(exitSeenAt + POST_EXIT_OUTPUT_GRACE_MS - now, signal);
        continue;
      }
      if (now >= deadline) break;
      await session.changed(deadline - now, signal);
    }
    const { output, originalTokenCount } = budgetOutput(session.takePending(), Math.max(0, Math.floor(maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS)));
    if (session.exit === null && session.lost !== undefined) this.#lose(session, session.lost, output);
    const exit = session.exit;
    const wallTimeMs = this.#now() - started;
    if (exit !== null) this.#finish(session, exit);
    return {
      chunkId: newChunkId(),
      wallTimeMs,
      exitCode: exit?.exitCode ?? null,
      sessionId: exit === null ? session.origin.sessionId : null,
      originalTokenCount,
      output,
      sandboxDenied: exit?.sandboxDenied ?? false,
    };
  }

  /** Keeps a still-running session for write_stdin, pruning one first when the table is full. */
  async #store(session: ExecSession): Promise<void> {
    if (this.#sessions.size >= this.#maxSessions) {
      const victim = this.#pruneCandidate();
      if (victim !== undefined) {
        this.#sessions.delete(victim.origin.sessionId);
        await this.#terminate(victim);
      }
    }
    this.#sessions.set(session.origin.sessionId, session);
  }

  /** Least recently used outside the protected most recent few; exited ones first. */
  #pruneCandidate(): ExecSession | undefined {
    const byRecency = [...this.#sessions.values()].sort((a, b) => b.lastUsed - a.lastUsed);
    const unprotected = byRecency.slice(PRUNE_PROTECTED_RECENT_SESSIONS).reverse();
    const pool = unprotected.length > 0 ? unprotected : byRecency.slice().reverse();
    return pool.find((session) => session.exit !== null) ?? pool[0];
  }

  /**
   * Kills a session's process and waits (at most `TERMINATE_WAIT_MS`) until the executor reports it
   * gone, so "closed" means nothing is left running; a call still collecting its output then ends.
   */
  async #terminate(session: ExecSession): Promise<void> {
    try {
      await this.#options.processes.terminate(session.origin.processId);
    } catch {
      // Already gone (or the executor closed): nothing is left to kill.
    }
    const deadline = this.#now() + TERMINATE_WAIT_MS;
    while (session.exit === null && !session.closed && this.#now() < deadline) await session.changed(deadline - this.#now());
    this.#forget(session);
    // A killed command ends like any other: clients see it complete (failed) rather than hang.
    if (session.exit !== null) this.#finish(session, session.exit);
    session.markClosed();
  }

  /**
   * Ends a session whose executor went away before the process exited: clients see the command end
   * (failed, exit code -1) rather than stay running, and the call fails with the reason and what
   * the command printed so far.
   */
  #lose(session: ExecSession, reason: string, printed: string): never {
    this.#finish(session, { exitCode: -1, signal: null, sandboxDenied: false });
    const output = printed === '' ? '' : `\nOutput before that:\n${printed}`;
    throw new UnifiedExecError('ExecutorLost', `the command's executor went away before it finished (${reason}); whether it still runs there is unknown${output}`);
  }

  #finish(session: ExecSession, exit: SessionExit): void {
    this.#forget(session);
    if (session.ended) return;
    session.ended = true;
    const { origin } = session;
    this.#emit({
      type: 'end',
      callId: origin.callId,
      sessionId: origin.sessionId,
      command: origin.command,
      argv: origin.argv,
      cwd: origin.cwd,
      exitCode: exit.exitCode,
      signal: exit.signal,
      sandboxDenied: exit.sandboxDenied,
      aggregatedOutput: session.aggregatedOutput(),
      durationMs: this.#now() - origin.startedAt,
    });
  }

  #forget(session: ExecSession): void {
    this.#sessions.delete(session.origin.sessionId);
    this.#byProcess.delete(session.origin.processId);
  }

  #emitDelta(session: ExecSession, stream: ProcessStream, chunk: Uint8Array): void {
    this.#emit({ type: 'outputDelta', callId: session.origin.callId, sessionId: session.origin.sessionId, stream, chunk });
  }

  #onProcessEvent(event: ProcessEvent): void {
    const session = this.#byProcess.get(event.processId);
    if (session === undefined) return;
    switch (event.type) {
      case 'output':
        session.addOutput(event.stream, event.chunk);
        if (session.deltaEvents < MAX_OUTPUT_DELTA_EVENTS) {
          session.deltaEvents += 1;
          if (session.heldDeltas !== undefined) session.heldDeltas.push({ stream: event.stream, chunk: event.chunk });
          else this.#emitDelta(session, event.stream, event.chunk);
        }
        break;
      case 'exited':
        session.markExited({ exitCode: event.exitCode, signal: event.signal, sandboxDenied: event.sandboxDenied });
        break;
      case 'closed':
        session.markClosed();
        break;
      case 'lost':
        session.markLost(event.reason);
        break;
    }
  }

  #newSessionId(): number {
    for (;;) {
      const id = randomInt(MIN_SESSION_ID, MAX_SESSION_ID);
      if (![...this.#byProcess.values()].some((session) => session.origin.sessionId === id)) return id;
    }
  }

  #emit(event: UnifiedExecEvent): void {
    this.#options.onEvent?.(event);
  }
}
