// The WebSocket listener's entry, with `ws` and node:http loaded when a host first listens on a
// WebSocket: a server on stdio never needs them, and they cost its start ~15 ms (issue #18).
import type { JsonRpcServiceConnection } from './json-rpc-service.js';
import type { WebSocketListener, WebSocketListenerOptions } from './websocket-listener.js';

/**
 * Listens for JSON-RPC clients on a WebSocket (see websocket-listener.ts for the rules it enforces).
 *
 * @throws ListenAddressError for an unauthenticated listener off loopback.
 */
export async function listenWebSocket<C extends JsonRpcServiceConnection>(options: WebSocketListenerOptions<C>): Promise<WebSocketListener> {
  const listener = await import('./websocket-listener.js');
  return listener.listenWebSocket(options);
}
