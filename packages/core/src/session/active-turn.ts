// The turn a thread is running, and why a thread refuses a request: shared by the session and the
// parts that run turns of their own (a user's shell command).
import type { CoreEvent } from '../turn/core-event.js';
import type { SteeredInput } from '../turn/steered-input.js';
import type { EnvironmentSelection } from './thread-environment.js';

/** Why a request to the session was refused. */
export class ThreadSessionError extends Error {
  override readonly name = 'ThreadSessionError';
  constructor(
    readonly code: 'TurnInProgress' | 'NoActiveTurn' | 'ShellUnavailable' | 'EmptyCommand' | 'Interrupted' | 'TurnNotFound' | 'NotRecorded' | 'RecordUnavailable',
    message: string,
  ) {
    super(message);
  }
}

/** The running turn: its id, its interrupt, and the input steered into it. */
export interface ActiveTurn {
  readonly turnId: string;
  readonly controller: AbortController;
  readonly steered: SteeredInput;
  /** The environments it runs with: the thread's when it began (a later settings update does not move it). */
  readonly environments: EnvironmentSelection;
  /** Settles when the turn has ended (however it ended). */
  readonly ended: Promise<void>;
  readonly end: () => void;
  /** Set for a turn no one asked for (`goal`: a goal's continuation), which gives way to a user's turn. */
  readonly trigger?: string | undefined;
}

/** How a part of the session claims the thread for a turn of its own and announces what happens. */
export interface TurnSlot {
  /** The running turn, if any. */
  running(): ActiveTurn | undefined;
  /** Claims the thread for a new turn; refuses (TurnInProgress) while another runs. */
  begin(): ActiveTurn;
  end(turn: ActiveTurn): void;
  emit(event: CoreEvent): void;
}
