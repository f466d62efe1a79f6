// The sandbox context tool calls carry to the executor: the thread's permission profile over its
// workspace roots, with paths as `file:` URIs (what exec-server's processes and filesystem take), or
// null when unconfined. Roots default to the cwd and the configured writable roots.
import type { Config } from '@skein/config';
import { FileSystemSandboxContext } from '@skein/exec-server';
import { PathUri, type FileSystemSandboxEntry, type PathConvention } from '@skein/protocol';
import { accessAt, defaultWorkspaceRoots, PROTECTED_DIRECTORY_NAMES, resolveSandboxPolicy, sandboxPolicyFromConfig, workspaceFileSystemPolicy, workspacePermissionProfile } from '@skein/sandboxing';

/** The context for commands and file edits of a thread running in `cwd` over `roots`. */
export function sandboxContextFor(
  settings: Pick<Config, 'sandboxMode' | 'sandboxWorkspaceWrite'>,
  cwd: string,
  roots: readonly string[] = defaultWorkspaceRoots(settings, cwd),
  convention: PathConvention = 'posix',
): FileSystemSandboxContext | null {
  const profile = workspacePermissionProfile(sandboxPolicyFromConfig(settings), roots);
  if (profile.type !== 'managed') return null;
  // Paths are native to the executor (`C:\…` on a Windows one).
  const uri = (path: string) => PathUri.fromNativePath(path, convention).toString();
  const entries = profile.file_system.type === 'restricted' ? profile.file_system.entries.map((entry: FileSystemSandboxEntry) => ({
    ...entry,
    path: entry.path.type === 'path' ? { type: 'path' as const, path: uri(entry.path.path) } : entry.path,
  })) : [];
  return FileSystemSandboxContext.parse({
    permissions: {
      type: 'managed',
      network: profile.network,
      file_system: profile.file_system.type === 'restricted' ? { type: 'restricted', entries } : { type: 'unrestricted' },
    },
    cwd: uri(cwd),
    workspaceRoots: roots.map(uri),
    windowsSandboxLevel: 'disabled',
  });
}

/** Where a write check looks: an environment's cwd, workspace roots, path convention and variables. */
export interface WriteScope {
  readonly cwd: string;
  readonly roots: readonly string[];
  readonly convention: PathConvention;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/**
 * Whether the sandbox lets a command in `scope` write `target` (absolute, native there); protected
 * paths such as `.git` are not writable. A Windows executor's paths are judged by their text: a
 * root or a configured writable root holds them, outside its protected directories.
 */
export function isWritable(settings: Pick<Config, 'sandboxMode' | 'sandboxWorkspaceWrite'>, target: string, scope: WriteScope): boolean {
  const policy = sandboxPolicyFromConfig(settings);
  if (policy.type === 'danger-full-access') return true;
  if (scope.convention === 'windows') return policy.type === 'workspace-write' && writableByText(target, [...scope.roots, ...(policy.writable_roots ?? [])]);
  const resolved = resolveSandboxPolicy({ policy, fileSystemPolicy: workspaceFileSystemPolicy(policy, scope.roots), cwd: scope.cwd, env: scope.env }, { platform: 'linux' });
  return accessAt(resolved.fileSystem, target) === 'write';
}

function writableByText(target: string, roots: readonly string[]): boolean {
  let path: PathUri;
  try {
    path = PathUri.fromNativePath(target, 'windows');
  } catch {
    return false;
  }
  return roots.some((text) => {
    let root: PathUri;
    try {
      root = PathUri.fromNativePath(text, 'windows');
    } catch {
      return false;
    }
    return root.contains(path) && !PROTECTED_DIRECTORY_NAMES.some((name) => root.join(name).contains(path));
  });
}
