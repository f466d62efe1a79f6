// Which turn holds a thread: one at a time, claimed by a user's turn, a goal's continuation, a
// compaction or a user's shell command, and released when it ends. A user's turn takes the thread
// from a goal's continuation; closing the thread stops whichever turn runs.
import { SteeredInput } from '../turn/steered-input.js';
import { ThreadSessionError, type ActiveTurn } from './active-turn.js';
import type { EnvironmentSelection } from './thread-environment.js';

/** The thread's running turn, if any. */
export class TurnClaim {
  #active: ActiveTurn | undefined;

  constructor(
    private readonly newTurnId: () => string,
    /** The environments a turn starting now runs with. */
    private readonly selection: () => EnvironmentSelection,
  ) {}

  get running(): ActiveTurn | undefined {
    return this.#active;
  }

  /** Claims the thread for a turn; refuses (TurnInProgress) while another runs. `trigger` marks a turn no one asked for. */
  begin(turnId: string | undefined, trigger?: string): ActiveTurn {
    if (this.#active !== undefined) throw new ThreadSessionError('TurnInProgress', `turn ${this.#active.turnId} is still running; interrupt or steer it`);
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    const active: ActiveTurn = { turnId: turnId ?? this.newTurnId(), controller: new AbortController(), steered: new SteeredInput(), environments: this.selection(), ended, end, ...(trigger === undefined ? {} : { trigger }) };
    this.#active = active;
    return active;
  }

  end(active: ActiveTurn): void {
    if (this.#active === active) this.#active = undefined;
    active.end();
  }

  /** Interrupts the running turn; false when none runs. */
  interrupt(): boolean {
    if (this.#active === undefined) return false;
    this.#active.controller.abort();
    return true;
  }

  /** A user's turn comes before a goal's continuation: a running one is stopped, and waited for. */
  async yieldGoalTurn(): Promise<void> {
    const running = this.#active;
    if (running?.trigger !== 'goal') return;
    running.controller.abort();
    await running.ended;
  }

  /** Stops the running turn, if any, and waits for it to end. */
  async stop(): Promise<void> {
    const active = this.#active;
    if (active === undefined) return;
    active.controller.abort();
    await active.ended;
  }
}
