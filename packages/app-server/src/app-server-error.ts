// The error a method handler throws to answer with a specific JSON-RPC error.
import { JsonRpcRequestError } from '@skein/json-rpc';
import { AppServerErrorCode, AppServerErrorMessage } from '@skein/protocol';

/**
 * A JSON-RPC error answer with Codex's code. Handlers throw it; the dispatcher turns it into the
 * error response. `code` is the JSON-RPC code (`AppServerErrorCode`).
 */
export class AppServerRequestError extends JsonRpcRequestError {
  override readonly name = 'AppServerRequestError';
  constructor(
    override readonly code: AppServerErrorCode,
    message: string,
    data?: unknown,
  ) {
    super(code, message, data);
  }

  /** `-32600 Invalid request: <detail>`, as Codex words params it cannot use. */
  static invalidRequest(detail: string): AppServerRequestError {
    return new AppServerRequestError(AppServerErrorCode.InvalidRequest, `${AppServerErrorMessage.InvalidRequestPrefix}${detail}`);
  }
}

/** Answers the request with `-32600 <message>`, worded as Codex words it (no prefix). */
export function refuse(message: string): never {
  throw new AppServerRequestError(AppServerErrorCode.InvalidRequest, message);
}

/** Why a server→client request did not get a result. */
export class ServerRequestError extends Error {
  override readonly name = 'ServerRequestError';
  constructor(
    readonly code: 'ConnectionClosed' | 'ClientError' | 'TooManyPending' | 'Withdrawn',
    message: string,
    /** For `ClientError`: the error object the client answered with. */
    readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown },
  ) {
    super(message);
  }
}
