// @skein/protocol — the wire types Skein shares with Codex 0.171.0. Re-exports only.

export { CODEX_VERSION } from './codex-version.js';
export { lazySchema } from './lazy-schema.js';

export {
  ITEM_ID_PREFIXES,
  ThreadId,
  TurnId,
  isUuidV7,
  itemIdPrefix,
  newItemId,
  newThreadId,
  newTurnId,
  randomUuidV7,
} from './ids.js';
export type { PrefixedItemType, UuidV7Source } from './ids.js';

export {
  ContentItem,
  ImageDetail,
  InputImageContent,
  InputTextContent,
  OtherContent,
  OutputTextContent,
  ToolOutputBody,
  ToolOutputContentItem,
} from './content-item.js';

export {
  AdditionalToolsItem,
  CompactionItem,
  ContextCompactionItem,
  CustomToolCallItem,
  CustomToolCallOutputItem,
  FunctionCallItem,
  FunctionCallOutputItem,
  ItemMetadata,
  KnownResponseItem,
  LocalShellCallItem,
  MessageItem,
  MessagePhase,
  MessageRole,
  OtherResponseItem,
  ReasoningItem,
  ResponseItem,
  ToolSearchCallItem,
  ToolSearchOutputItem,
  WebSearchCallItem,
  ensureResponseItemId,
  isKnownResponseItem,
  messageText,
  responseItemId,
  responseItemMetadata,
  toolCallId,
  toolOutputCallId,
  toolOutputFor,
  toolSearchOutput,
  withResponseItemId,
  withResponseItemMetadata,
  withoutResponseItemMetadata,
} from './response-item.js';
export type { KnownResponseItemType } from './response-item.js';

// Path URIs, JSON-RPC messages, file-system errors and sandbox policies: the executor's entry.
export * from './executor.js';

export {
  ContextFragment,
  ContextFragmentRole,
  ContextFragmentSpec,
  contextFragmentMarkersCollide,
  defineContextFragment,
  recognizeContextFragment,
} from './context-fragment.js';
export type { ContextFragmentDefinition } from './context-fragment.js';
export {
  AGENTS_MD_FRAGMENT,
  BUILT_IN_CONTEXT_FRAGMENTS,
  ENVIRONMENT_CONTEXT_FRAGMENT,
  PERMISSIONS_INSTRUCTIONS_FRAGMENT,
  SKILL_FRAGMENT,
  SUBAGENT_NOTIFICATION_FRAGMENT,
  MULTI_AGENT_MODE_FRAGMENT,
  MULTI_AGENT_ROLE_FRAGMENT,
  CURRENT_TIME_REMINDER_FRAGMENT,
  CONTEXT_WINDOW_FRAGMENT,
  ROLLOUT_BUDGET_FRAGMENT,
  LEGACY_TOKEN_BUDGET_FRAGMENT,
  TURN_ABORTED_FRAGMENT,
  DEFERRED_TOOLS_FRAGMENT,
  COLLABORATION_MODE_FRAGMENT,
  USER_INSTRUCTIONS_FRAGMENT,
  USER_SHELL_COMMAND_FRAGMENT,
} from './built-in-context-fragments.js';
export { HOOK_PROMPT_FRAGMENT, hookPromptText, parseHookPrompt } from './hook-prompt.js';

export {
  ByteRange,
  ImageUserInput,
  LocalImageUserInput,
  MentionUserInput,
  SkillUserInput,
  TextElement,
  TextUserInput,
  UserInput,
} from './user-input.js';


export {
  ApprovalsReviewer,
  AskForApproval,
  ClientInfo,
  MultiAgentMode,
  ReasoningEffort,
  ReasoningSummary,
  SandboxMode,
  SandboxPolicy,
  SessionSource,
  ThreadHistoryMode,
} from './app-server/common.js';
export { InitializeCapabilities, InitializeParams, InitializeResponse } from './app-server/initialize.js';
export {
  AgentMessageThreadItem,
  ContextCompactionThreadItem,
  EnteredReviewModeThreadItem,
  ExitedReviewModeThreadItem,
  OtherThreadItem,
  PlanThreadItem,
  ReasoningThreadItem,
  ThreadItem,
  UserMessageThreadItem,
} from './app-server/thread-item.js';
export { Turn, TurnError, TurnItemsView, TurnStartParams, TurnStartResponse, TurnStatus } from './app-server/turn.js';
export { CapabilityRootLocation, SelectedCapabilityRoot } from './app-server/capability-root.js';
export { Thread, ThreadStartParams, ThreadStartResponse, ThreadStatus } from './app-server/thread.js';
export {
  AgentMessageDeltaNotification,
  ClientRequest,
  InitializeRequest,
  ItemCompletedNotification,
  ItemStartedNotification,
  ServerNotification,
  ThreadStartRequest,
  ThreadStartedNotification,
  TurnCompletedNotification,
  TurnStartRequest,
  TurnStartedNotification,
} from './app-server/messages.js';
export type { ServerNotificationMethod } from './app-server/messages.js';

