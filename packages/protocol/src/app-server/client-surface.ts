// Params of the methods Codex's TUI and IDE clients call beside the thread basics: `hooks/list`,
// `collaborationMode/list`, `thread/readState/update`, `thread/turns/list`, background terminals,
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
