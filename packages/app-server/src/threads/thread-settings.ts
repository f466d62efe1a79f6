// A loaded thread's settings for its later turns, as `turn/start` overrides and
// `thread/settings/update` change them, and the `ThreadSettings` object that reports them.
import type { Config, LoadedConfig } from '@skein/config';
import type { SelectedEnvironment } from '@skein/core';
import type { SandboxMode, SandboxPolicy } from '@skein/protocol';
import type { LiveThread } from './live-thread.js';
import { threadConfigOverrides, tomlValue, type ThreadSettingsParams } from './thread-config-overrides.js';
import type { WireObject } from '@skein/core';
import { activePermissionProfile, approvalPolicyObject, primaryWorkspaceRoots, sandboxPolicyObject, threadEnvironmentEntry } from './thread-object.js';
import { defaultWorkspaceRoots } from '@skein/sandboxing';

/** What the server offers for loading a thread's config. */
export interface ThreadConfigLoader {
  loadConfig(cwd: string, overrides: readonly string[]): Promise<LoadedConfig>;
}

/** A change to a thread's settings: the named settings, and an absolute cwd. */
export interface ThreadSettingsChange extends Pick<ThreadSettingsParams, 'model' | 'approvalPolicy' | 'sandbox' | 'effort' | 'summary' | 'developerInstructions'> {
  readonly cwd?: string | undefined;
}

/**
 * The `-c` overrides a thread's config was loaded with (its `sessionFlags` layer, which holds the
 * thread's settings from `thread/start` on), so a change layers over them rather than over the
 * config file alone.
 */
export function sessionOverrides(config: Config): string[] {
  const layer = config.layers.find((candidate) => candidate.name.type === 'sessionFlags');
  if (layer === undefined) return [];
  return Object.entries(layer.table).flatMap(([key, value]) => (value === null || value === undefined ? [] : [`${key}=${tomlValue(value)}`]));
}

/**
 * The config the thread's next turn runs with after `change`, built on the settings it has (or
 * will have once its turn ends); undefined when the change changes nothing.
 */
export async function nextTurnConfig(server: ThreadConfigLoader, thread: LiveThread, change: ThreadSettingsChange): Promise<Config | undefined> {
  const current = thread.nextConfig;
  const overrides = threadConfigOverrides(change);
  if (overrides.length === 0 && (change.cwd === undefined || change.cwd === current.cwd)) return undefined;
  return (await server.loadConfig(change.cwd ?? current.cwd, [...sessionOverrides(current), ...overrides])).config;
}

/** The `sandbox_mode` a v2 sandbox policy stands for. */
export function sandboxModeOf(policy: SandboxPolicy | null | undefined): SandboxMode | undefined {
  switch (policy?.type) {
    case undefined:
      return undefined;
    case 'dangerFullAccess':
    case 'externalSandbox':
      return 'danger-full-access';
    case 'readOnly':
      return 'read-only';
    case 'workspaceWrite':
      return 'workspace-write';
  }
}

/** The environment entries a thread reports: those just selected, else those it has. */
export function environmentEntries(thread: LiveThread, selected: readonly SelectedEnvironment[] | undefined): WireObject[] {
  const config = thread.nextConfig;
  if (selected !== undefined) {
    return selected.map((environment) => {
      const cwd = environment.cwd ?? config.cwd;
      return threadEnvironmentEntry(environment.id ?? 'local', cwd, environment.workspaceRoots ?? defaultWorkspaceRoots(config, cwd));
    });
  }
  return thread.handle.environmentIds.map((environmentId) => threadEnvironmentEntry(environmentId, thread.handle.environmentCwd(environmentId), thread.handle.environmentWorkspaceRoots(environmentId)));
}

/** Codex's `ThreadSettings`: what the thread's next turn runs with. */
export function threadSettingsObject(thread: LiveThread, config: Config, environments: readonly WireObject[]): WireObject {
  const effort = config.modelReasoningEffort ?? null;
  return {
    cwd: config.cwd,
    environments,
    approvalPolicy: approvalPolicyObject(config),
    approvalsReviewer: 'user',
    sandboxPolicy: sandboxPolicyObject(config, primaryWorkspaceRoots(config, environments)),
    activePermissionProfile: activePermissionProfile(config, thread.permissionProfile),
    model: config.model,
    modelProvider: config.modelProviderId,
    serviceTier: thread.serviceTier,
    effort,
    summary: config.modelReasoningSummary ?? null,
    collaborationMode: { mode: 'default', settings: { model: config.model, reasoning_effort: effort, developer_instructions: null } },
    multiAgentMode: thread.handle.multiAgentMode,
    personality: thread.personality,
    disabledPluginIds: [...thread.disabledPluginIds],
  };
}
