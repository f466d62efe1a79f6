// @skein/sandboxing — permission policy + command → confined command. Re-exports only.

export { SandboxUnavailableError } from './sandbox-error.js';
export type { SandboxUnavailableCode } from './sandbox-error.js';

export {
  BUILT_IN_PERMISSION_PROFILES,
  PROTECTED_DIRECTORY_NAMES,
  fileSystemPolicyFromSandboxPolicy,
  networkPolicyOf,
  permissionProfileFromSandboxPolicy,
  sandboxPolicyFromConfig,
} from './policy-from-config.js';
export type { SandboxConfigValues } from './policy-from-config.js';

export { defaultWorkspaceRoots, legacyWorkspacePolicy, workspaceFileSystemPolicy, workspacePermissionProfile } from './workspace-roots.js';

export { accessAt, isWithin, resolveSandboxPolicy } from './resolve-policy.js';
export type { PathRule, PathState, ResolveInput, ResolveOptions, ResolvedFileSystem, ResolvedPolicy, RuleAccess } from './resolve-policy.js';

export { bwrapArguments, planMounts } from './bwrap-args.js';
export type { BwrapArgumentOptions, MountOp, MountPlan } from './bwrap-args.js';

export {
  AF_UNIX,
  AF_VSOCK,
  SECCOMP_ARCHITECTURES,
  SECCOMP_RET_ALLOW,
  SECCOMP_RET_EPERM,
  buildSeccompFilter,
} from './seccomp-filter.js';
export type { SeccompArchitecture, SeccompNetworkMode } from './seccomp-filter.js';

export { PROBE_RETRY_TIMEOUT_MS, PROBE_TIMEOUT_MS, capabilityError, clearSandboxProbeCache, findBwrap, isWsl1KernelRelease, probeSandbox } from './probe.js';
export { sandboxStartupWarning } from './startup-warning.js';
export type { ProbeOptions, SandboxCapability } from './probe.js';

export { NETWORK_DISABLED_ENV, SECCOMP_FD, prepareSandboxedSpawn } from './prepare-spawn.js';
export type { PrepareOptions, SandboxRequest, SpawnSpec } from './prepare-spawn.js';

export { inlineExtraFds, releaseSandboxSpawn, spawnSandboxed } from './spawn-sandboxed.js';
export type { SpawnSandboxedOptions } from './spawn-sandboxed.js';

export { registerMountTargets, releaseMountTargets } from './mount-targets.js';
export type { MountTargetRegistration } from './mount-targets.js';

export { SANDBOX_EXEC_PATH, seatbeltArgv, seatbeltProfile } from './seatbelt-profile.js';
export type { SeatbeltProfile } from './seatbelt-profile.js';

export {
  WINDOWS_SANDBOX_ARG1,
  WINDOWS_SANDBOX_CAPABILITY,
  windowsDirectSpawnTransform,
  windowsSandboxRequest,
} from './windows-sandbox.js';
export type { AclChange, RestrictingSid, WindowsDirectSpawn, WindowsSandboxRequest } from './windows-sandbox.js';
