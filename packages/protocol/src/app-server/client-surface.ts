// Params of the methods Codex's TUI and IDE clients call beside the thread basics: `hooks/list`,
// `collaborationMode/list`, `thread/readState/update`, `thread/turns/list`, `thread/items/read`,
// `thread/timeline/list`, `server/diagnostics`, `turn/settings/update`, `feedback/save`, background terminals,
// `plugin/installed` and the Bedrock GovCloud check.
import * as z from 'zod';
import { lazySchema } from '../lazy-schema.js';

/** `hooks/list`: a loaded thread's hooks, or those a thread in each directory would run. */
export const HooksListParams = lazySchema(() => z.object({
  /** Directories to inspect when no thread is named; empty or absent: the server's working directory. */
  cwds: z.array(z.string()).optional(),
  threadId: z.string().nullish(),
}));
export type HooksListParams = z.infer<typeof HooksListParams>;

/** `collaborationMode/list` takes nothing (extra fields are ignored, as Codex ignores them). */
export const CollaborationModeListParams = lazySchema(() => z.object({}).nullish());
export type CollaborationModeListParams = z.infer<typeof CollaborationModeListParams>;

/** Marks a thread read, or unread from its start. */
export const ThreadReadStateOperation = lazySchema(() => z.discriminatedUnion('type', [z.object({ type: z.literal('read') }), z.object({ type: z.literal('unread') })]));
export type ThreadReadStateOperation = z.infer<typeof ThreadReadStateOperation>;

/** `thread/readState/update`: applies only when `expectedRevision` is the revision the caller saw. */
export const ThreadReadStateUpdateParams = lazySchema(() => z.object({
  threadId: z.string(),
  expectedRevision: z.string(),
  operation: ThreadReadStateOperation,
}));
export type ThreadReadStateUpdateParams = z.infer<typeof ThreadReadStateUpdateParams>;

/** `thread/turns/list`: one page of a thread's turns. */
export const ThreadTurnsListParams = lazySchema(() => z.object({
  threadId: z.string(),
  cursor: z.string().nullish(),
  limit: z.number().int().nonnegative().nullish(),
  itemsView: z.enum(['notLoaded', 'summary', 'full']).nullish(),
  sortDirection: z.enum(['asc', 'desc']).nullish(),
}));
export type ThreadTurnsListParams = z.infer<typeof ThreadTurnsListParams>;

/** `thread/items/list`: one page of a thread's items; the cursor is ours, or an item to continue after. */
export const ThreadItemsListParams = lazySchema(() => z.object({
  threadId: z.string(),
  turnId: z.string().nullish(),
  cursor: z.union([z.string(), z.object({ type: z.literal('item'), itemId: z.string() })]).nullish(),
  limit: z.number().int().nonnegative().nullish(),
  sortDirection: z.enum(['asc', 'desc']).nullish(),
  deferOutput: z.object({ commandExecution: z.boolean().optional(), mcpToolCall: z.boolean().optional() }).nullish(),
}));
export type ThreadItemsListParams = z.infer<typeof ThreadItemsListParams>;

/** `thread/backgroundTerminals/list`: one page of the commands a thread left running. */
export const ThreadBackgroundTerminalsListParams = lazySchema(() => z.object({
  threadId: z.string(),
  cursor: z.string().nullish(),
  limit: z.number().int().nonnegative().nullish(),
}));
export type ThreadBackgroundTerminalsListParams = z.infer<typeof ThreadBackgroundTerminalsListParams>;

/** `thread/backgroundTerminals/terminate`: ends one of them, by the process id the list gave. */
export const ThreadBackgroundTerminalsTerminateParams = lazySchema(() => z.object({ threadId: z.string(), processId: z.string() }));
export type ThreadBackgroundTerminalsTerminateParams = z.infer<typeof ThreadBackgroundTerminalsTerminateParams>;

/** `plugin/installed`: the installed plugins, by marketplace (working directories find repo marketplaces). */
export const PluginInstalledParams = lazySchema(() => z.object({
  cwds: z.array(z.string()).nullish(),
  installSuggestionPluginNames: z.array(z.string()).nullish(),
}));
export type PluginInstalledParams = z.infer<typeof PluginInstalledParams>;

/** `account/bedrock/checkGovCloudRequirements` takes nothing, but Codex wants the params member. */
export const BedrockCheckGovCloudRequirementsParams = lazySchema(() => z.object({}));
export type BedrockCheckGovCloudRequirementsParams = z.infer<typeof BedrockCheckGovCloudRequirementsParams>;

/** `thread/items/read`: some of one turn's recorded items, by id. */
export const ThreadItemsReadParams = lazySchema(() => z.object({
  threadId: z.string(),
  turnId: z.string(),
  itemIds: z.array(z.string()),
}));
export type ThreadItemsReadParams = z.infer<typeof ThreadItemsReadParams>;

/** `thread/timeline/list`: a thread's turn starts, items and turn ends in the order they were recorded, paged. */
export const ThreadTimelineListParams = lazySchema(() => z.object({
  threadId: z.string(),
  cursor: z.string().nullish(),
  limit: z.number().int().nonnegative().nullish(),
}));
export type ThreadTimelineListParams = z.infer<typeof ThreadTimelineListParams>;

/** `server/diagnostics` takes nothing. */
export const ServerDiagnosticsParams = lazySchema(() => z.object({}).nullish());
export type ServerDiagnosticsParams = z.infer<typeof ServerDiagnosticsParams>;

/** `turn/settings/update`: changes the running turn's model settings from its next step on. */
export const TurnSettingsUpdateParams = lazySchema(() => z.object({
  threadId: z.string(),
  turnId: z.string(),
  model: z.string().nullish(),
  effort: z.string().nullish(),
  summary: z.string().nullish(),
  serviceTier: z.string().nullish(),
  approvalsReviewer: z.string().nullish(),
  environments: z.array(z.unknown()).nullish(),
}));
export type TurnSettingsUpdateParams = z.infer<typeof TurnSettingsUpdateParams>;

/** `feedback/save`: writes a feedback report to `savePath` (Skein never uploads one). */
export const FeedbackSaveParams = lazySchema(() => z.object({
  classification: z.string(),
  savePath: z.string(),
  reason: z.string().nullish(),
  threadId: z.string().nullish(),
  includeLogs: z.boolean().optional(),
  extraLogFiles: z.array(z.string()).nullish(),
  tags: z.record(z.string(), z.string()).nullish(),
}));
export type FeedbackSaveParams = z.infer<typeof FeedbackSaveParams>;
