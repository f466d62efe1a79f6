// The sandbox context tool calls carry to the executor: the thread's permission profile with its
// paths as `file:` URIs (what exec-server's processes and filesystem take), or null when unconfined.
import type { Config } from '@skein/config';
import { FileSystemSandboxContext } from '@skein/exec-server';
import { PathUri, type FileSystemSandboxEntry } from '@skein/protocol';
import { accessAt, permissionProfileFromSandboxPolicy, resolveSandboxPolicy, sandboxPolicyFromConfig } from '@skein/sandboxing';

/** The context for commands and file edits of a thread running in `cwd`. */
export function sandboxContextFor(settings: Pick<Config, 'sandboxMode' | 'sandboxWorkspaceWrite'>, cwd: string): FileSystemSandboxContext | null {
  const profile = permissionProfileFromSandboxPolicy(sandboxPolicyFromConfig(settings), cwd);
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
    windowsSandboxLevel: 'disabled',
  });
}

/** Whether the thread's sandbox lets it write `path` (absolute, native); protected paths such as `.git` are not writable. */
export function isWritable(
  settings: Pick<Config, 'sandboxMode' | 'sandboxWorkspaceWrite' | 'cwd'>,
  path: string,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  const resolved = resolveSandboxPolicy({ policy: sandboxPolicyFromConfig(settings), cwd: settings.cwd, env }, { platform: 'linux' });
  return accessAt(resolved.fileSystem, path) === 'write';
}
