// The one error class this package throws, with a stable code to switch on.
import type { MockProblem } from './mock-problem.js';

/**
 * - `VerificationFailed`: `verify()` found problems; they are in `problems` and listed in the message.
 * - `InvalidScript`: a scripted response cannot be served as written, or an option is out of range.
 * - `ServerClosed`: the server was used after `close()`, or closed while a test waited on it.
 * - `ListenFailed`: the server could not bind its loopback port.
 * - `Timeout`: a wait of the mock Realtime server (`nextConnection`, `waitFor`) ran out of time.
 * - `ConnectionClosed`: a mock Realtime connection closed before what a test waited for, or was sent to after.
 */
export type MockServerErrorCode = 'VerificationFailed' | 'InvalidScript' | 'ServerClosed' | 'ListenFailed' | 'Timeout' | 'ConnectionClosed';

/** An error of a mock server (Responses or Realtime) or of a script given to it. */
export class MockServerError extends Error {
  override readonly name = 'MockServerError';

  /** @param problems what `verify()` found; empty for other codes. */
  constructor(
    readonly code: MockServerErrorCode,
    message: string,
    readonly problems: readonly MockProblem[] = [],
  ) {
    super(message);
  }
}
