// Commands the user typed (`thread/shellCommand`, `!cmd`), not the model: run on the thread's local
// environment (this machine, even when a remote one is primary), unconfined. Alongside a model turn the command belongs to it and its record joins the
// model's next input; otherwise it is a turn of its own, exclusive and interruptible like any other.
import { LOCAL_ENVIRONMENT_ID, type Config } from '@skein/config';
import { randomUuidV7, type ResponseItem } from '@skein/protocol';
import type { ThreadHistory } from '../history/thread-history.js';
import { ThreadSessionError, type ActiveTurn, type TurnSlot } from './active-turn.js';
import type { ToolEnvironment } from '@skein/extension-api';
import type { UnifiedExecSessions } from '../tools/unified-exec/unified-exec-sessions.js';
import type { EnvironmentState } from './thread-environment.js';
import type { ThreadRecorder } from './thread-recorder.js';
import { runUserShellCommand, USER_SHELL_UNAVAILABLE, userShellCommandMessage, type UserShellResult } from './user-shell-command.js';

/** What a thread's user shell works with. */
export interface ThreadUserShellOptions {
  readonly environments: EnvironmentState;
  readonly config: () => Config;
  readonly history: ThreadHistory;
  readonly recorder: ThreadRecorder;
  readonly monotonicMs: () => number;
  readonly slot: TurnSlot;
}

/** A thread's user shell commands. */
export class ThreadUserShell {
  readonly #options: ThreadUserShellOptions;
  /** Commands in flight: their call id → the turn they belong to. */
  readonly #calls = new Map<string, string>();

  constructor(options: ThreadUserShellOptions) {
    this.#options = options;
  }

  /** The turn a user command's call belongs to; undefined for the model's own calls. */
  turnOf(callId: string): string | undefined {
    return this.#calls.get(callId);
  }

  /**
   * Runs a command the user typed (not the model) on the thread's local environment, unconfined, as
   * its own turn; the model sees the command and its output with its next request. With no local
   * environment attached the turn fails with Codex's "shell is unavailable in this session" (its
   * `error` notification and a failed turn), and the returned promise rejects with that error.
   */
  async run(command: string, options: { readonly timeoutMs?: number | undefined } = {}): Promise<UserShellResult> {
    if (command.trim() === '') throw new ThreadSessionError('EmptyCommand', 'command must not be empty');
    const { slot } = this.#options;
    const running = slot.running();
    const local = this.#local();
    if (local === undefined) {
      const unavailable = new ThreadSessionError('ShellUnavailable', USER_SHELL_UNAVAILABLE);
      // Codex reports it in the running turn without ending that turn; Skein's nearest event is a warning.
      if (running !== undefined) slot.emit({ type: 'warning', message: USER_SHELL_UNAVAILABLE });
      else this.#failAsTurn(unavailable);
      throw unavailable;
    }
    // Alongside a model turn the command belongs to it, and its record joins the model's next input.
    if (running !== undefined) {
      return this.#runCommand(local, command, running, options.timeoutMs, (message) => {
        // The turn may have ended while the command ran; then the next turn carries it.
        if (!running.steered.push(message)) this.#options.history.record([message], running.turnId);
      });
    }
    // Otherwise it is a turn of its own: exclusive, and interruptible like any other.
    const active = slot.begin();
    slot.emit({ type: 'turnStarted', turnId: active.turnId });
    try {
      const result = await this.#runCommand(local, command, active, options.timeoutMs, (message) => this.#options.history.record([message], active.turnId));
      await this.#options.recorder.flush();
      slot.emit({ type: 'turnCompleted', turnId: active.turnId, lastAgentMessage: undefined });
      return result;
    } catch (error) {
      if (active.controller.signal.aborted) {
        slot.emit({ type: 'turnAborted', turnId: active.turnId, reason: 'interrupted' });
        throw new ThreadSessionError('Interrupted', 'the shell command was interrupted');
      }
      // The command could not run: say so, and end the turn so the thread is free again.
      slot.emit({ type: 'warning', message: `shell command failed: ${(error as Error).message}` });
      slot.emit({ type: 'turnCompleted', turnId: active.turnId, lastAgentMessage: undefined });
      throw error;
    } finally {
      slot.end(active);
    }
  }

  /**
   * The attached environment that is this machine (id `local`, as Codex's user shell takes
   * `environments.local()`), in its own cwd (the thread's when it is the primary), and its sessions.
   */
  #local(): { readonly environment: ToolEnvironment; readonly sessions: UnifiedExecSessions } | undefined {
    const config = this.#options.config();
    const environment = this.#options.environments.toolEnvironments(config).find((candidate) => candidate.id === LOCAL_ENVIRONMENT_ID);
    const sessions = environment === undefined ? undefined : this.#options.environments.sessionsFor(environment.id, config);
    return environment === undefined || sessions === undefined ? undefined : { environment, sessions };
  }

  /** A turn of its own that fails at once with `error`, as Codex's user shell reports what stops it. */
  #failAsTurn(error: ThreadSessionError): void {
    const { slot } = this.#options;
    const active = slot.begin();
    try {
      slot.emit({ type: 'turnStarted', turnId: active.turnId });
      slot.emit({ type: 'turnFailed', turnId: active.turnId, error });
    } finally {
      slot.end(active);
    }
  }

  async #runCommand(
    local: { readonly environment: ToolEnvironment; readonly sessions: UnifiedExecSessions },
    command: string,
    turn: ActiveTurn,
    timeoutMs: number | undefined,
    record: (message: ResponseItem) => void,
  ): Promise<UserShellResult> {
    const callId = randomUuidV7();
    this.#calls.set(callId, turn.turnId);
    try {
      const result = await runUserShellCommand(local.sessions, { callId, command, cwd: local.environment.cwd, timeoutMs, signal: turn.controller.signal, monotonicMs: this.#options.monotonicMs });
      record(userShellCommandMessage(command, result));
      return result;
    } finally {
      this.#calls.delete(callId);
    }
  }
}
