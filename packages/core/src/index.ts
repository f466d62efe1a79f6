// @skein/core — threads, turns and the model client. Re-exports only.

export { ResponsesClient } from './model-client/responses-client.js';
export type { ResponsesClientOptions, StreamOptions } from './model-client/responses-client.js';
export { ModelError, classifyApiError } from './model-client/model-error.js';
export type { ModelErrorCode } from './model-client/model-error.js';
export { KNOWN_SERVER_EVENTS, ServerEvent, TokenUsage } from './model-client/response-event.js';
export type { ResponseEvent } from './model-client/response-event.js';
export { DEFAULT_RETRY_POLICY, parseRetryAfter, retryDelayMs } from './model-client/retry-policy.js';
export type { RetryPolicy } from './model-client/retry-policy.js';
export { effectiveContextWindow, findModelInfo } from './model/model-catalog.js';
export type { ModelInfo, ModelOverrides, ToolMode } from './model/model-catalog.js';
export { OUTPUT_SCHEMA_NAME, buildResponsesBody } from './model/responses-request.js';
export type { SamplingRequest } from './model/responses-request.js';
export { ENVIRONMENT_CONTEXT_OPEN, localDate, renderEnvironmentContext } from './context/environment-context.js';
export type { EnvironmentContext, EnvironmentEntry, EnvironmentEntryTarget, EnvironmentPermissionProfile } from './context/environment-context.js';
export { AGENTS_MD_PREFIX, boundProjectDocs, renderAgentsMd } from './context/agents-md.js';
export type { AgentsMdSources } from './context/agents-md.js';
