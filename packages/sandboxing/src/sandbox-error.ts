// The one error of this package: confinement cannot be provided as asked. It always says why and
// what to do, and callers switch on `code` — never on the message.

/** Why a command cannot be confined. */
export type SandboxUnavailableCode =
  /** No usable `bwrap` on PATH (outside the working directory). */
  | 'BwrapNotFound'
  /** The kernel or a security module refuses the user namespaces bubblewrap needs. */
  | 'UserNamespacesDenied'
  /** The kernel refused the seccomp network filter. */
  | 'SeccompUnavailable'
  /** bwrap exists but could not start a sandbox for another reason (its stderr is in the message). */
  | 'BwrapFailed'
  /** bwrap did not finish its trial run even with the longer retry deadline: slow, not known broken. */
  | 'BwrapTimedOut'
  /** This operating system has no supported sandbox here. */
  | 'UnsupportedPlatform'
  /** WSL1: its kernel cannot create the user namespaces bubblewrap needs (WSL2 can). */
  | 'Wsl1Unsupported'
  /** The seccomp filter has no syscall table for this CPU architecture. */
  | 'UnsupportedArchitecture'
  /** The policy uses a form that cannot be enforced yet (a glob entry, an unknown special path). */
  | 'UnsupportedPolicy'
  /** A path the policy keeps read-only or hidden sits behind a symlink the command could replace. */
  | 'UnenforceablePath'
  /** The Windows sandbox runner (`skein --run-as-windows-sandbox`) is not available in this build. */
  | 'WindowsRunnerUnavailable'
  /** The request itself is malformed (relative cwd, empty command, invalid policy). */
  | 'InvalidRequest';

/** Confinement is impossible as requested; nothing was run. `remedy` tells the user what to do. */
export class SandboxUnavailableError extends Error {
  override readonly name = 'SandboxUnavailableError';
  /** Stable reason code. */
  readonly code: SandboxUnavailableCode;
  /** What the user can do about it, as one or two sentences. */
  readonly remedy: string;

  constructor(code: SandboxUnavailableCode, reason: string, remedy: string) {
    super(`${reason}. ${remedy}`);
    this.code = code;
    this.remedy = remedy;
  }
}
