// @skein/rollout — thread history as Codex 0.171.0 rollout JSONL: line schemas, the append-only
// writer, forward and tail readers, resume reconstruction, forks and the SQLite thread index.
// Re-exports only.

export { RolloutError } from './rollout-error.js';
export type { RolloutErrorCode } from './rollout-error.js';

export { rolloutTimestamp, systemClock } from './clock.js';
export type { Clock } from './clock.js';
export { openFile } from './open-file.js';
export type { OpenFile } from './open-file.js';

export { RolloutThreadId, isUuid } from './lines/rollout-uuid.js';
export {
  BaseInstructions,
  GitInfo,
  HistoryBase,
  SessionMeta,
  SessionSource,
  parentThreadIdOf,
  sessionIdOf,
  sourceKindOf,
} from './lines/session-meta.js';
export { TurnContext } from './lines/turn-context.js';
export { Compacted, compactedWriteProblem, compactionWindow } from './lines/compacted.js';
export type { CompactionWindow } from './lines/compacted.js';
export {
  AgentMessageEvent,
  EventMsg,
  ExecCommandEndEvent,
  ItemCompletedEvent,
  KnownEventMsg,
  OtherEventMsg,
  TaskCompleteEvent,
  TaskStartedEvent,
  ThreadNameUpdatedEvent,
  ThreadGoalUpdatedEvent,
  ThreadRolledBackEvent,
  TurnAbortedEvent,
  UserMessageEvent,
  eventMsgSchemaFor,
  isKnownEventMsg,
} from './lines/event-msg.js';
export { InterAgentCommunication, InterAgentCommunicationMetadata, interAgentHistoryItem } from './lines/inter-agent.js';
export { WorldState } from './lines/world-state.js';
export { RealtimeItem } from './lines/realtime-item.js';
export { ExtensionState, ExtensionStateDelete, ExtensionStateSet } from './lines/extension-state.js';
export { CapabilityRootRecord, capabilityRootRecord, capabilityRootsFromRecord } from './lines/capability-root-record.js';
export type { RecordedCapabilityRoots } from './lines/capability-root-record.js';
export { TokenUsage, TokenUsageRecord } from './lines/token-usage-record.js';
export { TokenCountInfo, TokenCountUsage } from './lines/token-count.js';
export { ResponseItemLineMetadata } from './lines/response-item-line-metadata.js';
export {
  CompactedItem,
  EventMsgItem,
  ExtensionStateItem,
  InterAgentCommunicationItem,
  InterAgentCommunicationMetadataItem,
  KNOWN_ROLLOUT_LINE_TYPES,
  KnownRolloutItem,
  OtherRolloutItem,
  RealtimeItemItem,
  ResponseItemItem,
  RolloutItem,
  RolloutLineEnvelope,
  SessionMetaItem,
  TokenUsageRecordItem,
  TurnContextItem,
  WorldStateItem,
  isKnownRolloutItem,
  isKnownRolloutLineType,
  parseRolloutLine,
  rolloutItemProblem,
  serializeRolloutLine,
} from './lines/rollout-line.js';
export type { KnownRolloutLine, KnownRolloutLineType, RolloutLine, RolloutLineParse } from './lines/rollout-line.js';

export {
  EXTENDED_PERSISTED_EVENTS,
  LIMITED_PERSISTED_EVENTS,
  PERSISTED_EXEC_OUTPUT_MAX_BYTES,
  UNPERSISTED_RESPONSE_ITEM_TYPES,
  isPersistedRolloutItem,
  sanitizeForPersistence,
  shouldPersistEventMsg,
  truncateMiddle,
} from './persistence-policy.js';
export type { EventPersistenceMode } from './persistence-policy.js';

export { isUserTurnBoundary, userMessageText } from './user-turn.js';
export type { ContextFragmentOptions } from './user-turn.js';

export {
  ARCHIVED_SESSIONS_DIR,
  SESSIONS_DIR,
  archivedRolloutPath,
  liveRolloutDir,
  liveRolloutPath,
  parseRolloutFileName,
  requireRolloutFileName,
  rolloutFileName,
} from './rollout-path.js';
export type { RolloutFileName } from './rollout-path.js';

export { DEFAULT_MAX_LINE_BYTES, READ_CHUNK_BYTES } from './read/line-scanner.js';
export { readRolloutFile, scanRolloutFile } from './read/rollout-reader.js';
export type {
  InvalidRolloutLineRecord,
  LinePosition,
  RolloutFile,
  RolloutLineRecord,
  RolloutReadOptions,
  RolloutRecord,
  RolloutScanSummary,
} from './read/rollout-reader.js';
export type { RolloutProblem, RolloutProblemKind } from './read/rollout-problem.js';
export { TAIL_CHUNK_BYTES, readRolloutHead, readRolloutTail } from './read/tail-reader.js';
export type { RolloutTail, TailReadOptions } from './read/tail-reader.js';

