// @skein/json-rpc — the JSON-RPC transport Skein's servers share. Re-exports only.

export type { MessageChannel } from './message-channel.js';
export type { JsonRpcService, JsonRpcServiceConnection } from './json-rpc-service.js';
export { HARD_FRAME_FACTOR, HEARTBEAT_INTERVAL_MS, OVERSIZED_HEAD_BYTES } from './limits.js';

export { LineSplitter } from './line-splitter.js';
export type { LineSink } from './line-splitter.js';
export { UNKNOWN_REQUEST_ID, recoverRequestId } from './request-id.js';

export { RequestQueue, overloadedError } from './request-queue.js';
export type { RequestQueueOptions } from './request-queue.js';

export { JsonRpcErrorMapper, JsonRpcRequestError, mapErrorClass, mapErrorCodes } from './json-rpc-error-mapping.js';
export type { ErrorClass, ErrorMapping, JsonRpcErrorMapperOptions } from './json-rpc-error-mapping.js';

export { serveStdio } from './stdio-transport.js';

export { ListenAddressError, checkListenerExposure, isLoopbackHost, parseListenAddress, parseWebSocketAddress } from './listen-address.js';
export type { ListenAddress, WebSocketAddress } from './listen-address.js';
export { CapabilityToken, CapabilityTokenError } from './capability-token.js';
export type { TokenCheck } from './capability-token.js';
export { MIN_SECRET_BYTES, SignedBearerToken, SignedBearerTokenError } from './signed-bearer-token.js';
export type { SignedBearerTokenOptions } from './signed-bearer-token.js';
export type { UpgradeAuth } from './upgrade-auth.js';
export { resolveWebSocketAuth } from './websocket-auth.js';
export type { WebSocketAuthFlags } from './websocket-auth.js';
export { listenWebSocket } from './listen-websocket.js';
export type { WebSocketListener, WebSocketListenerOptions } from './websocket-listener.js';

export { TRANSPORT_FLAG_OPTIONS, readTransportFlags } from './transport-flags.js';
export type { TransportFlags } from './transport-flags.js';
export { runJsonRpcProgram } from './run-json-rpc-program.js';
export type { JsonRpcProgram, JsonRpcProgramIo, JsonRpcProgramServer } from './run-json-rpc-program.js';
