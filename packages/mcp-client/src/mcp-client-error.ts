// The one error type of this package: a stable code to switch on, and a message that names the server.

/** Why a call to an MCP server failed. */
export type McpClientErrorCode =
  /** The `[mcp_servers.<name>]` table cannot be used as given (or an env var it names is unset). */
  | 'InvalidConfig'
  /** The table says `enabled = false`. */
  | 'Disabled'
  /** No `[mcp_servers.<name>]` table has that name. */
  | 'UnknownServer'
  /** The server did not finish the `initialize` handshake in time. */
  | 'StartupTimeout'
  /** The process could not start, the URL could not be reached, or the handshake failed. */
  | 'ConnectFailed'
  /** A request got no answer in time. */
  | 'RequestTimeout'
  /** The server answered a request with a JSON-RPC error. */
  | 'ServerError'
  /** The server answered with something that is not a valid result. */
  | 'InvalidResponse'
  /** The server offered a cursor it had already given, so paging would never end. */
  | 'RepeatedCursor'
  /** The connection went away: the process exited or the HTTP session ended. */
  | 'Disconnected'
  /** The caller's AbortSignal fired. */
  | 'Aborted'
  /** The client (or its manager) was closed by its owner. */
  | 'Closed';

/** A failed MCP call. `server` is the `[mcp_servers.<name>]` key; the message starts with it. */
export class McpClientError extends Error {
  override readonly name = 'McpClientError';

  constructor(
    readonly code: McpClientErrorCode,
    readonly server: string,
    detail: string,
    options?: { cause?: unknown; rpcCode?: number; stderrTail?: string },
  ) {
    const stderrTail = options?.stderrTail === '' ? undefined : options?.stderrTail;
    super(`MCP server '${server}': ${detail}${stderrTail === undefined ? '' : `; its stderr ends with: ${stderrTail}`}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.rpcCode = options?.rpcCode;
    this.stderrTail = stderrTail;
    this.messageForModel = `MCP server '${server}': ${detail}`;
  }

  /** The JSON-RPC error code the server answered with (`ServerError` only). */
  readonly rpcCode: number | undefined;
  /**
   * The end of a stdio server's stderr when it exited or failed to start: in `message`, for the user
   * and the logs, but not in `messageForModel` (a server's log can hold what the model should not read).
   */
  readonly stderrTail: string | undefined;
  /** `message` without the stderr tail: what a tool's output may carry to the model. */
  readonly messageForModel: string;
}
