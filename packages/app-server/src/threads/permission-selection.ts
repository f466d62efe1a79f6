// A client's choice of sandbox for a thread, by built-in permission profile (`permissions:
// ":read-only"`), by `sandbox` mode (thread/start, resume, fork) or by `sandboxPolicy` (turn/start,
// thread/settings/update). Codex's TUI runs its title-generation turn under `:read-only` this way,
// so a profile that is dropped hands the model a writable workspace it was not meant to have.
import type { SandboxMode, SandboxPolicy } from '@skein/protocol';
import type { BUILT_IN_PERMISSION_PROFILES } from '@skein/sandboxing';
import { refuse } from '../app-server-error.js';
import type { LiveThread } from './live-thread.js';
import { sandboxModeOf } from './thread-settings.js';

/** The sandbox mode each built-in permission profile stands for. */
const PROFILE_SANDBOX_MODES: Readonly<Record<keyof typeof BUILT_IN_PERMISSION_PROFILES, SandboxMode>> = {
  ':read-only': 'read-only',
  ':workspace': 'workspace-write',
  ':danger-full-access': 'danger-full-access',
};

/** What a request chose: the profile id (if by profile) and the sandbox mode it stands for. */
export interface PermissionSelection {
  readonly profile: string | undefined;
  readonly sandbox: SandboxMode | undefined;
  /** Whether a `sandboxPolicy` or `sandbox` chose it, which ends any profile chosen before. */
  readonly byPolicy: boolean;
}

/**
 * The sandbox mode a profile stands for; a profile this server does not have is refused in Codex's
 * words (its config loader's, which reads `permissions` as `default_permissions`). Skein has no
 * `[permissions]` tables, so a name without the built-in colon is refused as Codex refuses it without one.
 */
function profileSandboxMode(profile: string): SandboxMode {
  if (Object.hasOwn(PROFILE_SANDBOX_MODES, profile)) return PROFILE_SANDBOX_MODES[profile as keyof typeof PROFILE_SANDBOX_MODES];
  if (!profile.startsWith(':')) refuse('failed to load configuration: default_permissions requires a `[permissions]` table');
  refuse(`failed to load configuration: default_permissions refers to unknown built-in profile \`${profile}\``);
}

/** Reads a turn's or settings update's `permissions` or `sandboxPolicy`; refuses both at once and a profile that is not built in. */
export function selectPermissions(params: { readonly permissions?: string | null | undefined; readonly sandboxPolicy?: SandboxPolicy | null | undefined }): PermissionSelection {
  const profile = params.permissions ?? undefined;
  const policy = params.sandboxPolicy ?? undefined;
  if (profile !== undefined && policy !== undefined) refuse('`permissions` cannot be combined with `sandboxPolicy`');
  if (profile === undefined) return { profile, sandbox: sandboxModeOf(policy), byPolicy: policy !== undefined };
  return { profile, sandbox: profileSandboxMode(profile), byPolicy: false };
}

/** Reads a thread/start's, resume's or fork's `permissions` or `sandbox` mode; refuses both at once and a profile that is not built in. */
export function selectThreadPermissions(params: { readonly permissions?: string | null | undefined; readonly sandbox?: SandboxMode | null | undefined }): PermissionSelection {
  const profile = params.permissions ?? undefined;
  const sandbox = params.sandbox ?? undefined;
  if (profile !== undefined && sandbox !== undefined) refuse('`permissions` cannot be combined with `sandbox`');
  if (profile === undefined) return { profile, sandbox, byPolicy: sandbox !== undefined };
  return { profile, sandbox: profileSandboxMode(profile), byPolicy: false };
}

/** Remembers the chosen profile, so the thread's settings report it by id. */
export function recordPermissions(thread: LiveThread, selection: PermissionSelection): void {
  if (selection.profile !== undefined) thread.permissionProfile = selection.profile;
  else if (selection.byPolicy) thread.permissionProfile = null;
}
