// @skein/test-support — the fakes Skein's tests use: a mock OpenAI Responses API server, the SSE
// builders that script it, request capture and tool call invariant checks, and a mock Realtime API
// WebSocket server with its event builders. Re-exports only.

export { startMockResponsesServer, DEFAULT_MAX_BODY_BYTES, RESPONSES_PATH } from './mock-responses-server.js';
export type { AnswerSpan, MockResponsesServer, MockResponsesServerOptions, ToleratedProblem } from './mock-responses-server.js';

export { startMockRealtimeServer } from './mock-realtime-server.js';
export type { MockRealtimeServer, MockRealtimeServerOptions } from './mock-realtime-server.js';
export { DEFAULT_REALTIME_WAIT_MS } from './mock-realtime-connection.js';
export type { MockRealtimeConnection, RealtimeClientEvent, RealtimeEventMatch, RealtimeWaitOptions } from './mock-realtime-connection.js';
export { realtimeEvents } from './realtime-events.js';
export type { RealtimeServerEvent, RealtimeHandoffOptions, RealtimeAudioDeltaOptions } from './realtime-events.js';

export { sse, httpError, matching, routed, held, paced, replyTo } from './scripted-response.js';
export type {
  ScriptedResponse,
  SseResponse,
  HttpErrorResponse,
  HttpErrorOptions,
  ScriptStep,
  ScriptHeaders,
  SseHold,
  SsePace,
} from './scripted-response.js';

export {
  created,
  outputItemAdded,
  outputItemDone,
  outputTextDelta,
  reasoningSummaryTextDelta,
  completed,
  failed,
  safetyBuffering,
} from './sse-events.js';
export type { MockItem, ResponseIdOptions, CompletedOptions, SafetyBufferingOptions } from './sse-events.js';

export { assistantMessage, reasoningItem, functionCall, customToolCall, webSearchCall, toolSearchCall } from './sse-items.js';
export type { MessagePhase, AssistantMessageOptions, ReasoningItemOptions, ToolCallOptions, ToolSearchCallOptions, WebSearchCallOptions } from './sse-items.js';

export { MCP_FIXTURE_SERVER, mcpFixtureServerToml, startMcpHttpFixture } from './mcp-fixture.js';
export type { McpHttpFixture } from './mcp-fixture.js';
export { codexRequestHeaders, TRANSPORT_HEADERS } from './codex-request-headers.js';
export type { CodexRequestHeaders } from './codex-request-headers.js';

export { streamCut, StreamCut } from './mock-event.js';
export type { MockEvent } from './mock-event.js';

export { DeferredId, RESPONSE_ID } from './deferred-id.js';
export type { MockId } from './deferred-id.js';

export { tokenUsage } from './token-usage.js';
export type { UsageOptions, ResponseUsage } from './token-usage.js';

export { CapturedRequest } from './captured-request.js';
export type { CapturedRequestInit } from './captured-request.js';

export { ResponsesRequestBody, ResponsesInputItem, ResponsesTool } from './request-body.js';

export type { RequestMatcher, RequestPredicate, PartialBody } from './request-matcher.js';

export { checkToolCallInvariants, TOOL_CALL_TYPES, TOOL_OUTPUT_TYPES } from './tool-call-invariants.js';
export type { ToolCallViolation, ToolCallViolationCode, ToolCallInvariantOptions } from './tool-call-invariants.js';

export type { MockProblem, MockProblemKind } from './mock-problem.js';

export { MockServerError } from './mock-server-error.js';
export type { MockServerErrorCode } from './mock-server-error.js';

export {
  APP_SERVER_SCHEMA_DIR,
  AppServerSchema,
  AppServerSchemaError,
  appServerSchema,
  assertClientMessage,
  assertServerMessage,
} from './app-server-schema.js';
export { AppServerTestClient, AppServerTestClientError, DEFAULT_APP_SERVER_WAIT_MS, MAX_RECORDED_NOTIFICATIONS } from './app-server-test-client.js';
export type {
  AppServerReply,
  AppServerRequestId,
  AppServerTestClientOptions,
  ReceivedNotification,
  ReceivedServerRequest,
  ServerRequestHandler,
  SpawnAppServerOptions,
  WebSocketClientOptions,
} from './app-server-test-client.js';

export { mockProviderConfigToml } from './mock-provider-config.js';
export type { MockProviderConfigOptions } from './mock-provider-config.js';

export { PLAIN_TURN_NOTIFICATIONS } from './codex-notification-order.js';

export {
  DEFAULT_PROBE_WAIT_MS,
  REQUIRE_SANDBOX_ENV,
  TEST_RUN_ID_ENV,
  TestCapabilityError,
  probeOncePerRun,
  probeSandboxForTests,
  skipWithReason,
  testRunDir,
} from './probe-once-per-run.js';
export type { ProbeOncePerRunOptions, ProbedCapability, SkippableTestContext } from './probe-once-per-run.js';
export { resolveCodexBinary } from './codex-binary.js';
export { createTestDatabase, postgresSkipReason } from './postgres-test-database.js';
export type { TestDatabase } from './postgres-test-database.js';
export { TcpRelay } from './tcp-relay.js';
export { commitMarketplace, gitIn, gitUrlRewrite, writePluginMarketplace } from './plugin-marketplace.js';
export type { TestPlugin } from './plugin-marketplace.js';