export { ThreadReconstructor, dropLastUserTurns } from './reconstruct/thread-reconstructor.js';
export type { ExtensionStateEntry, ThreadReconstruction, TurnRecord, TurnStatus, WorldStateSection } from './reconstruct/thread-reconstructor.js';
export { MAX_HISTORY_BASE_DEPTH, forEachThreadLine, loadThread } from './reconstruct/load-thread.js';
export type { LoadThreadOptions, LoadedThread, ThreadPathResolver, ThreadReplay } from './reconstruct/load-thread.js';
export { resumeRollout } from './reconstruct/resume-rollout.js';
export type { ResumeRolloutOptions, ResumedRollout } from './reconstruct/resume-rollout.js';

export { MAX_QUEUED_BYTES, RolloutWriter } from './write/rollout-writer.js';
export type { CreateRolloutOptions, Durability, NewSessionMeta, ResumePoint, RolloutWriterOptions } from './write/rollout-writer.js';
export { WRITER_LOCKS_DIR, acquireWriterLock, currentProcessLockOwner, isWriterLockHeld, writerLockPath } from './write/writer-lock.js';
export type { LockOwner, WriterLock } from './write/writer-lock.js';

export { forkLines, forkRollout } from './fork.js';
export type { ForkLinesOptions, ForkPoint, ForkRolloutOptions, ForkedRollout } from './fork.js';
export { searchableMessageText } from './thread-index/thread-message-reader.js';
export { readImportedRollout } from './transfer/imported-rollout.js';
export type { ImportedRollout } from './transfer/imported-rollout.js';
export { RolloutLineEncoder } from './write/line-encoder.js';
export type { EncodedLines, LineEncoderOptions } from './write/line-encoder.js';

export { MAX_TITLE_CHARS, TITLE_SCAN_MAX_LINES, ThreadSummary, summarizeRolloutFile, summaryFromMeta } from './thread-index/thread-summary.js';
export type { FileThreadSummary } from './thread-index/thread-summary.js';
export { decodeThreadCursor, encodeThreadCursor } from './thread-index/thread-cursor.js';
export type { ThreadCursor, ThreadSortKey } from './thread-index/thread-cursor.js';
export {
  BUSY_TIMEOUT_MS,
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  THREAD_INDEX_FILE,
  THREAD_INDEX_SCHEMA_VERSION,
  ThreadIndex,
} from './thread-index/thread-index.js';
export type { IndexedFileState, ThreadListQuery, ThreadPage, ThreadSearchHit, ThreadSearchPage, ThreadSearchQuery } from './thread-index/thread-index.js';
export type { CheckpointResult } from './thread-index/wal-checkpoints.js';
export { FILE_SCAN_CONCURRENCY, findThreadFile, listThreadFiles } from './thread-index/thread-files.js';
export type { ThreadFile } from './thread-index/thread-files.js';

export { FileThreadStore } from './file-thread-store.js';
export { MESSAGE_READ_BATCH } from './thread-index/read-new-messages.js';
export { SUMMARY_CONCURRENCY } from './thread-index/reconcile-index.js';
export { GIT_COMMAND_TIMEOUT_MS, collectGitInfo } from './git-info.js';
export type { CollectGitInfoOptions } from './git-info.js';
export type { FileThreadStoreOptions } from './file-thread-store.js';
export type { IndexRepair } from './thread-index/reconcile-index.js';
export type { CreateThreadOptions, ForkThreadOptions, ResumedThread, ThreadSearchOptions, ThreadStore, ThreadWriter } from './thread-store.js';
export { INITIAL_READ_REVISION, INITIAL_READ_STATE, markedReadRow, ReadReceipts, readStateOf } from './thread-index/read-receipts.js';
export { MAX_QUEUED_SUBMISSIONS, QueuedSubmissionError, QueuedSubmissions } from './thread-index/queued-submissions.js';
export type { QueuedSubmission, QueuedSubmissionStore } from './thread-index/queued-submissions.js';
export { NO_THREAD_METADATA, patchThreadMetadata, ThreadMetadata } from './thread-index/thread-metadata.js';
export { PINNED_SECTION_ID, PINNED_SECTION_NAME, SECTION_POSITION_STEP, ThreadSectionError, ThreadSections } from './thread-index/thread-sections.js';
export type { ThreadSection, ThreadSectionAppearance, ThreadSectionMembership, ThreadSectionMove, ThreadSectionStore } from './thread-index/thread-sections.js';
export { ThreadAttachments } from './thread-index/thread-attachments.js';
export type { ThreadAttachment, ThreadAttachmentAdd, ThreadAttachmentKey, ThreadAttachmentStore } from './thread-index/thread-attachments.js';
export type { StoredThreadMetadata, ThreadGitFacts, ThreadMetadataPatch, ThreadMetadataStore } from './thread-index/thread-metadata.js';
export type { ReadReceiptRow, ReadReceiptStore, ReadState, ReadStateUpdate, UnreadPosition } from './thread-index/read-receipts.js';
