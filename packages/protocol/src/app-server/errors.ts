// The JSON-RPC error codes and fixed messages Codex 0.171.0's app-server answers with, so Skein's
// server and its clients agree on them without matching on prose.

/** Error codes of the app-server (a superset of the JSON-RPC 2.0 reserved codes). */
export const AppServerErrorCode = {
  /** Malformed params, a request out of order, a relative path, an unknown method (as Codex). */
  InvalidRequest: -32600,
  /** Params that parse but are invalid together (`size` without `tty`, both `timeoutMs` and `disableTimeout`), as Codex. */
  InvalidParams: -32602,
  /** A method Codex's protocol names but this server does not implement. */
  MethodNotFound: -32601,
  /** An I/O failure or an unexpected error; the message is the OS's (`No such file or directory (os error 2)`). */
  InternalError: -32603,
  /** The connection's bounded request queue is full. */
  ServerOverloaded: -32001,
} as const;
/** One of {@link AppServerErrorCode}'s values. */
export type AppServerErrorCode = (typeof AppServerErrorCode)[keyof typeof AppServerErrorCode];

/** Fixed error messages Codex sends, word for word (clients show them; some match on them). */
export const AppServerErrorMessage = {
  NotInitialized: 'Not initialized',
  AlreadyInitialized: 'Already initialized',
  ServerOverloaded: 'Server overloaded; retry later.',
  /** Prefix of every params-parsing failure. */
  InvalidRequestPrefix: 'Invalid request: ',
  /** A relative path where the protocol wants an absolute one. */
  RelativePath: 'AbsolutePathBuf deserialized without a base path',
} as const;

/** The message Codex sends when a client without `experimentalApi` uses an experimental method or field. */
export function experimentalApiRequiredMessage(what: string): string {
  return `${what} requires experimentalApi capability`;
}
