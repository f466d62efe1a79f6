// The WebSocket listener's entry, with `ws` and node:http loaded when a host first listens on a
// WebSocket: a server on stdio never needs them, and they cost its start ~15 ms (issue #18).
import type { JsonRpcServiceConnection } from './json-rpc-service.js';
import type * as Listener from './websocket-listener.js';
import type { WebSocketListener, WebSocketListenerOptions } from './websocket-listener.js';

let listenerModule: Promise<typeof Listener> | undefined;

/**
 * Starts loading the listener's code, for a host that knows it will listen: the load then runs
 * while the host builds its service (and waits on its own I/O) instead of after it.
 */
export function preloadWebSocketListener(): Promise<typeof Listener> {
  listenerModule ??= import('./websocket-listener.js');
  return listenerModule;
}

/**
 * Listens for JSON-RPC clients on a WebSocket (see websocket-listener.ts for the rules it enforces).
 *
 * @throws ListenAddressError for an unauthenticated listener off loopback.
 */
export async function listenWebSocket<C extends JsonRpcServiceConnection>(options: WebSocketListenerOptions<C>): Promise<WebSocketListener> {
  const listener = await preloadWebSocketListener();
  return listener.listenWebSocket(options);
}
