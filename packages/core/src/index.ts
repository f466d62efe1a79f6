// @skein/core — threads, turns and the model client. Re-exports only.
//
// This root entry is internal: the engine Skein's own packages (app-server, cli) share, with no
// semver promise. Services that embed Skein use `@skein/core/host` (src/host/), the versioned API.

export { ResponsesClient } from './model-client/responses-client.js';
export type { ResponsesClientOptions, StreamOptions } from './model-client/responses-client.js';
export { httpPost } from './model-client/http-post.js';
export type { ModelHttpPost, ModelHttpRequest, ModelHttpResponse } from './model-client/http-post.js';
export { ModelError, classifyApiError } from './model-client/model-error.js';
export type { ModelErrorCode } from './model-client/model-error.js';
export { ServerEvent, TokenUsage, isKnownServerEvent } from './model-client/response-event.js';
export type { ResponseEvent } from './model-client/response-event.js';
export { DEFAULT_RETRY_POLICY, parseRetryAfter, retryDelayMs } from './model-client/retry-policy.js';
export type { RetryPolicy } from './model-client/retry-policy.js';
export { autoCompactTokenLimit, effectiveContextWindow, findModelInfo, listModels } from './model/model-catalog.js';
export type { FastTier, ModelInfo, ModelOverrides, MultiAgentVersion, ToolMode, WebSearchContentType } from './model/model-catalog.js';
export { OUTPUT_SCHEMA_NAME, buildResponsesBody } from './model/responses-request.js';
export type { ResponsesServiceTier, SamplingRequest } from './model/responses-request.js';
export { ENVIRONMENT_CONTEXT_OPEN, localDate, renderEnvironmentContext } from './context/environment-context.js';
export type { AttachedEnvironmentContext, EnvironmentContext, EnvironmentEntry, EnvironmentEntryTarget, EnvironmentPermissionProfile } from './context/environment-context.js';
export { AGENTS_MD_PREFIX, agentsMdInstructions, boundProjectDocs } from './context/agents-md.js';
export type { AgentsMdDoc, AgentsMdInstructions, AgentsMdSources, EnvironmentAgentsMd } from './context/agents-md.js';
export { DEFAULT_TOOL_OUTPUT_TOKEN_LIMIT, ThreadHistory, abortedOutput } from './history/thread-history.js';
export type { ThreadHistoryOptions } from './history/thread-history.js';
export { approximateTokens, truncateMiddle, truncationMarker } from './history/truncate-output.js';
export { ToolRouter, isToolCall, toolName } from './tools/tool-router.js';
export type { ToolCall } from './tools/tool-router.js';
export { planTools } from './tools/tool-plan.js';
export type { BuiltInToolFactory, ToolContribution, ToolPlan, ToolPlanInputs } from './tools/tool-plan.js';
export { MAX_NESTED_DISPATCH_DEPTH, TurnToolCalls } from './tools/turn-tool-calls.js';
export type { BindApprovals, TurnScope, TurnToolCallsOptions } from './tools/turn-tool-calls.js';
export { BUDGET_EXHAUSTED_MESSAGE, TURN_ABORTED_MESSAGE, UNDISPATCHED_OUTPUT, runTurn } from './turn/run-turn.js';
export type { TurnDependencies, TurnError, TurnOutcome, TurnParameters } from './turn/run-turn.js';
export { BudgetExhaustedError } from './budgets/budget-exhausted-error.js';
export { codexErrorInfoOf } from './turn/codex-error-info.js';
export type { CodexErrorInfo } from './turn/codex-error-info.js';
export { NO_TURN_HOOKS, combineTurnHooks } from './turn/turn-hooks.js';
export type { AfterResponseHook, AfterResponseVerdict, BeforeSamplingHook, ResponseGate, SampledResponse, StopGate, TurnHooks, TurnStep, TurnStopping } from './turn/turn-hooks.js';
export { hookLayers } from './session/thread-hooks.js';
export { SteeredInput } from './turn/steered-input.js';
export type { CoreEvent } from './turn/core-event.js';
export { McpConnections } from './mcp/mcp-connections.js';
export { GoalError, GoalStatus, ThreadGoal, goalToolOutput } from './goals/thread-goal.js';
export { ThreadGoals } from './goals/thread-goals.js';
export type { GoalChange } from './goals/thread-goals.js';
export { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT, ToolSearchIndex } from './tools/tool-search/tool-search-index.js';
export type { ToolSearchHit } from './tools/tool-search/tool-search-index.js';
export type { McpServerStartup, McpStartupState, ReadyMcpServer } from './mcp/mcp-connections.js';
export { TurnItems, webSearchOf } from './turn/turn-items.js';
export type {
  AgentMessageTurnItem,
  AsyncQuestion,
  CommandTurnItem,
  ContextCompactionTurnItem,
  FileChangeTurnItem,
  ImageViewTurnItem,
  ReasoningTurnItem,
  TurnFileChange,
  TurnItem,
  TurnItemStatus,
  WebSearchTurnItem,
  McpToolCallTurnItem,
  HookPromptTurnItem,
} from './turn/turn-item.js';
export { DEFAULT_BASE_INSTRUCTIONS } from './context/base-instructions.js';
export { PERMISSIONS_OPEN, renderPermissionsInstructions } from './context/permissions-instructions.js';
export type { PermissionsFacts } from './context/permissions-instructions.js';
export { buildInitialContext, contextUpdates } from './context/initial-context.js';
export type { InitialContextSources } from './context/initial-context.js';
export { AGENTS_MD_FILE, discoverAgentsMd } from './context/agents-md-discovery.js';
export type { AgentsMdLocations, AgentsMdPlace } from './context/agents-md-discovery.js';
export { ExtensionHost } from './extensions/extension-host.js';
export { ExtensionLoadError, extensionFlagSources, loadExtensions } from './extensions/load-extensions.js';
export type { ExtensionLoadFailure, ExtensionSource, LoadedExtensions, LoadExtensionsOptions, ModuleImporter } from './extensions/load-extensions.js';
export type { ExtensionHostThread, WorldStateChange } from './extensions/extension-host.js';
export { MAX_EXTENSION_STATE_VALUE_BYTES, ThreadExtensionState } from './extensions/thread-extension-state.js';
export type { ExtensionStateRecord } from './extensions/thread-extension-state.js';
export { permissionsForPolicy, threadPermissions } from './session/permissions.js';
export type { SandboxSettings, ThreadPermissions } from './session/permissions.js';
export { MemoryThreadRecorder } from './session/thread-recorder.js';
export type { CompactionRecord, ThreadRecorder, TurnContextRecord, WorldStateRecord } from './session/thread-recorder.js';
export { firstContextWindow, nextContextWindow, restoredContextWindow } from './compaction/context-window.js';
export type { ContextWindow } from './compaction/context-window.js';
export { HANDOFF_SUMMARY_PREFIX, HANDOFF_SUMMARY_REQUEST } from './compaction/handoff-summary.js';
export { KEPT_USER_PROMPTS_MAX_TOKENS, buildReplacementHistory } from './compaction/replacement-history.js';
export type { ReplacementHistoryInput } from './compaction/replacement-history.js';
export { ThreadSession, ThreadSessionError } from './session/thread-session.js';
export type { HostFacts, RecordedTurnSettings, SelectedEnvironment, StartingEnvironment, ThreadEnvironment, ThreadSessionOptions } from './session/thread-session.js';
export { isStartingEnvironment, withPrimaryWorkspaceRoots } from './session/thread-environment.js';
export { threadApprovals } from './session/thread-approvals.js';
export type { ThreadApprovalsOptions } from './session/thread-approvals.js';
export { sandboxContextFor } from './session/sandbox-context.js';
export { MAX_LOCAL_IMAGE_BYTES, UserInputError, userInputToItems } from './session/user-input-items.js';
export { localWorkspaceReader } from './session/workspace-reader.js';
export type { WorkspaceReader } from './session/workspace-reader.js';
export { RolloutThreadRecorder } from './persistence/rollout-recorder.js';
export { ThreadManager, ThreadManagerError } from './thread-manager.js';
export type { OpenThreadOptions, StartThreadOptions, ThreadManagerOptions, ThreadRegistryEvent } from './thread-manager.js';
export type { RunTurnOptions, ThreadHandle } from './thread-handle.js';
export { sandboxTag, turnRequestMetadata } from './model/turn-metadata.js';
export type { HistoryInitialization, SandboxTag } from './model/turn-metadata.js';
export { readInstallationId } from './installation-id.js';
export { localUserAgentHost, userAgent } from './model-client/user-agent.js';
export type { UserAgentHost } from './model-client/user-agent.js';
export type { TurnIdentity, TurnRequestMetadata } from './model/turn-metadata.js';
export { EXEC_COMMAND_SPEC, ExecCommandArgs, execCommandTool } from './tools/unified-exec/exec-command-tool.js';
export type { ExecCommandToolOptions } from './tools/unified-exec/exec-command-tool.js';
export { WRITE_STDIN_SPEC, WriteStdinArgs, writeStdinTool } from './tools/unified-exec/write-stdin-tool.js';
export { UnifiedExecSessions } from './tools/unified-exec/unified-exec-sessions.js';
export type { ExecCommandRequest, UnifiedExecEvent, UnifiedExecSessionsOptions, WriteStdinRequest } from './tools/unified-exec/unified-exec-sessions.js';
export { UnifiedExecError, UnifiedExecErrorCode } from './tools/unified-exec/unified-exec-error.js';
export { formatExecResponse } from './tools/unified-exec/exec-output.js';
export type { ExecResponse } from './tools/unified-exec/exec-output.js';
export { APPLY_PATCH_LARK_GRAMMAR, APPLY_PATCH_TOOL_SPEC, applyPatchTool } from './tools/apply-patch/apply-patch-tool.js';
export type { ApplyPatchToolOptions, PatchFileSummary } from './tools/apply-patch/apply-patch-tool.js';
export { PatchParseError, parsePatch } from './tools/apply-patch/parse-patch.js';
export type { PatchParseErrorCode } from './tools/apply-patch/parse-patch.js';
export type { Patch, PatchHunk, UpdateChunk } from './tools/apply-patch/patch.js';
export { PatchApplyError, planPatch } from './tools/apply-patch/plan-patch.js';
export type { FileChange, PatchApplyErrorCode, PlanPatchOptions } from './tools/apply-patch/plan-patch.js';
export { applyPlannedChanges } from './tools/apply-patch/apply-planned-changes.js';
export type { ApplyPlannedChangesOptions } from './tools/apply-patch/apply-planned-changes.js';
export { CORE_ENVIRONMENT_VARIABLES, DEFAULT_EXCLUDED_PATTERNS, shellEnvironment } from './session/shell-environment.js';
export type {
  ClientRequests,
  CommandApprovalDecision,
  CommandApprovalRequest,
  FileChangeApprovalDecision,
  FileChangeApprovalRequest,
  UserInputAnswers,
  UserInputQuestion,
  UserInputRequest,
  McpElicitationAnswer,
  McpElicitationRequest,
} from './session/client-requests.js';
export { COMMAND_REJECTED_OUTPUT, CommandApprovals } from './tools/approvals/command-approvals.js';
export type { Authorization, CommandApprovalsOptions, CommandCall, PatchCall, PermissionHookAnswer, PermissionHookRequest } from './tools/approvals/command-approvals.js';
export { allowsEscalationRequests, asksAfterSandboxDenial, commandRequirement } from './tools/approvals/command-requirement.js';
export type { ApprovalPolicy, CommandFacts, CommandRequirement } from './tools/approvals/command-requirement.js';
export { isKnownSafeCommand } from './tools/approvals/known-safe-command.js';
export { isDangerousCommand, scriptHasDangerousCommand } from './tools/approvals/dangerous-command.js';
export { commandsOf, plainCommandsOfScript } from './tools/approvals/shell-words.js';
export { DEFAULT_USER_SHELL_TIMEOUT_MS, USER_SHELL_UNAVAILABLE } from './session/user-shell-command.js';
export type { UserShellResult } from './session/user-shell-command.js';
export { DEFAULT_CAPTURE_MAX_BYTES, DEFAULT_CAPTURE_TIMEOUT_MS, type CaptureCommandOptions, type CommandCapture } from './session/command-capture.js';
export type { BackgroundTerminal, BackgroundTerminals } from './session/background-terminals.js';
export type { CommandSource } from './turn/core-event.js';
export { VIEW_IMAGE_SPEC, ViewImageArgs, ViewImageError, loadImage, viewImageTool } from './tools/view-image/view-image-tool.js';
export type { ImageSource, LoadedImage, ViewImageDetail, ViewImageErrorCode, ViewImageToolOptions } from './tools/view-image/view-image-tool.js';
export { IMAGE_SIGNATURE_BYTES, sniffImageType } from './tools/view-image/image-type.js';
export type { ImageMimeType } from './tools/view-image/image-type.js';
export { REQUEST_USER_INPUT_SPEC, RequestUserInputArgs, RequestUserInputOption, RequestUserInputQuestion, requestUserInputTool } from './tools/request-user-input/request-user-input-tool.js';
export type { RequestUserInputToolOptions } from './tools/request-user-input/request-user-input-tool.js';
export { NO_TOKENS, addUsage, breakdownFromRollout, breakdownOf } from './session/thread-token-usage.js';
export type { TokenUsageBreakdown } from './session/thread-token-usage.js';
export type { TokenUsageReport } from './session/token-accounting.js';
export type { RealtimeItemRecord, UserMessageRecord } from './session/thread-recorder.js';
export { localHostFacts, localThreadEnvironment, userShell } from './session/local-environment.js';
export type { LocalThreadEnvironment } from './session/local-environment.js';
export { environmentOs, remoteThreadEnvironment } from './session/remote-environment.js';
export { displayCommand, quoteShellWord, shellArgv } from './tools/unified-exec/shell-command.js';
export { MAX_REVIEW_DIFF_BYTES, gatherReviewChanges } from './review/review-diff.js';
export type { CaptureOnEnvironment, ReviewChanges } from './review/review-diff.js';
export { ReviewError } from './review/review-error.js';
export type { ReviewErrorCode } from './review/review-error.js';
export { EMPTY_REVIEW_TEXT, REVIEW_OUTPUT_SCHEMA, ReviewFinding, ReviewOutput, parseReviewOutput, renderReviewOutput } from './review/review-output.js';
export { reviewHint, reviewPrompt, reviewRequest } from './review/review-prompt.js';
export type { MultiAgentMode } from './agents/agent-instructions.js';
export type { RevertOptions, RevertResult } from './session/thread-revert.js';
export type { EnvironmentRestore, RestoredFile } from './checkpoints/thread-checkpoints.js';
export { pruneLocalCheckpoints } from './checkpoints/thread-checkpoints.js';
export { CheckpointError, GitCheckpoints, shellRunner } from './checkpoints/git-checkpoints.js';
export type { CheckpointPlace, CheckpointRunner, PathChange, Snapshot, SnapshotUnavailable } from './checkpoints/git-checkpoints.js';
export { captureCommand } from './session/command-capture.js';
export type { CaptureTarget } from './session/command-capture.js';
export { forkIntoWorktree } from './checkpoints/checkpoint-worktree.js';
export type { ForkPoint, ForkWorktree } from './checkpoints/checkpoint-worktree.js';
export { agentMessageItem, commandExecutionItem, fileChangeItem, hookPromptItem, imageViewItem, mcpToolCallItem, reasoningItem, threadItem, userMessageItem, webSearchItem } from './wire/thread-items.js';
export type { WireObject } from './wire/thread-items.js';
export { UNKNOWN_RATE_LIMITS, turnErrorObject } from './wire/turn-wire.js';
export { eventNotification } from './wire/event-notifications.js';
export type { EventNotification } from './wire/event-notifications.js';
