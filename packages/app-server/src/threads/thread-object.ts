// The `Thread` object clients get from thread/start, resume, fork, list and read, with every field
// Codex 0.171.0 sends (unset ones null), and its sandbox policy in the v2 wire form.
import type { Config } from '@skein/config';
import type { MultiAgentMode } from '@skein/core';
import { defaultWorkspaceRoots, legacyWorkspacePolicy, sandboxPolicyFromConfig } from '@skein/sandboxing';
import type { WireObject } from '@skein/core';

/** What a Thread object says. Times are milliseconds since the epoch (sent as seconds). */
export interface ThreadFacts {
  readonly id: string;
  readonly sessionId: string;
  readonly forkedFromId: string | null;
  readonly parentThreadId: string | null;
  readonly preview: string;
  readonly ephemeral: boolean;
  readonly modelProvider: string;
  readonly model: string | null;
  readonly reasoningEffort: string | null;
  readonly createdAtMs: number;
  readonly updatedAtMs: number;
  readonly status: WireObject;
  readonly path: string | null;
  readonly cwd: string;
  readonly cliVersion: string;
  readonly originator: string | null;
  readonly source: unknown;
  readonly threadSource: string | null;
  readonly name: string | null;
  /** The environments of a loaded thread; null for one that is not loaded. */
  readonly environments: readonly WireObject[] | null;
  readonly turns: readonly WireObject[];
}

const seconds = (ms: number): number => Math.floor(ms / 1000);

/** The wire object. */
export function threadObject(facts: ThreadFacts): WireObject {
  return {
    id: facts.id,
    environments: facts.environments,
    extra: null,
    sessionId: facts.sessionId,
    forkedFromId: facts.forkedFromId,
    attachedToThreadId: null,
    parentThreadId: facts.parentThreadId,
    preview: facts.preview,
    ephemeral: facts.ephemeral,
    section: null,
    sectionEnteredAt: null,
    projectId: null,
    historyMode: 'paginated',
    modelProvider: facts.modelProvider,
    model: facts.model,
    reasoningEffort: facts.reasoningEffort,
    createdAt: seconds(facts.createdAtMs),
    updatedAt: seconds(facts.updatedAtMs),
    recencyAt: seconds(facts.updatedAtMs),
    status: facts.status,
    path: facts.path,
    cwd: facts.cwd,
    cliVersion: facts.cliVersion,
    originator: facts.originator,
    source: facts.source,
    canAcceptDirectInput: facts.environments === null ? null : true,
    threadSource: facts.threadSource,
    agentNickname: null,
    agentRole: null,
    gitInfo: null,
    name: facts.name,
    daybreakEnabled: null,
    turns: facts.turns,
  };
}

/** The environment entry of a loaded thread: where it runs, in which directory, over which workspace roots. */
export function threadEnvironmentEntry(environmentId: string, cwd: string, runtimeWorkspaceRoots: readonly string[]): WireObject {
  return { environmentId, cwd, runtimeWorkspaceRoots: [...runtimeWorkspaceRoots] };
}

/** The workspace roots of the primary of `environments` (entries as above); the defaults for `config` without one. */
export function primaryWorkspaceRoots(config: Config, environments: readonly WireObject[]): readonly string[] {
  const roots = environments[0]?.['runtimeWorkspaceRoots'];
  return Array.isArray(roots) ? (roots as string[]) : defaultWorkspaceRoots(config, config.cwd);
}

/**
 * The thread's sandbox as the v2 wire reports it over `roots`: the legacy policy that stands for it
 * (a cwd left out of the roots lists every writable place; `$TMPDIR` is this server's).
 */
export function sandboxPolicyObject(config: Config, roots: readonly string[] = defaultWorkspaceRoots(config, config.cwd)): WireObject {
  const policy = legacyWorkspacePolicy(sandboxPolicyFromConfig(config), config.cwd, roots, process.env);
  switch (policy.type) {
    case 'danger-full-access':
    case 'external-sandbox':
      return { type: 'dangerFullAccess' };
    case 'read-only':
      return { type: 'readOnly', networkAccess: false };
    case 'workspace-write':
      return {
        type: 'workspaceWrite',
        writableRoots: [...(policy.writable_roots ?? [])],
        networkAccess: policy.network_access,
        excludeTmpdirEnvVar: policy.exclude_tmpdir_env_var,
        excludeSlashTmp: policy.exclude_slash_tmp,
      };
  }
}

/**
 * The built-in permission profile a thread runs under, as Codex names it: only when no layer (nor
 * the client's `sandbox`) chose a sandbox mode; Skein's default is read-only, trusted project or not.
 */
export function permissionProfileOf(config: Config): WireObject | null {
  const chosen = config.layers.some((layer) => Object.hasOwn(layer.table, 'sandbox_mode'));
  return chosen ? null : { id: ':read-only', extends: null };
}

/** The thread's `activePermissionProfile`: the profile a client chose by id, else the one config stands for. */
export function activePermissionProfile(config: Config, chosen: string | null): WireObject | null {
  return chosen === null ? permissionProfileOf(config) : { id: chosen, extends: null };
}

/** The thread's approval policy on the v2 wire (`on-failure`, which v2 does not have, is `on-request`). */
export function approvalPolicyObject(config: Config): unknown {
  return config.approvalPolicy === 'on-failure' ? 'on-request' : config.approvalPolicy;
}

/** The settings part of the thread/start, resume and fork responses. */
export function threadSettingsObject(
  config: Config,
  thread: WireObject,
  facts: { readonly serviceTier: string | null; readonly instructionSources: readonly string[]; readonly permissionProfile: string | null; readonly multiAgentMode: MultiAgentMode },
): WireObject {
  const roots = primaryWorkspaceRoots(config, Array.isArray(thread['environments']) ? (thread['environments'] as WireObject[]) : []);
  return {
    thread,
    model: config.model,
    modelProvider: config.modelProviderId,
    serviceTier: facts.serviceTier,
    disabledPluginIds: [],
    cwd: config.cwd,
    runtimeWorkspaceRoots: [...roots],
    instructionSources: facts.instructionSources,
    approvalPolicy: approvalPolicyObject(config),
    approvalsReviewer: 'user',
    sandbox: sandboxPolicyObject(config, roots),
    activePermissionProfile: activePermissionProfile(config, facts.permissionProfile),
    reasoningEffort: config.modelReasoningEffort ?? null,
    multiAgentMode: facts.multiAgentMode,
  };
}
