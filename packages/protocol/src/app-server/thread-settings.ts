// `thread/settings/update` and `thread/metadata/update`: a loaded thread's settings for its later
// turns, and the metadata (Git facts, project) stored with a thread.
import * as z from 'zod';
import { ApprovalsReviewer, AskForApproval, MultiAgentMode, ReasoningEffort, ReasoningSummary, SandboxPolicy } from './common.js';
import { lazySchema } from '../lazy-schema.js';

/** A collaboration mode preset (`plan` or `default`) with its settings; snake_case as Codex spells them. */
export const CollaborationMode = lazySchema(() => z.object({
  mode: z.enum(['plan', 'default']),
  settings: z.object({
    model: z.string(),
    reasoning_effort: ReasoningEffort.nullish(),
    /** `null`: the mode's built-in instructions. */
    developer_instructions: z.string().nullish(),
  }),
}));
export type CollaborationMode = z.infer<typeof CollaborationMode>;

/** Codex's deprecated personality setting (saved and reported; it selects no style). */
export const Personality = lazySchema(() => z.enum(['none', 'friendly', 'pragmatic']));
export type Personality = z.infer<typeof Personality>;

/** An environment a thread's turns act on, and its working directory there. */
export const TurnEnvironmentParams = lazySchema(() => z.object({ environmentId: z.string(), cwd: z.string(), runtimeWorkspaceRoots: z.array(z.string()).nullish() }));
export type TurnEnvironmentParams = z.infer<typeof TurnEnvironmentParams>;

/** `thread/settings/update`: every field optional; an omitted or null one leaves that setting as it is. */
export const ThreadSettingsUpdateParams = lazySchema(() => z.object({
  threadId: z.string(),
  cwd: z.string().nullish(),
  model: z.string().nullish(),
  effort: ReasoningEffort.nullish(),
  summary: ReasoningSummary.nullish(),
  approvalPolicy: AskForApproval.nullish(),
  approvalsReviewer: ApprovalsReviewer.nullish(),
  sandboxPolicy: SandboxPolicy.nullish(),
  /** A permission profile id (`:read-only`, `:workspace`, `:danger-full-access`); not with `sandboxPolicy`. */
  permissions: z.string().nullish(),
  /** `null` clears the service tier; omitted leaves it. */
  serviceTier: z.string().nullish(),
  /** Deprecated and ignored, as in Codex. */
  multiAgentMode: MultiAgentMode.nullish(),
  personality: Personality.nullish(),
  /** Replaces the saved list; `[]` clears it. */
  disabledPluginIds: z.array(z.string()).nullish(),
  /** Experimental. */
  collaborationMode: CollaborationMode.nullish(),
  /** Experimental: the environments of later turns; `[]` gives them none. */
  environments: z.array(TurnEnvironmentParams).nullish(),
}));
export type ThreadSettingsUpdateParams = z.infer<typeof ThreadSettingsUpdateParams>;

/** What `thread/settings/updated` reports: the settings the thread's next turn runs with. */
export const ThreadSettings = lazySchema(() => z.object({
  cwd: z.string(),
  environments: z.array(z.object({ environmentId: z.string(), cwd: z.string(), runtimeWorkspaceRoots: z.array(z.string()) })).nullable(),
  approvalPolicy: AskForApproval,
  approvalsReviewer: ApprovalsReviewer,
  sandboxPolicy: SandboxPolicy,
  activePermissionProfile: z.object({ id: z.string(), extends: z.string().nullable() }).nullable(),
  model: z.string(),
  modelProvider: z.string(),
  serviceTier: z.string().nullable(),
  effort: ReasoningEffort.nullable(),
  summary: ReasoningSummary.nullable(),
  collaborationMode: CollaborationMode,
  multiAgentMode: MultiAgentMode,
  personality: Personality.nullable(),
  disabledPluginIds: z.array(z.string()),
}));
export type ThreadSettings = z.infer<typeof ThreadSettings>;

export const ThreadSettingsUpdatedNotification = lazySchema(() => z.object({ threadId: z.string(), threadSettings: ThreadSettings }));
export type ThreadSettingsUpdatedNotification = z.infer<typeof ThreadSettingsUpdatedNotification>;

/** A patch of a thread's Git facts: an omitted field is kept, `null` clears it, a string replaces it. */
export const ThreadMetadataGitInfoUpdateParams = lazySchema(() => z.object({
  sha: z.string().nullish(),
  branch: z.string().nullish(),
  originUrl: z.string().nullish(),
}));
export type ThreadMetadataGitInfoUpdateParams = z.infer<typeof ThreadMetadataGitInfoUpdateParams>;

/** `thread/metadata/update`: at least one of the optional fields must be given. */
export const ThreadMetadataUpdateParams = lazySchema(() => z.object({
  threadId: z.string(),
  gitInfo: ThreadMetadataGitInfoUpdateParams.nullish(),
  /** An existing project's id; empty clears it. */
  projectId: z.string().nullish(),
  /** The client's Daybreak choice for the thread. */
  daybreakEnabled: z.boolean().nullish(),
}));
export type ThreadMetadataUpdateParams = z.infer<typeof ThreadMetadataUpdateParams>;
