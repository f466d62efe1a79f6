// Errors of the remote client itself: the connection, the server's refusals of a request as such, and
// answers that do not parse. Filesystem and process failures are rebuilt as their own classes.
import type { JsonRpcErrorObject } from '@skein/protocol/executor';

/** Why a remote call failed below the filesystem/process level. */
export type ExecServerClientErrorCode =
  /** The WebSocket upgrade was refused for lack of (or a wrong) bearer token. */
  | 'Unauthorized'
  /** The server could not be reached, or refused the connection for another reason. */
  | 'ConnectFailed'
  /** The connection closed before the answer came. */
  | 'ConnectionClosed'
  /** Too many requests are already waiting for answers on this connection. */
  | 'TooManyRequests'
  /** The server answered with something that is not the protocol. */
  | 'Protocol'
  /** The server refused the request itself (not initialized, overloaded, unknown method, …); see `rpcError`. */
  | 'Rejected';

/** A remote call failed for a reason that is not about files or processes. */
export class ExecServerClientError extends Error {
  override readonly name = 'ExecServerClientError';

  constructor(
    readonly code: ExecServerClientErrorCode,
    message: string,
    /** The JSON-RPC error the server answered with, for 'Rejected'. */
    readonly rpcError?: JsonRpcErrorObject,
  ) {
    super(message);
  }
}

/** A JSON-RPC error answer, before it is turned into the caller's error class. */
export class RpcErrorAnswer extends Error {
  override readonly name = 'RpcErrorAnswer';

  constructor(readonly error: JsonRpcErrorObject) {
    super(error.message);
  }
}
