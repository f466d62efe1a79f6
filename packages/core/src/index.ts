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
export { DEFAULT_TOOL_OUTPUT_TOKEN_LIMIT, ThreadHistory, abortedOutput } from './history/thread-history.js';
export type { ThreadHistoryOptions } from './history/thread-history.js';
export { approximateTokens, truncateMiddle, truncationMarker } from './history/truncate-output.js';
export { ToolRouter, isToolCall } from './tools/tool-router.js';
export type { ToolCall } from './tools/tool-router.js';
export type { CustomToolHandler, FunctionToolHandler, ToolHandler, ToolInvocation, ToolResult } from './tools/tool-handler.js';
export { TURN_ABORTED_MESSAGE, runTurn } from './turn/run-turn.js';
export type { TurnDependencies, TurnOutcome, TurnParameters } from './turn/run-turn.js';
export type { CoreEvent } from './turn/core-event.js';
