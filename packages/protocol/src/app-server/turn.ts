// Turns: `turn/start` and the `Turn` object the server reports.
import * as z from 'zod';
import { UserInput } from '../user-input.js';
import { ApprovalsReviewer, AskForApproval, MultiAgentMode, ReasoningEffort, ReasoningSummary, SandboxPolicy } from './common.js';
import { ThreadItem } from './thread-item.js';
import { lazySchema } from '../lazy-schema.js';

export const TurnStatus = lazySchema(() => z.enum(['completed', 'interrupted', 'failed', 'inProgress']));
export type TurnStatus = z.infer<typeof TurnStatus>;

/** Why a turn failed. `codexErrorInfo` classifies it for clients (usage limit, context window, …). */
export const TurnError = lazySchema(() => z.object({
  message: z.string(),
  codexErrorInfo: z.unknown().optional(),
  additionalDetails: z.string().nullish(),
}));
export type TurnError = z.infer<typeof TurnError>;

/** Whether `items` holds every item, a summary (the final message), or nothing yet. */
export const TurnItemsView = lazySchema(() => z.enum(['notLoaded', 'summary', 'full']));
export type TurnItemsView = z.infer<typeof TurnItemsView>;

export const Turn = lazySchema(() => z.object({
  id: z.string(),
  rootTurnId: z.string().nullish(),
  items: z.array(ThreadItem),
  itemsView: TurnItemsView.default('full'),
  status: TurnStatus,
  error: TurnError.nullish(),
  /** Unix seconds. */
  startedAt: z.number().int().nullish(),
  completedAt: z.number().int().nullish(),
  durationMs: z.number().int().nullish(),
}));
export type Turn = z.infer<typeof Turn>;

/** `turn/start`: user input plus per-turn overrides of the thread's settings. */
export const TurnStartParams = lazySchema(() => z.object({
  threadId: z.string(),
  input: z.array(UserInput),
  cwd: z.string().nullish(),
  model: z.string().nullish(),
  effort: ReasoningEffort.nullish(),
  summary: ReasoningSummary.nullish(),
  approvalPolicy: AskForApproval.nullish(),
  approvalsReviewer: ApprovalsReviewer.nullish(),
  sandboxPolicy: SandboxPolicy.nullish(),
  /** A built-in permission profile (`:read-only`, …) instead of a `sandboxPolicy`. */
  permissions: z.string().nullish(),
  multiAgentMode: MultiAgentMode.nullish(),
  serviceTier: z.string().nullish(),
  /** The service tier of this turn alone; the thread's stays as it is. */
  serviceTierForTurn: z.string().nullish(),
  /** A JSON Schema the final answer must follow. */
  outputSchema: z.unknown().optional(),
  clientUserMessageId: z.string().nullish(),
  /** Keys added to the turn's `x-codex-turn-metadata` (never over one Codex sets itself). */
  responsesapiClientMetadata: z.record(z.string(), z.string()).nullish(),
  /** The workspace roots of the primary environment for this and later turns (absolute paths). */
  runtimeWorkspaceRoots: z.array(z.string()).nullish(),
  /** Experimental: the environments this and later turns act on. */
  environments: z.array(z.object({ environmentId: z.string(), cwd: z.string(), runtimeWorkspaceRoots: z.array(z.string()).nullish() })).nullish(),
  /** Plugins (`<plugin>@<marketplace>`) whose skills this and later turns leave out; `[]` clears the list. */
  disabledPluginIds: z.array(z.string()).nullish(),
}));
export type TurnStartParams = z.infer<typeof TurnStartParams>;

export const TurnStartResponse = lazySchema(() => z.object({ turn: Turn }));
export type TurnStartResponse = z.infer<typeof TurnStartResponse>;
