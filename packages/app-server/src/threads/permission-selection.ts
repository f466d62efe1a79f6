// A client's choice of sandbox for a thread's next turns, by built-in permission profile
// (`permissions: ":read-only"`) or by `sandboxPolicy`, as `thread/settings/update` and `turn/start`
// take it. Codex's TUI runs its title-generation turn under `:read-only` this way.
import type { SandboxPolicy } from '@skein/protocol';
import type { BUILT_IN_PERMISSION_PROFILES } from '@skein/sandboxing';
import { refuse } from '../app-server-error.js';
import type { LiveThread } from './live-thread.js';
import { sandboxModeOf } from './thread-settings.js';

/** The sandbox mode each built-in permission profile stands for. */
const PROFILE_SANDBOX_MODES: Readonly<Record<keyof typeof BUILT_IN_PERMISSION_PROFILES, string>> = {
  ':read-only': 'read-only',
  ':workspace': 'workspace-write',
  ':danger-full-access': 'danger-full-access',
};

/** What a request chose: the profile id (if by profile) and the sandbox mode it stands for. */
export interface PermissionSelection {
  readonly profile: string | undefined;
  readonly sandbox: string | undefined;
  /** Whether a `sandboxPolicy` chose it, which ends any profile chosen before. */
  readonly byPolicy: boolean;
}

/** Reads a request's `permissions` or `sandboxPolicy`; refuses both at once and a profile that is not built in. */
export function selectPermissions(params: { readonly permissions?: string | null | undefined; readonly sandboxPolicy?: SandboxPolicy | null | undefined }): PermissionSelection {
  const profile = params.permissions ?? undefined;
  const policy = params.sandboxPolicy ?? undefined;
  if (profile !== undefined && policy !== undefined) refuse('`permissions` cannot be combined with `sandboxPolicy`');
  if (profile === undefined) return { profile, sandbox: sandboxModeOf(policy), byPolicy: policy !== undefined };
  if (!Object.hasOwn(PROFILE_SANDBOX_MODES, profile)) refuse(`unknown permissions profile \`${profile}\`; this server has ${Object.keys(PROFILE_SANDBOX_MODES).join(', ')}`);
  return { profile, sandbox: PROFILE_SANDBOX_MODES[profile as keyof typeof PROFILE_SANDBOX_MODES], byPolicy: false };
}

/** Remembers the chosen profile, so the thread's settings report it by id. */
export function recordPermissions(thread: LiveThread, selection: PermissionSelection): void {
  if (selection.profile !== undefined) thread.permissionProfile = selection.profile;
  else if (selection.byPolicy) thread.permissionProfile = null;
}
