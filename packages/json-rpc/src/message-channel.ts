// MessageChannel: where a connection writes, whatever transport carries it (a WebSocket, a stdio pipe).

/** Where a connection writes: one JSON-RPC message per `send`. */
export interface MessageChannel {
  /** Sends one serialized JSON-RPC message (no trailing newline; the transport frames it). */
  send(text: string): void;
  /** Bytes handed to `send` that the peer has not taken yet, so a connection can shed optional output. */
  readonly bufferedBytes: number;
}
