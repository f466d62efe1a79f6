// Codex's mapping from the config file's sandbox settings (`sandbox_mode` + `[sandbox_workspace_write]`)
// to the core policy, and from that policy to the split filesystem policy and permission profile that
// `turn_context` records — entry order included, so rollouts compare equal to Codex's.
import path from 'node:path';
import type {
  CoreSandboxPolicy,
  FileSystemSandboxEntry,
  FileSystemSandboxPolicy,
  NetworkSandboxPolicy,
  PermissionProfile,
} from '@skein/protocol/executor';

/** The directories Codex keeps read-only inside every writable root, in the order it lists them. */
export const PROTECTED_DIRECTORY_NAMES = ['.git', '.agents', '.codex', '.aws'] as const;

/** The plain values a caller reads from config (`Config.sandboxMode` / `Config.sandboxWorkspaceWrite`). */
export interface SandboxConfigValues {
  readonly sandboxMode: 'read-only' | 'workspace-write' | 'danger-full-access';
  readonly sandboxWorkspaceWrite?: {
    readonly writableRoots?: readonly string[];
    readonly networkAccess?: boolean;
    readonly excludeTmpdirEnvVar?: boolean;
    readonly excludeSlashTmp?: boolean;
  };
}

/**
 * The core policy for `sandbox_mode` and `[sandbox_workspace_write]`. The table only matters for
 * `workspace-write` (Codex ignores its `network_access` in `read-only`).
 *
 * @example
 * sandboxPolicyFromConfig({ sandboxMode: 'workspace-write', sandboxWorkspaceWrite: { networkAccess: true } });
 * // { type: 'workspace-write', network_access: true, exclude_tmpdir_env_var: false, exclude_slash_tmp: false }
 */
export function sandboxPolicyFromConfig(values: SandboxConfigValues): CoreSandboxPolicy {
  switch (values.sandboxMode) {
    case 'danger-full-access':
      return { type: 'danger-full-access' };
    case 'read-only':
      return { type: 'read-only' };
    case 'workspace-write': {
      const table = values.sandboxWorkspaceWrite ?? {};
      const roots = table.writableRoots ?? [];
      return {
        type: 'workspace-write',
        ...(roots.length > 0 ? { writable_roots: [...roots] } : {}),
        network_access: table.networkAccess ?? false,
        exclude_tmpdir_env_var: table.excludeTmpdirEnvVar ?? false,
        exclude_slash_tmp: table.excludeSlashTmp ?? false,
      };
    }
  }
}

/** The built-in permission profiles `-P` accepts, as core policies (they ignore `[sandbox_workspace_write]`). */
export const BUILT_IN_PERMISSION_PROFILES: Readonly<Record<':read-only' | ':workspace' | ':danger-full-access', CoreSandboxPolicy>> = {
  ':read-only': { type: 'read-only' },
  ':workspace': { type: 'workspace-write', network_access: false, exclude_tmpdir_env_var: false, exclude_slash_tmp: false },
  ':danger-full-access': { type: 'danger-full-access' },
};

/** Whether commands under `policy` may use the network. */
export function networkPolicyOf(policy: CoreSandboxPolicy): NetworkSandboxPolicy {
  switch (policy.type) {
    case 'danger-full-access':
      return 'enabled';
    case 'read-only':
      return policy.network_access === true ? 'enabled' : 'restricted';
    case 'external-sandbox':
      return policy.network_access;
    case 'workspace-write':
      return policy.network_access ? 'enabled' : 'restricted';
  }
}

const special = (kind: 'root' | 'slash_tmp' | 'tmpdir', access: 'read' | 'write'): FileSystemSandboxEntry => ({
  path: { type: 'special', value: { kind } },
  access,
});
const pathEntry = (target: string, access: 'read' | 'write'): FileSystemSandboxEntry => ({ path: { type: 'path', path: target }, access });

/**
 * The split filesystem policy equivalent to `policy` for `cwd`, entry for entry as Codex 0.171.0 records
 * it: root readable; cwd, `writable_roots`, `/tmp`, `$TMPDIR` writable; then `.git`, `.agents`, `.codex`
 * and `.aws` of every writable path root read-only (`missing_path_behavior: skip`). Codex lists the
 * configured `writable_roots` a second time after `tmpdir`; that repetition is kept so records match.
 */
export function fileSystemPolicyFromSandboxPolicy(policy: CoreSandboxPolicy, cwd: string): FileSystemSandboxPolicy {
  switch (policy.type) {
    case 'danger-full-access':
      return { kind: 'unrestricted', entries: [] };
    case 'external-sandbox':
      return { kind: 'external-sandbox', entries: [] };
    case 'read-only':
      return { kind: 'restricted', entries: [special('root', 'read')] };
    case 'workspace-write': {
      const extra = [...(policy.writable_roots ?? [])];
      const entries: FileSystemSandboxEntry[] = [special('root', 'read'), pathEntry(cwd, 'write')];
      entries.push(...extra.map((root) => pathEntry(root, 'write')));
      if (!policy.exclude_slash_tmp) entries.push(special('slash_tmp', 'write'));
      if (!policy.exclude_tmpdir_env_var) entries.push(special('tmpdir', 'write'));
      entries.push(...extra.map((root) => pathEntry(root, 'write')));
      for (const name of PROTECTED_DIRECTORY_NAMES) {
        for (const root of [cwd, ...extra]) {
          entries.push({ path: { type: 'path', path: path.join(root, name) }, access: 'read', missing_path_behavior: 'skip' });
        }
      }
      return { kind: 'restricted', entries };
    }
  }
}

/** The `permission_profile` Codex records for `policy` in `cwd`. */
export function permissionProfileFromSandboxPolicy(policy: CoreSandboxPolicy, cwd: string): PermissionProfile {
  switch (policy.type) {
    case 'danger-full-access':
      return { type: 'disabled' };
    case 'external-sandbox':
      return { type: 'external', network: policy.network_access };
    case 'read-only':
    case 'workspace-write':
      return {
        type: 'managed',
        file_system: { type: 'restricted', entries: fileSystemPolicyFromSandboxPolicy(policy, cwd).entries },
        network: networkPolicyOf(policy),
      };
  }
}
