// The sandbox context tool calls carry to the executor: the thread's permission profile over its
// workspace roots, with paths as `file:` URIs (what exec-server's processes and filesystem take), or
// null when unconfined. Roots default to the cwd and the configured writable roots.
import type { Config } from '@skein/config';
import { FileSystemSandboxContext } from '@skein/exec-server';
import { PathUri, type FileSystemSandboxEntry } from '@skein/protocol';
import { accessAt, defaultWorkspaceRoots, resolveSandboxPolicy, sandboxPolicyFromConfig, workspaceFileSystemPolicy, workspacePermissionProfile } from '@skein/sandboxing';

/** The context for commands and file edits of a thread running in `cwd` over `roots`. */
export function sandboxContextFor(
  settings: Pick<Config, 'sandboxMode' | 'sandboxWorkspaceWrite'>,
  cwd: string,
  roots: readonly string[] = defaultWorkspaceRoots(settings, cwd),
): FileSystemSandboxContext | null {
  const profile = workspacePermissionProfile(sandboxPolicyFromConfig(settings), roots);
  if (profile.type !== 'managed') return null;
  const uri = (path: string) => PathUri.fromNativePath(path, 'posix').toString();
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

/** Whether the thread's sandbox over `roots` lets it write `path` (absolute, native); protected paths such as `.git` are not writable. */
export function isWritable(
  settings: Pick<Config, 'sandboxMode' | 'sandboxWorkspaceWrite' | 'cwd'>,
  path: string,
  env: Readonly<Record<string, string | undefined>>,
  roots: readonly string[] = defaultWorkspaceRoots(settings, settings.cwd),
): boolean {
  const policy = sandboxPolicyFromConfig(settings);
  const resolved = resolveSandboxPolicy({ policy, fileSystemPolicy: workspaceFileSystemPolicy(policy, roots), cwd: settings.cwd, env }, { platform: 'linux' });
  return accessAt(resolved.fileSystem, path) === 'write';
}
