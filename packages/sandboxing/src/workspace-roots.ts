// A thread's workspace roots (Codex's `runtimeWorkspaceRoots`): the directories it works in. By
// default the cwd and the configured `writable_roots`; a client may name others. Under
// workspace-write the roots are what a command may write, with `/tmp`, `$TMPDIR` and the configured
// writable roots, and each root keeps its protected directories read-only. A cwd left out of the
// roots is not writable. Entry order is Codex 0.171.0's, so what the model is told matches it.
import path from 'node:path';
import type { CoreSandboxPolicy, FileSystemSandboxEntry, FileSystemSandboxPolicy, PermissionProfile } from '@skein/protocol/executor';
import { PROTECTED_DIRECTORY_NAMES, networkPolicyOf, type SandboxConfigValues } from './policy-from-config.js';

/** The roots of a thread that names none: its cwd, then the configured writable roots, each once. */
export function defaultWorkspaceRoots(values: SandboxConfigValues, cwd: string): string[] {
  return [...new Set([cwd, ...(values.sandboxWorkspaceWrite?.writableRoots ?? [])])];
}

/**
 * The filesystem policy of `policy` over `roots`: root readable; under workspace-write each root,
 * `/tmp`, `$TMPDIR` and every configured writable root not already a root writable, then each
 * root's `.git`, `.agents`, `.codex` and `.aws` read-only (`missing_path_behavior: skip`).
 */
export function workspaceFileSystemPolicy(policy: CoreSandboxPolicy, roots: readonly string[]): FileSystemSandboxPolicy {
  switch (policy.type) {
    case 'danger-full-access':
      return { kind: 'unrestricted', entries: [] };
    case 'external-sandbox':
      return { kind: 'external-sandbox', entries: [] };
    case 'read-only':
      return { kind: 'restricted', entries: [special('root', 'read')] };
    case 'workspace-write': {
      const configured = (policy.writable_roots ?? []).filter((root) => !roots.includes(root));
      const entries: FileSystemSandboxEntry[] = [special('root', 'read'), ...roots.map((root) => pathEntry(root, 'write'))];
      if (!policy.exclude_slash_tmp) entries.push(special('slash_tmp', 'write'));
      if (!policy.exclude_tmpdir_env_var) entries.push(special('tmpdir', 'write'));
      entries.push(...configured.map((root) => pathEntry(root, 'write')));
      for (const name of PROTECTED_DIRECTORY_NAMES) {
        for (const root of roots) entries.push({ path: { type: 'path', path: joinNative(root, name) }, access: 'read', missing_path_behavior: 'skip' });
      }
      return { kind: 'restricted', entries };
    }
  }
}

/** The permission profile of `policy` over `roots` (see {@link workspaceFileSystemPolicy}). */
export function workspacePermissionProfile(policy: CoreSandboxPolicy, roots: readonly string[]): PermissionProfile {
  switch (policy.type) {
    case 'danger-full-access':
      return { type: 'disabled' };
    case 'external-sandbox':
      return { type: 'external', network: policy.network_access };
    case 'read-only':
    case 'workspace-write':
      return { type: 'managed', file_system: { type: 'restricted', entries: workspaceFileSystemPolicy(policy, roots).entries }, network: networkPolicyOf(policy) };
  }
}

/**
 * The legacy sandbox policy that stands for `policy` over `roots` in `cwd`, as Codex reports it
 * (the v2 `sandboxPolicy`, `turn_context.sandbox_policy`). A legacy workspace-write policy always
 * lets the cwd be written: with the cwd among the roots, the other roots become writable roots; with
 * it left out, every writable place is listed by path (`/tmp`, and `$TMPDIR` when `env` sets it).
 */
export function legacyWorkspacePolicy(
  policy: CoreSandboxPolicy,
  cwd: string,
  roots: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): CoreSandboxPolicy {
  if (policy.type !== 'workspace-write') return policy;
  const configured = (policy.writable_roots ?? []).filter((root) => !roots.includes(root));
  const { writable_roots: _dropped, ...rest } = policy;
  const withRoots = (writable: readonly string[], extra: Partial<CoreSandboxPolicy & { type: 'workspace-write' }> = {}): CoreSandboxPolicy => ({
    ...rest,
    ...(writable.length > 0 ? { writable_roots: [...writable] } : {}),
    ...extra,
  });
  if (roots.includes(cwd)) return withRoots([...roots.filter((root) => root !== cwd), ...configured]);
  const tmpdir = policy.exclude_tmpdir_env_var ? undefined : env['TMPDIR'] || undefined;
  const places = [...roots, ...(policy.exclude_slash_tmp ? [] : ['/tmp']), ...(tmpdir === undefined ? [] : [tmpdir]), ...configured];
  return withRoots([...new Set(places)], { exclude_tmpdir_env_var: tmpdir === undefined });
}

/** `name` below `root` in the root's own convention: a Windows executor's `C:\\repo` gets `C:\\repo\\.git`. */
function joinNative(root: string, name: string): string {
  return /^(?:[A-Za-z]:[\\/]|\\\\)/.test(root) ? path.win32.join(root, name) : path.posix.join(root, name);
}

const special = (kind: 'root' | 'slash_tmp' | 'tmpdir', access: 'read' | 'write'): FileSystemSandboxEntry => ({ path: { type: 'special', value: { kind } }, access });
const pathEntry = (target: string, access: 'read' | 'write'): FileSystemSandboxEntry => ({ path: { type: 'path', path: target }, access });
