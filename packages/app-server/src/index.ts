// @skein/app-server — Codex 0.171.0's app-server protocol (JSON-RPC v2) over stdio and WebSocket. Re-exports only.

export { AppServer } from './app-server.js';
export type { AppServerOptions } from './app-server.js';
export { AppServerConnection } from './app-server-connection.js';
export { AppServerRequestError, ServerRequestError } from './app-server-error.js';
export { defineMethod } from './method.js';
export type { AppServerMethod, ClientConnection, MethodContext, MethodTable } from './method.js';
export { defaultMethods, methodTable } from './methods/default-methods.js';
export { ThreadSubscriptions } from './thread-subscriptions.js';
export type { ThreadSubscriber } from './thread-subscriptions.js';
export { paginate } from './pagination.js';
export type { Page } from './pagination.js';
export { invalidParamsMessage, toJsonRpcError } from './to-json-rpc-error.js';
export { configReadResult } from './config-read-result.js';
export type { ReadLayerFile } from './config-read-result.js';
export { platformInfo } from './platform-info.js';
export { localUserAgentHost, userAgent } from '@skein/core';
export type { UserAgentHost } from '@skein/core';
export { readInstallationId } from '@skein/core';
export { hostSkills } from './skills/host-skills.js';
export type { HostSkills } from './skills/host-skills.js';
export {
  DEFAULT_CONCURRENT_REQUESTS,
  MAX_OUTBOUND_BUFFERED_BYTES,
  MAX_PAGE_SIZE,
  MAX_PENDING_SERVER_REQUESTS,
  MAX_QUEUED_REQUESTS,
  MAX_REQUEST_BYTES,
} from './limits.js';
export { AppServerSettingsError, createAppServer, parseAppServerArgs, runAppServer } from './run-app-server.js';
export { ThreadStoreConfigError, openThreadStore } from './threads/open-thread-store.js';
export type { OpenThreadStoreOptions } from './threads/open-thread-store.js';
export type { AppServerIo, AppServerSettings } from './run-app-server.js';
