// Codex's internal permission model as it appears on the wire inside `turn_context` rollout lines and
// sandbox helpers: the legacy sandbox policy, the split filesystem policy and the permission profile.
// These are the kebab-case / snake_case forms; the app-server v2 `SandboxPolicy` (camelCase) is separate.
import * as z from 'zod';
import { lazySchema } from './lazy-schema.js';

// Absolute on any OS a policy may come from: POSIX, a drive letter or a UNC share. NUL never.
const ABSOLUTE_PATH = /^(?:\/|[A-Za-z]:[\\/]|\\\\[^\\]+\\[^\\]+)/;
const absolutePath = lazySchema(() => z
  .string()
  .refine((value) => ABSOLUTE_PATH.test(value), { message: 'expected an absolute path' })
  .refine((value) => !value.includes('\0'), { message: 'a path may not contain NUL' }));

/** Whether sandboxed commands may use the network (`NetworkSandboxPolicy`). */
export const NetworkSandboxPolicy = lazySchema(() => z.enum(['restricted', 'enabled']));
export type NetworkSandboxPolicy = z.infer<typeof NetworkSandboxPolicy>;

/**
 * What a filesystem entry grants. Codex 0.171.0 writes `deny`; config files and older rollouts spell
 * it `none`, which is read as `deny`.
 */
export const FileSystemAccessMode = lazySchema(() => z.preprocess(
  (value) => (value === 'none' ? 'deny' : value),
  z.enum(['read', 'write', 'deny']),
));
export type FileSystemAccessMode = z.infer<typeof FileSystemAccessMode>;

/**
 * A path whose meaning depends on where the command runs: `root` (the filesystem root), `minimal`
 * (the platform's system directories), `project_roots` (the cwd, or `subpath` below it), `tmpdir`
 * (`$TMPDIR`), `slash_tmp` (`/tmp`), or a token from a newer release (`unknown`). The legacy spelling
 * `current_working_directory` is read as `project_roots`.
 */
export const FileSystemSpecialPath = lazySchema(() => z.preprocess(
  (value) =>
    typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'current_working_directory'
      ? { kind: 'project_roots' }
      : value,
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('root') }),
    z.object({ kind: z.literal('minimal') }),
    z.object({ kind: z.literal('project_roots'), subpath: z.string().nullish() }),
    z.object({ kind: z.literal('tmpdir') }),
    z.object({ kind: z.literal('slash_tmp') }),
    z.object({ kind: z.literal('unknown'), path: z.string(), subpath: z.string().nullish() }),
  ]),
));
export type FileSystemSpecialPath = z.infer<typeof FileSystemSpecialPath>;

/** The target of an entry: an absolute path, a glob pattern, or a special path. */
export const FileSystemPath = lazySchema(() => z.discriminatedUnion('type', [
  z.object({ type: z.literal('path'), path: absolutePath }),
  z.object({ type: z.literal('glob_pattern'), pattern: z.string().min(1) }),
  z.object({ type: z.literal('special'), value: FileSystemSpecialPath }),
]));
export type FileSystemPath = z.infer<typeof FileSystemPath>;

/** What to do when an entry's path does not exist (Codex marks its protected paths `skip`). */
export const MissingPathBehavior = lazySchema(() => z.enum(['skip']));
export type MissingPathBehavior = z.infer<typeof MissingPathBehavior>;

/** One rule of a split filesystem policy. The most specific matching entry decides a path's access. */
export const FileSystemSandboxEntry = lazySchema(() => z.object({
  path: FileSystemPath,
  access: FileSystemAccessMode,
  missing_path_behavior: MissingPathBehavior.optional(),
}));
export type FileSystemSandboxEntry = z.infer<typeof FileSystemSandboxEntry>;

/**
 * The split filesystem policy (`file_system_sandbox_policy`): `restricted` applies `entries`;
 * `unrestricted` and `external-sandbox` leave the filesystem alone.
 */
export const FileSystemSandboxPolicy = lazySchema(() => z.object({
  kind: z.enum(['restricted', 'unrestricted', 'external-sandbox']),
  glob_scan_max_depth: z.int().min(1).optional(),
  entries: z.array(FileSystemSandboxEntry).default([]),
}));
export type FileSystemSandboxPolicy = z.infer<typeof FileSystemSandboxPolicy>;

/**
 * The legacy sandbox policy Codex core carries (`turn_context.sandbox_policy`): kebab-case tags and
 * snake_case fields. Named `CoreSandboxPolicy` because `SandboxPolicy` is the app-server v2 form.
 * `writable_roots` is omitted when empty and `read-only`'s `network_access` when false, as Codex does.
 */
export const CoreSandboxPolicy = lazySchema(() => z.discriminatedUnion('type', [
  z.object({ type: z.literal('danger-full-access') }),
  z.object({ type: z.literal('read-only'), network_access: z.boolean().optional() }),
  z.object({ type: z.literal('external-sandbox'), network_access: NetworkSandboxPolicy.default('restricted') }),
  z.object({
    type: z.literal('workspace-write'),
    writable_roots: z.array(absolutePath).optional(),
    network_access: z.boolean().default(false),
    exclude_tmpdir_env_var: z.boolean().default(false),
    exclude_slash_tmp: z.boolean().default(false),
  }),
]));
export type CoreSandboxPolicy = z.infer<typeof CoreSandboxPolicy>;

/** The filesystem half of a managed permission profile. */
export const ManagedFileSystemPermissions = lazySchema(() => z.discriminatedUnion('type', [
  z.object({
    type: z.literal('restricted'),
    entries: z.array(FileSystemSandboxEntry),
    glob_scan_max_depth: z.int().min(1).optional(),
  }),
  z.object({ type: z.literal('unrestricted') }),
]));
export type ManagedFileSystemPermissions = z.infer<typeof ManagedFileSystemPermissions>;

/**
 * The effective permissions of a turn (`turn_context.permission_profile`): `managed` (Skein/Codex
 * enforces `file_system` and `network`), `disabled` (no sandbox) or `external` (someone else does).
 */
export const PermissionProfile = lazySchema(() => z.discriminatedUnion('type', [
  z.object({ type: z.literal('managed'), file_system: ManagedFileSystemPermissions, network: NetworkSandboxPolicy }),
  z.object({ type: z.literal('disabled') }),
  z.object({ type: z.literal('external'), network: NetworkSandboxPolicy }),
]));
export type PermissionProfile = z.infer<typeof PermissionProfile>;
