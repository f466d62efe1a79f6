// Small shared shapes of the app-server v2 protocol: sandbox and approval settings, effort, sources.
import * as z from 'zod';
import { lazySchema } from '../lazy-schema.js';

/** The sandbox mode a client asks for on `thread/start` (the config file's `sandbox_mode` values). */
export const SandboxMode = lazySchema(() => z.enum(['read-only', 'workspace-write', 'danger-full-access']));
export type SandboxMode = z.infer<typeof SandboxMode>;

/** The effective sandbox policy, as the server reports it (camelCase tags on the v2 wire). */
export const SandboxPolicy = lazySchema(() => z.discriminatedUnion('type', [
  z.object({ type: z.literal('dangerFullAccess') }),
  z.object({ type: z.literal('readOnly'), networkAccess: z.boolean().default(false) }),
  z.object({ type: z.literal('externalSandbox'), networkAccess: z.enum(['restricted', 'enabled']).default('restricted') }),
  z.object({
    type: z.literal('workspaceWrite'),
    writableRoots: z.array(z.string()).default([]),
    networkAccess: z.boolean().default(false),
    excludeTmpdirEnvVar: z.boolean().default(false),
    excludeSlashTmp: z.boolean().default(false),
  }),
]));
export type SandboxPolicy = z.infer<typeof SandboxPolicy>;

/** When the agent must ask before acting: a named policy or the granular form. */
export const AskForApproval = lazySchema(() => z.union([
  z.enum(['untrusted', 'on-request', 'never']),
  z.strictObject({
    granular: z.object({
      sandbox_approval: z.boolean(),
      rules: z.boolean(),
      mcp_elicitations: z.boolean(),
      request_permissions: z.boolean().default(false),
      skill_approval: z.boolean().default(false),
    }),
  }),
]));
export type AskForApproval = z.infer<typeof AskForApproval>;

/** Who answers approval requests. */
export const ApprovalsReviewer = lazySchema(() => z.enum(['user', 'auto_review', 'guardian_subagent']));
export type ApprovalsReviewer = z.infer<typeof ApprovalsReviewer>;

/** Reasoning effort (`low`, `medium`, `high`, `xhigh`, …); model families add their own levels. */
export const ReasoningEffort = lazySchema(() => z.string().min(1));
export type ReasoningEffort = z.infer<typeof ReasoningEffort>;

/** How much reasoning summary the model should produce. */
export const ReasoningSummary = lazySchema(() => z.enum(['auto', 'concise', 'detailed', 'none']));
export type ReasoningSummary = z.infer<typeof ReasoningSummary>;

/** Whether the agent may start sub-agents on its own. */
export const MultiAgentMode = lazySchema(() => z.union([
  z.enum(['explicitRequestOnly', 'proactive']),
  z.strictObject({ custom: z.string() }),
]));
export type MultiAgentMode = z.infer<typeof MultiAgentMode>;

/** How a thread's turns are served to clients. */
export const ThreadHistoryMode = lazySchema(() => z.enum(['legacy', 'paginated']));
export type ThreadHistoryMode = z.infer<typeof ThreadHistoryMode>;

/** Which kind of client created a session. Sub-agent sources are carried through as opaque JSON. */
export const SessionSource = lazySchema(() => z.union([
  z.enum(['cli', 'vscode', 'exec', 'appServer', 'unknown']),
  z.strictObject({ custom: z.string() }),
  z.strictObject({ subAgent: z.unknown() }),
]));
export type SessionSource = z.infer<typeof SessionSource>;

/** The client's name and version, sent on `initialize`; the name becomes the `originator`. */
export const ClientInfo = lazySchema(() => z.object({ name: z.string(), title: z.string().nullish(), version: z.string() }));
export type ClientInfo = z.infer<typeof ClientInfo>;
