// A JSON-RPC service over WebSocket: one text (or binary) frame per message, the security rules
// both servers share (no browser origins, no unauthenticated listener off loopback, optional
// bearer-token auth on the upgrade: capability token or signed JWT), and heartbeats so a vanished client is noticed and torn down.
// A service may also hang up on a client itself (one that stopped reading) through its channel.
// The frames a client is sent in one turn of the event loop go out in one write (write-coalescing.ts).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { JsonRpcErrorCode } from '@skein/protocol/executor';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { UpgradeAuth } from './upgrade-auth.js';
import type { JsonRpcService, JsonRpcServiceConnection } from './json-rpc-service.js';
import { HARD_FRAME_FACTOR, HEARTBEAT_INTERVAL_MS } from './limits.js';
import { checkListenerExposure, type WebSocketAddress } from './listen-address.js';
import { OutboundBacklog } from './outbound-backlog.js';
import { UNKNOWN_REQUEST_ID } from './request-id.js';
import { coalesceWrites } from './write-coalescing.js';

/** Options of {@link listenWebSocket}. */
export interface WebSocketListenerOptions<C extends JsonRpcServiceConnection = JsonRpcServiceConnection> extends WebSocketAddress {
  /** The service each accepted client is connected to (an ExecServer, an app-server, …). */
  readonly server: JsonRpcService<C>;
  /**
   * When set, upgrades without the right `Authorization: Bearer` token are refused with 401. Without
   * it the host must be a loopback address (else {@link listenWebSocket} throws `ListenAddressError`).
   */
  readonly auth?: UpgradeAuth | undefined;
}

/** A listening WebSocket endpoint. */
export interface WebSocketListener {
  /** `ws://IP:PORT` with the actual port. */
  readonly url: string;
  /** Stops accepting, closes every client (killing their processes) and the listening socket. */
  close(): Promise<void>;
}

function rawText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

function refuse(socket: Socket, status: string, message: string): void {
  // The body is a JSON-RPC error so a client that shows it gets the same shape as any other refusal.
  const body = JSON.stringify({ error: { code: JsonRpcErrorCode.InvalidRequest, message }, id: UNKNOWN_REQUEST_ID });
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * Listens for a JSON-RPC service's clients (exec-server, app-server) on `ws://host:port`.
 *
 * As Codex: an upgrade that carries an `Origin` header (a web page's script) is refused with 403
 * before any auth check, so a page the user visits cannot drive the server; and an unauthenticated
 * listener is refused on a non-loopback address.
 *
 * @throws ListenAddressError (`UnauthenticatedNonLoopback`) for a non-loopback host without `auth`.
 */
export async function listenWebSocket<C extends JsonRpcServiceConnection>(options: WebSocketListenerOptions<C>): Promise<WebSocketListener> {
  checkListenerExposure(options, options.auth !== undefined);
  const { server } = options;
  const sockets = new Set<WebSocket>();
  const closing = new Set<Promise<void>>();
  const alive = new WeakSet<WebSocket>();
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: server.maxRequestBytes * HARD_FRAME_FACTOR,
    perMessageDeflate: false,
  });
  const http: Server = createServer((request, response) => {
    // `/healthz` as well as `/readyz`: Codex's app-server answers both on its WebSocket port.
    if (request.url === '/readyz' || request.url === '/healthz') {
      response.writeHead(200).end();
      return;
    }
    response.writeHead(request.url === '/' ? 400 : 404, { 'Content-Type': 'text/plain; charset=utf-8' });
    response.end(request.url === '/' ? "Connection header did not include 'upgrade'" : '');
  });

  http.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    // Browsers always send Origin on a WebSocket handshake and other clients need not: refusing it
    // keeps a web page from reaching a server bound to this machine (cross-site WebSocket hijacking).
    if (request.headers.origin !== undefined) return refuse(socket, '403 Forbidden', 'websocket upgrades from a browser (with an `Origin` header) are refused');
    const auth = options.auth;
    if (auth === undefined) return wss.handleUpgrade(request, socket, head, (ws) => attach(ws, socket));
    void auth.refusal(request.headers.authorization).then(
      (refusal) => (refusal === undefined ? wss.handleUpgrade(request, socket, head, (ws) => attach(ws, socket)) : refuse(socket, '401 Unauthorized', refusal)),
      () => refuse(socket, '401 Unauthorized', 'websocket bearer token could not be checked'),
    );
  });

  /** `socket` is the one `ws` was made on: frames are coalesced on it, below the WebSocket layer. */
  const attach = (ws: WebSocket, socket: Socket): void => {
    sockets.add(ws);
    alive.add(ws);
    const backlog = new OutboundBacklog();
    const hold = coalesceWrites(socket);
    const connection = server.connect({
      send: (text) => {
        hold();
        ws.send(text, backlog.add(Buffer.byteLength(text)));
      },
      get bufferedBytes() {
        return backlog.waitingBytes;
      },
      // No close frame: it would wait behind the backlog the client is not reading. The socket is
      // destroyed and 'close' below runs the service's disconnect, as for a vanished client.
      disconnect: () => ws.terminate(),
    });
    ws.on('pong', () => alive.add(ws));
    ws.on('message', (data) => connection.receive(rawText(data)));
    ws.on('error', () => ws.terminate());
    ws.once('close', () => {
      sockets.delete(ws);
      const done = server.disconnect(connection).finally(() => closing.delete(done));
      closing.add(done);
    });
  };

  const heartbeat = setInterval(() => {
    for (const ws of sockets) {
      if (!alive.has(ws)) {
        ws.terminate();
        continue;
      }
      alive.delete(ws);
      ws.ping();
    }
  }, HEARTBEAT_INTERVAL_MS);
  heartbeat.unref();

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const address = http.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;

  return {
    url: `ws://${host}:${port}`,
    async close() {
      clearInterval(heartbeat);
      for (const ws of sockets) ws.terminate();
      await new Promise<void>((resolve) => {
        wss.close(() => resolve());
      });
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
      await Promise.all([...closing]);
    },
  };
}
