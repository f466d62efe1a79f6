// What the model is told about its permissions, derived from the thread's sandbox settings: the
// facts for `<permissions instructions>` and the entries of `<environment_context>`, in Codex's order.
import type { Config } from '@skein/config';
import type { EnvironmentEntry, EnvironmentPermissionProfile } from '../context/environment-context.js';
import type { PermissionsFacts } from '../context/permissions-instructions.js';

/** Folders under a writable root that stay read-only (as in Codex). */
export const PROTECTED_FOLDERS = ['.git', '.agents', '.codex', '.aws'] as const;

/** The sandbox settings a thread runs with. */
export type SandboxSettings = Pick<Config, 'sandboxMode' | 'sandboxWorkspaceWrite' | 'approvalPolicy'>;

/** Both renderings of the thread's permissions. */
export interface ThreadPermissions {
  readonly facts: PermissionsFacts;
  readonly profile: EnvironmentPermissionProfile;
}

/** Derives the permission facts and the environment entries for `cwd`. */
export function threadPermissions(settings: SandboxSettings, cwd: string): ThreadPermissions {
  const approvalPolicy = typeof settings.approvalPolicy === 'string' ? settings.approvalPolicy : 'granular';
  switch (settings.sandboxMode) {
    case 'danger-full-access':
      return { facts: { sandboxMode: 'danger-full-access', writableRoots: [], networkAccess: true, approvalPolicy }, profile: { type: 'disabled' } };
    case 'read-only':
      return {
        facts: { sandboxMode: 'read-only', writableRoots: [], networkAccess: false, approvalPolicy },
        profile: { type: 'managed', entries: [{ access: 'read', target: { special: 'root' } }] },
      };
    case 'workspace-write': {
      const options = settings.sandboxWorkspaceWrite;
      const roots = [...new Set([cwd, ...options.writableRoots])];
      const entries: EnvironmentEntry[] = [
        { access: 'read', target: { special: 'root' } },
        ...roots.map((root): EnvironmentEntry => ({ access: 'write', target: { path: root } })),
        ...(options.excludeSlashTmp ? [] : [{ access: 'write', target: { special: 'slash_tmp' } } as const]),
        ...(options.excludeTmpdirEnvVar ? [] : [{ access: 'write', target: { special: 'tmpdir' } } as const]),
        ...roots.flatMap((root) => PROTECTED_FOLDERS.map((folder): EnvironmentEntry => ({ access: 'read', target: { path: `${root}/${folder}` } }))),
      ];
      return {
        facts: { sandboxMode: 'workspace-write', writableRoots: roots, networkAccess: options.networkAccess, approvalPolicy },
        profile: { type: 'managed', entries },
      };
    }
  }
}
