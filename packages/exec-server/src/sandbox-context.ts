// The sandbox context an fs call or process start may carry: Codex 0.171.0's `FileSystemSandboxContext`,
// a permission profile whose explicit paths are `file:` URIs. Owns its schema and whether it restricts.
import { PathUriString, lazySchema } from '@skein/protocol/executor';
import * as z from 'zod';

/** A well-known location a policy entry may name instead of a path. */
export const FileSystemSpecialPath = lazySchema(() => z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('root') }),
  z.object({ kind: z.literal('minimal') }),
  z.object({ kind: z.literal('current_working_directory') }),
  z.object({ kind: z.literal('project_roots'), subpath: z.string().nullish() }),
  z.object({ kind: z.literal('tmpdir') }),
  z.object({ kind: z.literal('slash_tmp') }),
  z.object({ kind: z.literal('unknown'), path: z.string(), subpath: z.string().nullish() }),
]));
export type FileSystemSpecialPath = z.infer<typeof FileSystemSpecialPath>;

/** What a policy entry applies to: an explicit path, a glob, or a special location. */
export const ExecFileSystemPath = lazySchema(() => z.discriminatedUnion('type', [
  z.object({ type: z.literal('path'), path: PathUriString }),
  z.object({ type: z.literal('glob_pattern'), pattern: z.string() }),
  z.object({ type: z.literal('special'), value: FileSystemSpecialPath }),
]));
export type ExecFileSystemPath = z.infer<typeof ExecFileSystemPath>;

/** Access granted by an entry; `deny` and `none` both refuse reads and writes. */
export const FileSystemAccess = lazySchema(() => z.enum(['read', 'write', 'deny', 'none']));
export type FileSystemAccess = z.infer<typeof FileSystemAccess>;

/** One policy entry; the most specific entry for a path wins. */
export const ExecFileSystemSandboxEntry = lazySchema(() => z.object({
  path: ExecFileSystemPath,
  access: FileSystemAccess,
  missing_path_behavior: z.string().nullish(),
}));
export type ExecFileSystemSandboxEntry = z.infer<typeof ExecFileSystemSandboxEntry>;

/** The filesystem half of a managed profile. Field names are snake_case on the wire, as Codex sends them. */
export const ExecManagedFileSystemPermissions = lazySchema(() => z.discriminatedUnion('type', [
  z.object({
    type: z.literal('restricted'),
    entries: z.array(ExecFileSystemSandboxEntry),
    glob_scan_max_depth: z.number().int().positive().nullish(),
  }),
  z.object({ type: z.literal('unrestricted') }),
]));
export type ExecManagedFileSystemPermissions = z.infer<typeof ExecManagedFileSystemPermissions>;

/** Whether the network is reachable from inside the sandbox. */
export const NetworkSandboxPolicy = lazySchema(() => z.enum(['restricted', 'enabled']));
export type NetworkSandboxPolicy = z.infer<typeof NetworkSandboxPolicy>;

/** The permission profile: managed by the executor, sandboxing disabled, or enforced outside it. */
export const ExecPermissionProfile = lazySchema(() => z.discriminatedUnion('type', [
  z.object({ type: z.literal('managed'), file_system: ExecManagedFileSystemPermissions, network: NetworkSandboxPolicy }),
  z.object({ type: z.literal('disabled') }),
  z.object({ type: z.literal('external'), network: NetworkSandboxPolicy }),
]));
export type ExecPermissionProfile = z.infer<typeof ExecPermissionProfile>;

/** Which Windows sandbox to use; ignored on other hosts. */
export const WindowsSandboxLevel = lazySchema(() => z.enum(['disabled', 'restricted-token', 'elevated', 'mxc']));
export type WindowsSandboxLevel = z.infer<typeof WindowsSandboxLevel>;

/**
 * The sandbox intent attached to an fs call or a process start. `cwd` anchors relative policy
 * entries (`current_working_directory`, `project_roots`).
 *
 * @example
 * FileSystemSandboxContext.parse({
 *   permissions: { type: 'managed', network: 'restricted', file_system: { type: 'restricted', entries: [
 *     { path: { type: 'special', value: { kind: 'root' } }, access: 'read' },
 *     { path: { type: 'path', path: 'file:///repo' }, access: 'write' },
 *   ] } },
 *   cwd: 'file:///repo',
 *   windowsSandboxLevel: 'disabled',
 * });
 */
export const FileSystemSandboxContext = lazySchema(() => z.object({
  permissions: ExecPermissionProfile,
  cwd: PathUriString.nullish(),
  workspaceRoots: z.array(PathUriString).nullish(),
  userHomeDir: PathUriString.nullish(),
  temporaryDirectories: z.array(PathUriString).nullish(),
  windowsSandboxLevel: WindowsSandboxLevel,
  windowsSandboxPrivateDesktop: z.boolean().nullish(),
  windowsSandboxProxySettingsMode: z.string().nullish(),
  useLegacyLandlock: z.boolean().nullish(),
}));
export type FileSystemSandboxContext = z.infer<typeof FileSystemSandboxContext>;
/** The context as a caller writes it before parsing (paths as `file:` URI strings). */
export type FileSystemSandboxContextInput = z.input<typeof FileSystemSandboxContext>;

/**
 * True when the context confines the call: a managed, restricted profile that does not simply grant
 * write access to the whole disk. Disabled, external and unrestricted profiles run directly, as in Codex.
 */
export function sandboxRestricts(context: FileSystemSandboxContext | null | undefined): boolean {
  if (context == null) return false;
  const { permissions } = context;
  if (permissions.type !== 'managed' || permissions.file_system.type !== 'restricted') return false;
  const { entries } = permissions.file_system;
  const rootWritable = entries.some(
    (entry) => entry.access === 'write' && entry.path.type === 'special' && entry.path.value.kind === 'root',
  );
  // A denied carve-out inside a writable disk still has to be enforced by the sandbox.
  const carvesOut = entries.some((entry) => entry.access === 'deny' || entry.access === 'none');
  return !rootWritable || carvesOut;
}

/**
 * True when a process started with this context must run in the platform sandbox: its filesystem
 * access is restricted (see {@link sandboxRestricts}) or its network is.
 */
export function sandboxConfinesProcess(context: FileSystemSandboxContext | null | undefined): context is FileSystemSandboxContext {
  if (context == null || context.permissions.type !== 'managed') return false;
  return sandboxRestricts(context) || context.permissions.network === 'restricted';
}
