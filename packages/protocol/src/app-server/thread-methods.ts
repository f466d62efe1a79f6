// Params of the thread and turn methods beyond `thread/start` and `turn/start`: resume, fork, list,
// read, archive, naming, subscriptions, user shell commands, steering and interrupts.
import * as z from 'zod';
import { UserInput } from '../user-input.js';
import { threadSettingsParams } from './thread.js';
import { lazySchema } from '../lazy-schema.js';

/** Settings a client may change when it loads a thread again (unset: config, as for a new thread). */
const reloadSettings = lazySchema(() => ({
  ...threadSettingsParams,
  excludeTurns: z.boolean().optional(),
  /** The workspace roots of the primary environment from here on (absolute paths). */
  runtimeWorkspaceRoots: z.array(z.string()).nullish(),
}));

/** A page of turns a resume response carries, so a client need not ask `thread/turns/list` next. */
export const InitialTurnsPageParams = lazySchema(() => z.object({
  limit: z.number().int().nonnegative().nullish(),
  itemsView: z.enum(['notLoaded', 'summary', 'full']).nullish(),
  sortDirection: z.enum(['asc', 'desc']).nullish(),
}));
export type InitialTurnsPageParams = z.infer<typeof InitialTurnsPageParams>;

export const ThreadResumeParams = lazySchema(() => z.object({ threadId: z.string(), ...reloadSettings, initialTurnsPage: InitialTurnsPageParams.nullish() }));
export type ThreadResumeParams = z.infer<typeof ThreadResumeParams>;

export const ThreadForkParams = lazySchema(() => z.object({
  threadId: z.string(),
  ...reloadSettings,
  ephemeral: z.boolean().optional(),
  /** Fork up to (and without) this turn. */
  beforeTurnId: z.string().nullish(),
  /** Fork up to and with this turn. */
  lastTurnId: z.string().nullish(),
  threadSource: z.string().nullish(),
  /**
   * Skein's own: start the fork in a new git worktree holding the files as the source thread's
   * checkpoints recorded them at the fork point (`path`: where; default under `$CODEX_HOME/worktrees`).
   */
  worktree: z.object({ path: z.string().min(1).nullish() }).nullish(),
}));
export type ThreadForkParams = z.infer<typeof ThreadForkParams>;

export const ThreadListParams = lazySchema(() => z.object({
  cursor: z.string().nullish(),
  limit: z.number().int().positive().nullish(),
  archived: z.boolean().nullish(),
  cwd: z.union([z.string(), z.array(z.string())]).nullish(),
  /**
   * Codex's `ThreadSortKey`. `recency_at` orders by the thread's `recencyAt` (Skein's is its last
   * update); `section_position` orders within a section, so it needs `sectionId`.
   */
  sortKey: z.enum(['created_at', 'updated_at', 'recency_at', 'section_position']).nullish(),
  /** A section's threads; `null`: threads in no section. */
  sectionId: z.string().nullish(),
  sourceKinds: z.array(z.string()).nullish(),
  modelProviders: z.array(z.string()).nullish(),
}));
export type ThreadListParams = z.infer<typeof ThreadListParams>;

export const ThreadReadParams = lazySchema(() => z.object({ threadId: z.string(), includeTurns: z.boolean().default(false) }));
export type ThreadReadParams = z.infer<typeof ThreadReadParams>;

export const ThreadLoadedListParams = lazySchema(() => z.object({ cursor: z.string().nullish(), limit: z.number().int().positive().nullish() }));
export type ThreadLoadedListParams = z.infer<typeof ThreadLoadedListParams>;

/** `thread/archive`, `thread/unarchive`, `thread/unsubscribe`: just the thread. */
export const ThreadIdParams = lazySchema(() => z.object({ threadId: z.string() }));
export type ThreadIdParams = z.infer<typeof ThreadIdParams>;

export const ThreadSetNameParams = lazySchema(() => z.object({ threadId: z.string(), name: z.string() }));
export type ThreadSetNameParams = z.infer<typeof ThreadSetNameParams>;

/** `thread/inject_items`: raw Responses API items for a loaded thread's model-visible history (each item is checked by the method, which names the one it refuses). */
export const ThreadInjectItemsParams = lazySchema(() => z.object({ threadId: z.string(), items: z.array(z.unknown()) }));
export type ThreadInjectItemsParams = z.infer<typeof ThreadInjectItemsParams>;

export const ThreadShellCommandParams = lazySchema(() => z.object({ threadId: z.string(), command: z.string(), timeoutMs: z.number().int().nonnegative().nullish() }));
export type ThreadShellCommandParams = z.infer<typeof ThreadShellCommandParams>;

export const TurnSteerParams = lazySchema(() => z.object({
  threadId: z.string(),
  expectedTurnId: z.string(),
  input: z.array(UserInput),
  clientUserMessageId: z.string().nullish(),
}));
export type TurnSteerParams = z.infer<typeof TurnSteerParams>;

export const TurnInterruptParams = lazySchema(() => z.object({ threadId: z.string(), turnId: z.string() }));
export type TurnInterruptParams = z.infer<typeof TurnInterruptParams>;

/** The answer to `item/commandExecution/requestApproval`. */
export const CommandExecutionApprovalResponse = lazySchema(() => z.object({
  decision: z.union([
    z.enum(['accept', 'acceptForSession', 'decline', 'cancel']),
    z.strictObject({ acceptWithExecpolicyAmendment: z.object({ execpolicy_amendment: z.array(z.string()) }) }),
    z.strictObject({ applyNetworkPolicyAmendment: z.object({ network_policy_amendment: z.unknown() }) }),
  ]),
}));
export type CommandExecutionApprovalResponse = z.infer<typeof CommandExecutionApprovalResponse>;

/** The answer to `item/fileChange/requestApproval`. */
export const FileChangeApprovalResponse = lazySchema(() => z.object({ decision: z.enum(['accept', 'acceptForSession', 'decline', 'cancel']) }));
export type FileChangeApprovalResponse = z.infer<typeof FileChangeApprovalResponse>;

/** The answer to `item/tool/requestUserInput`. */
export const ToolRequestUserInputResponse = lazySchema(() => z.object({ answers: z.record(z.string(), z.object({ answers: z.array(z.string()) })) }));
export type ToolRequestUserInputResponse = z.infer<typeof ToolRequestUserInputResponse>;

/**
 * `thread/revert`: drops `beforeTurnId` and every later turn from the thread's history. Skein's own
 * fields: `restoreFiles` (default true) also puts back the files those turns changed where
 * checkpoints exist; `force` overwrites files changed since the turn that wrote them.
 */
export const ThreadRevertParams = lazySchema(() =>
  z.object({ threadId: z.string(), beforeTurnId: z.string(), restoreFiles: z.boolean().nullish(), force: z.boolean().nullish() }),
);
export type ThreadRevertParams = z.infer<typeof ThreadRevertParams>;
