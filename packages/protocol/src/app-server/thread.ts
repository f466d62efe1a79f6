// Threads: `thread/start` and the `Thread` object the server reports.
import * as z from 'zod';
import { SelectedCapabilityRoot } from './capability-root.js';
import {
  ApprovalsReviewer,
  AskForApproval,
  MultiAgentMode,
  ReasoningEffort,
  SandboxMode,
  SandboxPolicy,
  SessionSource,
  ThreadHistoryMode,
} from './common.js';
import { Turn } from './turn.js';
import { lazySchema } from '../lazy-schema.js';

/** A thread is idle, running (with flags while it waits on the client), unloaded, or broken. */
export const ThreadStatus = lazySchema(() => z.discriminatedUnion('type', [
  z.object({ type: z.literal('notLoaded') }),
  z.object({ type: z.literal('idle') }),
  z.object({ type: z.literal('systemError') }),
  z.object({ type: z.literal('active'), activeFlags: z.array(z.enum(['waitingOnApproval', 'waitingOnUserInput'])) }),
]));
export type ThreadStatus = z.infer<typeof ThreadStatus>;

export const Thread = lazySchema(() => z.object({
  id: z.string(),
  /** The root thread of a tree of threads (equal to `id` for a root). */
  sessionId: z.string(),
  forkedFromId: z.string().nullish(),
  parentThreadId: z.string().nullish(),
  preview: z.string(),
  ephemeral: z.boolean(),
  projectId: z.string().nullable(),
  modelProvider: z.string(),
  model: z.string().nullish(),
  reasoningEffort: ReasoningEffort.nullish(),
  /** Unix seconds. */
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  status: ThreadStatus,
  /** The rollout file, when the thread is persisted. */
  path: z.string().nullish(),
  cwd: z.string(),
  cliVersion: z.string(),
  originator: z.string().nullish(),
  source: SessionSource,
  threadSource: z.string().nullish(),
  name: z.string().nullish(),
  historyMode: ThreadHistoryMode.default('legacy'),
  turns: z.array(Turn),
}));
export type Thread = z.infer<typeof Thread>;

/** The settings a client may give a thread it starts, resumes or forks; unset ones come from config. */
export const threadSettingsParams = lazySchema(() => ({
  cwd: z.string().nullish(),
  model: z.string().nullish(),
  modelProvider: z.string().nullish(),
  approvalPolicy: AskForApproval.nullish(),
  approvalsReviewer: ApprovalsReviewer.nullish(),
  sandbox: SandboxMode.nullish(),
  /** A permission profile by id (`:read-only`, `:workspace`, `:danger-full-access`); not with `sandbox`. */
  permissions: z.string().nullish(),
  /** `-c`-style config overrides: dotted keys to values. */
  config: z.record(z.string(), z.unknown()).nullish(),
  baseInstructions: z.string().nullish(),
  developerInstructions: z.string().nullish(),
  /** The Responses service tier (`priority`, `flex`, `default`, …) of this and later turns. */
  serviceTier: z.string().nullish(),
}));

/** `thread/start`: every field optional; unset fields come from config. */
export const ThreadStartParams = lazySchema(() => z.object({
  ...threadSettingsParams,
  ephemeral: z.boolean().nullish(),
  historyMode: ThreadHistoryMode.nullish(),
  multiAgentMode: MultiAgentMode.nullish(),
  threadSource: z.string().nullish(),
  runtimeWorkspaceRoots: z.array(z.string()).nullish(),
  /** Experimental: the environments the thread may act on; an empty list gives it none. */
  environments: z.array(z.object({ environmentId: z.string(), cwd: z.string(), runtimeWorkspaceRoots: z.array(z.string()).nullish() })).nullish(),
  /** Experimental: capability (skill) roots the thread may load from. */
  selectedCapabilityRoots: z.array(SelectedCapabilityRoot).nullish(),
}));
export type ThreadStartParams = z.infer<typeof ThreadStartParams>;

export const ThreadStartResponse = lazySchema(() => z.object({
  thread: Thread,
  model: z.string(),
  modelProvider: z.string(),
  cwd: z.string(),
  runtimeWorkspaceRoots: z.array(z.string()).default([]),
  instructionSources: z.array(z.string()).default([]),
  approvalPolicy: AskForApproval,
  approvalsReviewer: ApprovalsReviewer,
  sandbox: SandboxPolicy,
  reasoningEffort: ReasoningEffort.nullish(),
  multiAgentMode: MultiAgentMode.default('explicitRequestOnly'),
  serviceTier: z.string().nullish(),
}));
export type ThreadStartResponse = z.infer<typeof ThreadStartResponse>;
