// Background terminals: the commands exec_command left running past their call (a server, a watch
// build), on every environment the thread used. Clients list them and end them between turns.
import type { UnifiedExecSessions } from '../tools/unified-exec/unified-exec-sessions.js';

/** One command still running, as clients list it. */
export interface BackgroundTerminal {
  /** The session id the model addresses it by (`write_stdin`'s `session_id`). */
  readonly sessionId: number;
  /** The exec_command call that started it (its item's id). */
  readonly callId: string;
  /** The command line as the model wrote it. */
  readonly command: string;
  /** Where it runs, in its environment's native form. */
  readonly cwd: string;
  /** The environment it runs on. */
  readonly environmentId: string;
}

/** The background terminals of one thread. */
export class BackgroundTerminals {
  readonly #sessions: () => ReadonlyMap<string, UnifiedExecSessions>;

  constructor(sessions: () => ReadonlyMap<string, UnifiedExecSessions>) {
    this.#sessions = sessions;
  }

  /** Every running command, each environment's oldest first. */
  list(): BackgroundTerminal[] {
    return [...this.#sessions()].flatMap(([environmentId, sessions]) =>
      sessions.running().map((origin) => ({ sessionId: origin.sessionId, callId: origin.callId, command: origin.cmd, cwd: origin.cwd.toNativePath(origin.cwd.convention), environmentId })),
    );
  }

  /** Kills the command with session id `sessionId`; false when none runs under that id. */
  async terminate(sessionId: number): Promise<boolean> {
    for (const sessions of this.#sessions().values()) {
      if (sessions.running().some((origin) => origin.sessionId === sessionId)) return sessions.terminate(sessionId);
    }
    return false;
  }

  /** Kills every running command; the thread stays open for more. */
  async clean(): Promise<void> {
    await Promise.all([...this.#sessions().values()].flatMap((sessions) => sessions.running().map((origin) => sessions.terminate(origin.sessionId))));
  }
}
