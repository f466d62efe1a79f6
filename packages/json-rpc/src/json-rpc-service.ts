// What the stdio and WebSocket transports need from a JSON-RPC service, so any server that speaks
// one message per line/frame (the exec-server, the app-server) can be served by them.
import type { MessageChannel } from './message-channel.js';

/** One client of a service, fed by a transport. */
export interface JsonRpcServiceConnection {
  /** Handles one incoming message (a WebSocket frame or a stdio line). */
  receive(text: string): void;
  /** Answers a message over the size limit without acting on it; `head` is its start. */
  receiveOversized(head: string, bytes: number): void;
  /** Resolves once every request received so far has been answered. */
  drain(): Promise<void>;
}

/** A service the transports can serve: it accepts connections and tears them down. */
export interface JsonRpcService<C extends JsonRpcServiceConnection = JsonRpcServiceConnection> {
  /** The request size limit transports enforce before a message reaches a connection. */
  readonly maxRequestBytes: number;
  /** Starts serving a client over `channel`. */
  connect(channel: MessageChannel): C;
  /** Tears a client down once its transport has closed. */
  disconnect(connection: C): Promise<void>;
}
