// RequestError: a request refused by the exec-server itself (not initialized, unknown handle, …),
// carrying the exec-server JSON-RPC code it is answered with.
import { JsonRpcRequestError } from '@skein/json-rpc';
import type { ExecServerErrorCode } from '../protocol/exec-server-error-code.js';

/** A request the server refuses before or instead of running it. */
export class RequestError extends JsonRpcRequestError {
  override readonly name = 'RequestError';

  constructor(
    /** The JSON-RPC error code of the answer. */
    override readonly code: ExecServerErrorCode,
    message: string,
    /** Extra structured detail for the answer's `data`. */
    override readonly data?: Readonly<Record<string, unknown>>,
  ) {
    super(code, message, data);
  }
}
