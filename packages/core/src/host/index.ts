// @skein/core/host — the API a Node service embeds Skein through: a runtime over one home
// directory, its threads, and their turns as async iterables of the app-server's v2 notifications.
// This entry is versioned (HOST_API_VERSION) and its declarations are checked in CI against
// packages/core/api/host.api.md; the root entry `@skein/core` is internal to Skein's packages.
export { HOST_API_VERSION, createRuntime } from './runtime.js';
export type { EnvironmentChoice, ForkOptions, RuntimeOptions, SkeinRuntime, StartOptions, ThreadHandlers, ThreadOptions } from './runtime.js';
export type { HostThread, RunOptions } from './host-thread.js';
export type { TurnRun } from './turn-run.js';
export type { TokenUsageBreakdown, TokenUsageSnapshot, TurnErrorInfo, TurnEvent, TurnEventScope, TurnObject, TurnResult, TurnStatus } from './turn-event.js';
export type { SettingValue, SettingsTable } from './config-overrides.js';
export { HostError } from './host-error.js';
export type { HostErrorCode } from './host-error.js';
export type {
  ClientRequests,
  CommandApprovalDecision,
  CommandApprovalRequest,
  FileChangeApprovalDecision,
  FileChangeApprovalRequest,
  McpElicitationAnswer,
  McpElicitationRequest,
  UserInputAnswers,
  UserInputQuestion,
  UserInputRequest,
} from '../session/client-requests.js';
export type { ThreadItem, UserInput } from '@skein/protocol';
export type { ThreadListQuery, ThreadPage, ThreadSummary } from '@skein/rollout';
