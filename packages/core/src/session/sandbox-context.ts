// The sandbox context tool calls carry to the executor: the thread's permission profile over its
// workspace roots, with paths as `file:` URIs (what exec-server's processes and filesystem take), or
// null when unconfined. Roots default to the cwd and the configured writable roots.
import type { Config } from '@skein/config';
import { FileSystemSandboxContext } from '@skein/exec-server';
import { PathUri, type FileSystemSandboxEntry, type PathConvention } from '@skein/protocol';
import { accessAt, defaultWorkspaceRoots, PROTECTED_DIRECTORY_NAMES, resolveSandboxPolicy, sandboxPolicyFromConfig, workspaceFileSystemPolicy, workspacePermissionProfile } from '@skein/sandboxing';

/** Distinct contexts kept (see `built`); past this the memo starts over. */
const BUILT_CONTEXTS_MAX = 256;
/**
 * Contexts already built, keyed by every input they are made of: the sandbox mode, the
 * `[sandbox_workspace_write]` values, the cwd, the roots and the path convention. Every turn asks
 * for its thread's (several times), so building and schema-checking one each time was a turn's
 * largest sandbox cost; a context is frozen, so sharing it is safe.
 */
const built = new Map<string, FileSystemSandboxContext | null>();

/** The context for commands and file edits of a thread running in `cwd` over `roots`. */
export function sandboxContextFor(
  settings: Pick<Config, 'sandboxMode' | 'sandboxWorkspaceWrite'>,
  cwd: string,
  roots: readonly string[] = defaultWorkspaceRoots(settings, cwd),
  convention: PathConvention = 'posix',
): FileSystemSandboxContext | null {
  const table = settings.sandboxWorkspaceWrite;
  const key = JSON.stringify([settings.sandboxMode, table.writableRoots, table.networkAccess, table.excludeTmpdirEnvVar, table.excludeSlashTmp, cwd, roots, convention]);
  const known = built.get(key);
  if (known !== undefined) return known;
  const context = buildSandboxContext(settings, cwd, roots, convention);
  if (built.size >= BUILT_CONTEXTS_MAX) built.clear();
  built.set(key, context === null ? null : deepFreeze(context));
  return context;
}

function buildSandboxContext(
  settings: Pick<Config, 'sandboxMode' | 'sandboxWorkspaceWrite'>,
  cwd: string,
  roots: readonly string[],
  convention: PathConvention,
): FileSystemSandboxContext | null {
  const profile = workspacePermissionProfile(sandboxPolicyFromConfig(settings), roots);
  if (profile.type !== 'managed') return null;
  // Paths are native to the executor (`C:\…` on a Windows one); one that names no place there (this
  // host's `writable_roots` on a Windows executor) is left out: it grants nothing and guards nothing there.
  const uri = (path: string): string | undefined => {
    try {
      return PathUri.fromNativePath(path, convention).toString();
    } catch {
      return undefined;
    }
  };
  const entries = profile.file_system.type === 'restricted'
    ? profile.file_system.entries.flatMap((entry: FileSystemSandboxEntry) => {
        if (entry.path.type !== 'path') return [entry];
        const target = uri(entry.path.path);
        return target === undefined ? [] : [{ ...entry, path: { type: 'path' as const, path: target } }];
      })
    : [];
  return FileSystemSandboxContext.parse({
    permissions: {
      type: 'managed',
      network: profile.network,
      file_system: profile.file_system.type === 'restricted' ? { type: 'restricted', entries } : { type: 'unrestricted' },
    },
    cwd: uri(cwd),
    workspaceRoots: roots.flatMap((root) => uri(root) ?? []),
    windowsSandboxLevel: 'disabled',
  });
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** Whether commands under these settings run confined (anything but danger-full-access). */
export function sandboxRestricts(settings: Pick<Config, 'sandboxMode' | 'sandboxWorkspaceWrite'>): boolean {
  return sandboxPolicyFromConfig(settings).type !== 'danger-full-access';
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
  const path = windowsSegments(target);
  if (path === undefined) return false;
  const within = (root: readonly string[]) => root.length <= path.length && root.every((segment, index) => segment === path[index]);
  const containing = roots.map(windowsSegments).filter((root): root is string[] => root !== undefined && within(root));
  // Every root that holds the path keeps its protected directories read-only, as the POSIX policy does.
  return containing.length > 0 && !containing.some((root) => PROTECTED_DIRECTORY_NAMES.some((name) => within([...root, name])));
}

/**
 * An absolute Windows path as Windows compares it: segments in lower case, trailing dots and spaces
 * dropped. Undefined for a relative path, or one naming an NTFS stream (`a:b`) or an 8.3 short name
 * (`GIT~1`), which text alone cannot tell apart from a protected directory.
 */
function windowsSegments(text: string): string[] | undefined {
  const match = /^(?:([A-Za-z]):|\\\\([^\\/]+)[\\/]([^\\/]+))[\\/](.*)$/.exec(text);
  if (match === null) return undefined;
  const anchor = match[1] !== undefined ? `${match[1]}:` : `//${match[2]}/${match[3]}`;
  const segments = (match[4] ?? '').split(/[\\/]/).filter((segment) => segment !== '' && segment !== '.');
  if (segments.some((segment) => segment === '..' || segment.includes(':') || segment.includes('~'))) return undefined;
  return [anchor, ...segments].map((segment) => segment.replace(/[. ]+$/, '').toLowerCase());
}
