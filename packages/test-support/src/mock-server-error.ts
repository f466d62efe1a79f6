// The one error class this package throws, with a stable code to switch on.
import type { MockProblem } from './mock-problem.js';

/**
 * - `VerificationFailed`: `verify()` found problems; they are in `problems` and listed in the message.
 * - `InvalidScript`: a scripted response cannot be served as written.
 * - `ServerClosed`: the server was used after `close()`.
 * - `ListenFailed`: the server could not bind its loopback port.
 */
export type MockServerErrorCode = 'VerificationFailed' | 'InvalidScript' | 'ServerClosed' | 'ListenFailed';

/** An error of the mock Responses server or of a script given to it. */
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
