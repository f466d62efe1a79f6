// MessageChannel: where a connection writes, whatever transport carries it (a WebSocket, a stdio pipe).

/** Where a connection writes: one JSON-RPC message per `send`. */
export interface MessageChannel {
  /** Sends one serialized JSON-RPC message (no trailing newline; the transport frames it). */
  send(text: string): void;
  /**
   * Bytes handed to `send` that wait behind the message being written out now: the backlog a client
   * that stopped reading leaves, by which a connection bounds what it holds for it.
   */
  readonly bufferedBytes: number;
  /**
   * Hangs up on the client; the transport's usual close path then tears the connection down. Only
   * transports that may drop their client have it (a WebSocket); a stdio client owns its pipe.
   */
  readonly disconnect?: () => void;
}
