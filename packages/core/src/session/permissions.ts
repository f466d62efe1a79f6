// What the model is told about its permissions, derived from the thread's sandbox settings through
// @skein/sandboxing's policy mapping (the same one commands are confined with): the facts for
// `<permissions instructions>` and the entries of `<environment_context>`, in Codex's order.
import type { Config } from '@skein/config';
import type { CoreSandboxPolicy, FileSystemSandboxEntry } from '@skein/protocol';
import { networkPolicyOf, sandboxPolicyFromConfig, workspaceFileSystemPolicy } from '@skein/sandboxing';
import type { EnvironmentEntry, EnvironmentPermissionProfile } from '../context/environment-context.js';
import type { PermissionsFacts } from '../context/permissions-instructions.js';

/** The sandbox settings a thread runs with. */
export type SandboxSettings = Pick<Config, 'sandboxMode' | 'sandboxWorkspaceWrite' | 'approvalPolicy'>;

/** Both renderings of the thread's permissions. */
export interface ThreadPermissions {
  readonly facts: PermissionsFacts;
  readonly profile: EnvironmentPermissionProfile;
}

/** Derives the permission facts and the environment entries over the workspace `roots` from config. */
export function threadPermissions(settings: SandboxSettings, roots: readonly string[]): ThreadPermissions {
  const approvalPolicy = typeof settings.approvalPolicy === 'string' ? settings.approvalPolicy : 'granular';
  return permissionsForPolicy(sandboxPolicyFromConfig(settings), approvalPolicy, roots);
}

/**
 * The same for a recorded policy (a rollout's `turn_context`), to know what an earlier turn was told;
 * `roots` are that turn's workspace roots.
 */
export function permissionsForPolicy(policy: CoreSandboxPolicy, approvalPolicy: string, roots: readonly string[]): ThreadPermissions {
  const fileSystem = workspaceFileSystemPolicy(policy, roots);
  const writableRoots = [
    ...new Set(fileSystem.entries.flatMap((entry) => (entry.access === 'write' && entry.path.type === 'path' ? [entry.path.path] : []))),
  ];
  return {
    facts: {
      // An external sandbox is not ours to describe; the model is told it may act freely, as there.
      sandboxMode: policy.type === 'external-sandbox' ? 'danger-full-access' : policy.type,
      writableRoots,
      networkAccess: networkPolicyOf(policy) === 'enabled',
      approvalPolicy,
    },
    profile: fileSystem.kind === 'restricted' ? { type: 'managed', entries: fileSystem.entries.flatMap(environmentEntry) } : { type: 'disabled' },
  };
}

function environmentEntry(entry: FileSystemSandboxEntry): EnvironmentEntry[] {
  switch (entry.path.type) {
    case 'path':
      return [{ access: entry.access, target: { path: entry.path.path } }];
    case 'special':
      return [{ access: entry.access, target: { special: entry.path.value.kind } }];
    case 'glob_pattern':
      return [{ access: entry.access, target: { pattern: entry.path.pattern } }];
  }
}
