// The WebSocket to the realtime endpoint. `ws` is loaded on first use: a server that never holds a
// realtime conversation does not pay for it.
import type { RealtimeClientEvent } from './realtime-client-events.js';

/** An open connection to the realtime endpoint. */
export interface RealtimeSocket {
  send(event: RealtimeClientEvent): void;
  /** Closes it cleanly; `onClose` still follows. */
  close(): void;
}

/** What the socket reports. */
export interface RealtimeSocketHandlers {
  onFrame(text: string): void;
  /** The connection ended: by `close()`, by the endpoint, or cut (`error` says how). Called once. */
  onClose(error: Error | undefined): void;
}

/** Opens one connection; rejects when the endpoint cannot be reached or refuses the upgrade. */
export type RealtimeConnector = (url: URL, headers: Readonly<Record<string, string>>, handlers: RealtimeSocketHandlers) => Promise<RealtimeSocket>;

const CONNECT_TIMEOUT_MS = 30_000;
/** A server event larger than this is refused (audio deltas are a few KiB). */
const MAX_FRAME_BYTES = 16 * 1024 * 1024;

/**
 * The endpoint for `baseUrl` and `model`: `/v1/realtime?model=…` under the base's path (a base that
 * already ends in `/v1` or `/v1/realtime` keeps it). Only ws(s) and http(s) bases are accepted.
 */
export function realtimeUrl(baseUrl: string, model: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new Error(`experimental_realtime_ws_base_url is not a URL: ${baseUrl}`);
  }
  const schemes: Record<string, string> = { 'ws:': 'ws:', 'wss:': 'wss:', 'http:': 'ws:', 'https:': 'wss:' };
  const scheme = schemes[url.protocol];
  if (scheme === undefined) throw new Error(`experimental_realtime_ws_base_url must be a ws://, wss://, http:// or https:// URL, not ${url.protocol}`);
  const endpoint = new URL(url.href.replace(/^[a-z]+:/, scheme));
  const base = endpoint.pathname.replace(/\/+$/, '');
  endpoint.pathname = base.endsWith('/v1/realtime') ? base : base.endsWith('/v1') ? `${base}/realtime` : `${base}/v1/realtime`;
  endpoint.search = '';
  endpoint.searchParams.set('model', model);
  return endpoint;
}

/** {@link RealtimeConnector} over `ws`. */
export const connectRealtime: RealtimeConnector = async (url, headers, handlers) => {
  const { WebSocket } = await import('ws');
  const socket = new WebSocket(url, { headers, maxPayload: MAX_FRAME_BYTES, handshakeTimeout: CONNECT_TIMEOUT_MS });
  let failure: Error | undefined;
  // Listened to from the start, so no error of the socket is ever unhandled.
  socket.on('error', (error) => {
    failure ??= error;
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
    socket.once('unexpected-response', (request, response) => {
      // With this listener ws leaves the refused handshake's request open: end it here.
      request.destroy();
      reject(new Error(`the realtime endpoint answered HTTP ${response.statusCode ?? '?'}`));
    });
  });
  failure = undefined;
  socket.on('message', (data, isBinary) => {
    if (isBinary) return; // The API sends JSON text; binary frames carry nothing Skein reads.
    handlers.onFrame((Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(new Uint8Array(data))).toString('utf8'));
  });
  socket.once('close', (code, reason) => {
    // 1000 is a clean end; anything else (1006: cut without a close frame) ends the session as failed.
    if (failure === undefined && code !== 1000 && code !== 1005) failure = new Error(`the realtime connection closed (${code}${reason.length > 0 ? `: ${reason.toString()}` : ''})`);
    handlers.onClose(failure);
  });
  return {
    send(event) {
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(event));
    },
    close() {
      socket.close(1000);
    },
  };
};
