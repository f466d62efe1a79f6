// RequestError: a request refused by the server itself (not initialized, unknown handle, overloaded, …),
// carrying the JSON-RPC code it is answered with.
import type { ExecServerErrorCode } from '../protocol/exec-server-error-code.js';

/** A request the server refuses before or instead of running it. */
export class RequestError extends Error {
  override readonly name = 'RequestError';

  constructor(
    /** The JSON-RPC error code of the answer. */
    readonly code: ExecServerErrorCode,
    message: string,
    /** Extra structured detail for the answer's `data`. */
    readonly data?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
  }
}