export {
  CustomToolFormat,
  CustomToolSpec,
  FunctionToolSpec,
  HostedToolSpec,
  JsonSchemaObject,
  NamespaceToolSpec,
  ToolSpec,
} from './tool-spec.js';

export {
  ExecAgentMessageItem,
  ExecCommandExecutionItem,
  ExecErrorItem,
  ExecEvent,
  ExecFileChangeItem,
  ExecMcpToolCallItem,
  ExecReasoningItem,
  ExecThreadItem,
  ExecTodoListItem,
  ExecUsage,
  ExecWebSearchItem,
} from './exec-events.js';

export { AppServerErrorCode, AppServerErrorMessage, experimentalApiRequiredMessage } from './app-server/errors.js';
export { AbsolutePath } from './app-server/absolute-path.js';
export { CODEX_CLIENT_REQUEST_METHODS, CODEX_LEGACY_REQUEST_METHODS, unknownRequestMethodMessage } from './app-server/client-request-methods.js';
export { PageParams } from './app-server/pagination.js';
export {
  FsCopyParams,
  FsCreateDirectoryParams,
  FsEmptyResponse,
  FsGetMetadataParams,
  FsGetMetadataResponse,
  FsReadDirectoryEntry,
  FsReadDirectoryParams,
  FsReadDirectoryResponse,
  FsReadFileParams,
  FsReadFileResponse,
  FsRemoveParams,
  FsWriteFileParams,
} from './app-server/fs.js';
export { FsChangedNotification, FsUnwatchParams, FsWatchParams, FsWatchResponse } from './app-server/fs-watch.js';
export {
  FuzzyFileSearchMatchType,
  FuzzyFileSearchParams,
  FuzzyFileSearchResponse,
  FuzzyFileSearchResult,
  FuzzyFileSearchSessionCompletedNotification,
  FuzzyFileSearchSessionStartParams,
  FuzzyFileSearchSessionStopParams,
  FuzzyFileSearchSessionUpdateParams,
  FuzzyFileSearchSessionUpdatedNotification,
} from './app-server/fuzzy-file-search.js';
export { Model, ModelListParams, ModelListResponse, ReasoningEffortOption } from './app-server/model-list.js';
export {
  CommandExecOutputDeltaNotification,
  CommandExecOutputStream,
  CommandExecParams,
  CommandExecResizeParams,
  CommandExecResponse,
  CommandExecTerminalSize,
  CommandExecTerminateParams,
  CommandExecWriteParams,
  EnvironmentOverrides,
} from './app-server/command-exec.js';
export {
  ProcessExitedNotification,
  ProcessKillParams,
  ProcessOutputDeltaNotification,
  ProcessResizePtyParams,
  ProcessSpawnParams,
  ProcessWriteStdinParams,
} from './app-server/process.js';
export {
  ExperimentalFeature,
  ExperimentalFeatureListParams,
  ExperimentalFeatureListResponse,
  ExperimentalFeatureStage,
} from './app-server/experimental-feature-list.js';
export { ConfigLayerMetadata, ConfigLayerSource, ConfigReadLayer, ConfigReadParams, ConfigReadResponse } from './app-server/config-read.js';
export { ConfigRequirementsReadParams, ConfigRequirementsReadResponse } from './app-server/config-requirements.js';
export {
  ConfigBatchWriteParams,
  ConfigEdit,
  ConfigValueWriteParams,
  ConfigWriteErrorCode,
  ConfigWriteResponse,
  ExperimentalFeatureEnablementSetParams,
  ExperimentalFeatureEnablementSetResponse,
  MergeStrategy,
  OverriddenMetadata,
  WriteStatus,
} from './app-server/config-write.js';
export { Account, CancelLoginAccountParams, GetAccountParams, GetAccountRateLimitsParams, GetAccountResponse, LoginAccountParams, LogoutAccountParams } from './app-server/account.js';
export { PermissionProfileListParams, PermissionProfileListResponse, PermissionProfileSummary } from './app-server/permission-profile-list.js';
export {
  CollaborationMode,
  Personality,
  ThreadMetadataGitInfoUpdateParams,
  ThreadMetadataUpdateParams,
  ThreadSettings,
  ThreadSettingsUpdatedNotification,
  ThreadSettingsUpdateParams,
  TurnEnvironmentParams,
} from './app-server/thread-settings.js';
export { GatewayAuth, ModelProviderListParams, ModelProviderListResponse, ModelProviderSummary, ProviderSettings } from './app-server/model-provider-list.js';
export {
  SkillMetadata,
  SkillScope,
  SkillsConfigWriteParams,
  SkillsConfigWriteResponse,
  SkillsExtraRootsSetParams,
  SkillsListEntry,
  SkillsListParams,
  SkillsListResponse,
} from './app-server/skills-list.js';
export { ConfigWarningNotification, RemoteControlStatusChangedNotification } from './app-server/startup-notifications.js';
export {
  CommandExecutionApprovalResponse,
  FileChangeApprovalResponse,
  ThreadForkParams,
  ThreadIdParams,
  ThreadListParams,
  ThreadLoadedListParams,
  ThreadReadParams,
  InitialTurnsPageParams,
  ThreadResumeParams,
  ThreadSetNameParams,
  ThreadRevertParams,
  ThreadInjectItemsParams,
  ThreadShellCommandParams,
  ToolRequestUserInputResponse,
  TurnInterruptParams,
  TurnSteerParams,
} from './app-server/thread-methods.js';
export {
  CollaborationModeListParams,
  HooksListParams,
  ThreadReadStateOperation,
  ThreadReadStateUpdateParams,
  ThreadTurnsListParams,
  ThreadItemsListParams,
  ThreadBackgroundTerminalsListParams,
  ThreadBackgroundTerminalsTerminateParams,
  PluginInstalledParams,
  BedrockCheckGovCloudRequirementsParams,
  ThreadItemsReadParams,
  ThreadTimelineListParams,
  ServerDiagnosticsParams,
  TurnSettingsUpdateParams,
  FeedbackSaveParams,
} from './app-server/client-surface.js';
export {
  MarketplaceAddParams,
  MarketplaceRemoveParams,
  MarketplaceUpgradeParams,
  PluginInstallParams,
  PluginListMarketplaceKind,
  PluginListParams,
  PluginReadParams,
  PluginSearchParams,
  PluginUninstallParams,
  type MarketplaceAddResponse,
  type MarketplaceLoadErrorInfo,
  type MarketplaceRemoveResponse,
  type MarketplaceUpgradeResponse,
  type PluginDetail,
  type PluginHookSummary,
  type PluginInstallResponse,
  type PluginInstalledResponse,
  type PluginInterface,
  type PluginListResponse,
  type PluginMarketplaceEntry,
  type PluginSearchResponse,
  type PluginSource,
  type PluginSummary,
} from './app-server/plugins.js';
export {
  REALTIME_VOICES,
  ThreadRealtimeAppendAudioParams,
  ThreadRealtimeAppendSpeechParams,
  ThreadRealtimeAppendTextParams,
  ThreadRealtimeListParams,
  ThreadRealtimeListVoicesParams,
  ThreadRealtimeStartParams,
  ThreadRealtimeStopParams,
} from './app-server/realtime.js';
export {
  ThreadQueueAddParams,
  ThreadQueueDeleteParams,
  ThreadQueueListParams,
  ThreadQueueReorderParams,
  ThreadQueueStartParams,
  ThreadQueueUpdateParams,
} from './app-server/thread-queue.js';
export {
  ThreadSectionAppearance,
  ThreadSectionCreateParams,
  ThreadSectionDeleteParams,
  ThreadSectionListParams,
  ThreadSectionMoveParams,
  ThreadSectionUpdateParams,
} from './app-server/thread-sections.js';
export { ThreadAttachmentAddParams, ThreadAttachmentListParams, ThreadAttachmentOwnerListParams, ThreadAttachmentRemoveParams } from './app-server/thread-attachments.js';
export { ReviewDelivery, ReviewStartParams, ReviewStartResponse, ReviewTarget } from './app-server/review.js';
export { ThreadSearchCancelParams, ThreadSearchOccurrencesParams, ThreadSearchParams } from './app-server/thread-search.js';
