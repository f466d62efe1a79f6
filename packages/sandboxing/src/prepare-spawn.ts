// The entry point executors call: policy + command → exactly what to spawn. Linux gets bubblewrap with
// a seccomp program on fd 3, macOS gets sandbox-exec; anything that cannot be confined as asked throws
// SandboxUnavailableError — a command never runs unconfined unless the policy says so.
import { lstatSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { CoreSandboxPolicy, FileSystemSandboxPolicy } from '@skein/protocol/executor';
import { bwrapArguments, planMounts, type MountPlan } from './bwrap-args.js';
import { liveMountTargets, registerMountTargets, withRegistryLockAsync, type MountTargetRegistration } from './mount-targets.js';
import { capabilityError, probeSandbox, type SandboxCapability } from './probe.js';
import { resolveSandboxPolicy } from './resolve-policy.js';
import { SandboxUnavailableError } from './sandbox-error.js';
import { seatbeltArgv, seatbeltProfile } from './seatbelt-profile.js';
import { buildSeccompFilter } from './seccomp-filter.js';

/** What to confine: the policy, the optional split filesystem policy, where, and with which environment. */
export interface SandboxRequest {
  readonly policy: CoreSandboxPolicy;
  /** The split filesystem policy; when present it decides filesystem access (network still follows `policy`). */
  readonly fileSystemPolicy?: FileSystemSandboxPolicy;
  /** Absolute; the workspace for workspace-write and the command's working directory. */
  readonly cwd: string;
  /** The command's environment; `TMPDIR` is read from here, never from `process.env`. */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** What the caller spawns. */
export interface SpawnSpec {
  /** `[program, ...args]`; for an unconfined policy, the command itself. */
  readonly argv: readonly string[];
  /** Extra environment variables for the child, on top of the request's environment. */
  readonly env: Readonly<Record<string, string>>;
  /**
   * Bytes the spawner supplies on fds 3, 4, …: spawn with one extra `'pipe'` per entry, write it, end
   * it. {@link spawnSandboxed} does this; {@link inlineExtraFds} folds them into argv for PTY spawners.
   */
  readonly extraFds: readonly Uint8Array[];
  /** Whether `argv` confines the command. */
  readonly sandboxed: boolean;
  /**
   * Empty directories bubblewrap creates on the host to mask missing protected paths; release them
   * with {@link releaseSandboxSpawn} once the child has exited ({@link spawnSandboxed} does).
   */
  readonly mountTargets?: MountTargetRegistration;
}

/** Options of {@link prepareSandboxedSpawn}. */
export interface PrepareOptions {
  readonly platform?: NodeJS.Platform;
  readonly arch?: NodeJS.Architecture;
  /** A probe result to use instead of probing. */
  readonly capability?: SandboxCapability;
  /**
   * Where sandbox bookkeeping lives; default `/tmp/skein-sandbox-<uid>`. Masks under `/tmp` are shared
   * by every sandbox of the user, so the bookkeeping must be too: it never follows a request's `TMPDIR`.
   */
  readonly stateDir?: string;
}

/** The environment variable Codex sets (and tools check) when the sandbox has no network. */
export const NETWORK_DISABLED_ENV = 'CODEX_SANDBOX_NETWORK_DISABLED';
/** The fd bubblewrap reads the seccomp program from: the first extra fd. */
export const SECCOMP_FD = 3;

function parseRequest(request: SandboxRequest, command: readonly string[]): SandboxRequest {
  if (command.length === 0 || command[0] === '') {
    throw new SandboxUnavailableError('InvalidRequest', 'the sandbox command is empty', 'Pass the program to run and its arguments');
  }
  const policy = CoreSandboxPolicy.safeParse(request.policy);
  if (!policy.success) throw new SandboxUnavailableError('InvalidRequest', `invalid sandbox policy: ${policy.error.message}`, 'Pass a policy in Codex\'s core form (type: read-only | workspace-write | danger-full-access | external-sandbox)');
  const fileSystemPolicy = request.fileSystemPolicy === undefined ? undefined : FileSystemSandboxPolicy.safeParse(request.fileSystemPolicy);
  if (fileSystemPolicy !== undefined && !fileSystemPolicy.success) {
    throw new SandboxUnavailableError('InvalidRequest', `invalid filesystem policy: ${fileSystemPolicy.error.message}`, 'Pass a split policy with kind and entries');
  }
  return { ...request, policy: policy.data, ...(fileSystemPolicy === undefined ? {} : { fileSystemPolicy: fileSystemPolicy.data }) };
}

/**
 * Creates `dir` (kept read-only inside writable roots, so it exists before resolution) and returns
 * it when it is a real directory of ours that nobody else can write: in a shared /tmp another user
 * could have made it first, and could then remove the markers that keep masks alive.
 */
function ownedStateDir(dir: string): string | undefined {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stats = lstatSync(dir);
    const uid = process.getuid?.();
    if (!stats.isDirectory() || (uid !== undefined && stats.uid !== uid) || (stats.mode & 0o022) !== 0) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

function defaultStateDir(): string {
  return path.join('/tmp', `skein-sandbox-${process.getuid?.() ?? 'user'}`);
}

/**
 * Turns `command` into what to spawn under `request`. Probes the machine unless given a capability.
 *
 * @example
 * const spec = await prepareSandboxedSpawn({ policy: { type: 'read-only' }, cwd, env }, ['ls', '-la']);
 * const child = spawnSandboxed(spec, { cwd, env });
 */
export async function prepareSandboxedSpawn(request: SandboxRequest, command: readonly string[], options: PrepareOptions = {}): Promise<SpawnSpec> {
  const parsed = parseRequest(request, command);
  const platform = options.platform ?? process.platform;
  const stateDir = options.stateDir ?? defaultStateDir();
  // Bookkeeping only: without a usable directory, masks for missing protected paths are left behind.
  const registryDir = platform === 'linux' ? ownedStateDir(stateDir) : undefined;
  const resolve = () => resolveSandboxPolicy(parsed, { platform, extraProtectedPaths: platform === 'linux' ? [stateDir] : [] });
  const resolved = resolve();
  const fileSystemFree = resolved.fileSystem.kind === 'unrestricted';
  if (resolved.external || (fileSystemFree && resolved.network === 'enabled')) {
    return { argv: [...command], env: {}, extraFds: [], sandboxed: false };
  }
  const env: Record<string, string> = resolved.network === 'restricted' ? { [NETWORK_DISABLED_ENV]: '1' } : {};

  const capability = options.capability ?? (await probeSandbox({ platform, ...(options.arch === undefined ? {} : { arch: options.arch }), env: parsed.env, cwd: parsed.cwd }));
  if (!capability.available) throw capabilityError(capability);
  switch (capability.platform) {
    case 'linux': {
      // What is on disk, the plan made from it and the registration must agree: under the registry
      // lock no other sandbox's release can remove a mask between this plan and its registration.
      const claim = (): { plan: MountPlan; mountTargets: MountTargetRegistration | undefined } => {
        const plan = planMounts((registryDir === undefined ? resolved : resolve()).fileSystem);
        if (registryDir === undefined) return { plan, mountTargets: undefined };
        // Masks another live sandbox created are bound here as existing paths: hold them too.
        const existing = plan.ops.flatMap((op) => (op.op === 'ro-bind' || (op.op === 'mask-dir' && !op.synthetic) ? [op.path] : []));
        const targets = [...new Set([...plan.syntheticTargets, ...liveMountTargets(registryDir, existing)])];
        return { plan, mountTargets: targets.length > 0 ? registerMountTargets(registryDir, targets) : undefined };
      };
      const { plan, mountTargets } = registryDir === undefined ? claim() : await withRegistryLockAsync(registryDir, claim);
      const filter = buildSeccompFilter(resolved.network === 'restricted' ? 'restricted' : 'vsock-only', options.arch ?? process.arch);
      const args = bwrapArguments(plan, command, { shareNetwork: resolved.network === 'enabled', seccompFd: SECCOMP_FD });
      return { argv: [capability.bwrapPath, ...args], env, extraFds: [filter], sandboxed: true, ...(mountTargets === undefined ? {} : { mountTargets }) };
    }
    case 'darwin':
      return { argv: seatbeltArgv(seatbeltProfile(resolved), command), env: { ...env, CODEX_SANDBOX: 'seatbelt' }, extraFds: [], sandboxed: true };
  }
}
