// The one error the host API throws for what the caller can fix: a code to branch on and a
// message that says what to change.

/** Why the runtime refused a call. */
export type HostErrorCode =
  /** A settings key or value config cannot take. */
  | 'InvalidSettings'
  /** A thread id that is not a thread id. */
  | 'InvalidThreadId'
  /** No stored thread has this id. */
  | 'ThreadNotFound'
  /** The thread has no turn with this id (a fork point). */
  | 'TurnNotFound'
  /** The thread is already open in this runtime (resume it once, share the object). */
  | 'AlreadyOpen'
  /** Another process is writing the thread. */
  | 'ThreadBusy'
  /** A turn runs on this thread; wait for it, steer it or interrupt it. */
  | 'TurnRunning'
  /** No turn runs on this thread. */
  | 'NoTurnRunning'
  /** The runtime or thread was closed. */
  | 'Closed'
  /** The exec-server named as the environment could not be reached. */
  | 'EnvironmentUnreachable'
  /** An extension object the registry refuses: a bad id, or an id, section or marker another has. */
  | 'InvalidExtension';

/** An error of the host API; `code` says which, the message says what to do. */
export class HostError extends Error {
  override readonly name = 'HostError';
  constructor(
    readonly code: HostErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
