// Finds out whether this machine can confine a command: a system bwrap on PATH (never one inside the
// working directory), user namespaces, and the seccomp filter — by starting a real, empty sandbox.
// Failures become a capability that says why and what to do; results are cached per process. A bwrap
// that is merely slow (a loaded machine) is retried with a longer deadline, never taken for a broken one.
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { buildSeccompFilter } from './seccomp-filter.js';
import { SandboxUnavailableError, type SandboxUnavailableCode } from './sandbox-error.js';

/** What this machine offers for confinement. */
export type SandboxCapability =
  | {
      readonly available: true;
      readonly platform: 'linux';
      readonly mechanism: 'bubblewrap';
      readonly bwrapPath: string;
      readonly userNamespaces: true;
      readonly seccomp: true;
    }
  | { readonly available: true; readonly platform: 'darwin'; readonly mechanism: 'seatbelt'; readonly sandboxExecPath: string }
  | {
      readonly available: false;
      readonly platform: NodeJS.Platform;
      readonly code: SandboxUnavailableCode;
      /** Why confinement is impossible. */
      readonly reason: string;
      /** What the user can do about it. */
      readonly remedy: string;
    };

/** Options of {@link probeSandbox}; every default reads nothing global but `process.platform`/`arch`. */
export interface ProbeOptions {
  readonly platform?: NodeJS.Platform;
  readonly arch?: NodeJS.Architecture;
  /** Environment whose PATH is searched for bwrap. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The working directory; a bwrap inside it is never used. */
  readonly cwd?: string;
  /** Use this bwrap instead of searching PATH. */
  readonly bwrapPath?: string;
  /** The Linux kernel release (default: `/proc/sys/kernel/osrelease`); WSL1's is refused before bwrap is tried. */
  readonly kernelRelease?: string;
  /** The first deadline for each bwrap run; default {@link PROBE_TIMEOUT_MS}. */
  readonly timeoutMs?: number;
  /** The deadline of the one retry after a run missed the first; default {@link PROBE_RETRY_TIMEOUT_MS}. */
  readonly retryTimeoutMs?: number;
}

/** The first deadline for a bwrap run; one that misses it is retried with {@link PROBE_RETRY_TIMEOUT_MS}. */
export const PROBE_TIMEOUT_MS = 10_000;
/** The deadline of the retry: bwrap that has not started an empty sandbox by then is reported `BwrapTimedOut`. */
export const PROBE_RETRY_TIMEOUT_MS = 60_000;
// Enough of bwrap's stderr to explain a failure; the rest is noise.
const PROBE_STDERR_LIMIT = 4096;
const MACOS_SANDBOX_EXEC = '/usr/bin/sandbox-exec';

const cache = new Map<string, Promise<SandboxCapability>>();

/**
 * Probes (once per distinct platform, PATH, cwd and bwrap path in this process). A `BwrapTimedOut`
 * answer is not kept: the machine may be less loaded at the next call.
 */
export function probeSandbox(options: ProbeOptions = {}): Promise<SandboxCapability> {
  const platform = options.platform ?? process.platform;
  const key = JSON.stringify([platform, options.arch, options.env?.PATH, options.cwd, options.bwrapPath, options.kernelRelease, options.timeoutMs, options.retryTimeoutMs]);
  let probe = cache.get(key);
  if (probe === undefined) {
    const running = runProbe(platform, options);
    probe = running;
    cache.set(key, running);
    void running.then((capability) => {
      if (!capability.available && capability.code === 'BwrapTimedOut' && cache.get(key) === running) cache.delete(key);
    }, () => undefined);
  }
  return probe;
}

/** Forgets cached probe results (after installing bubblewrap, say). */
export function clearSandboxProbeCache(): void {
  cache.clear();
}

/** The error a caller should throw for an unavailable capability. */
export function capabilityError(capability: Extract<SandboxCapability, { available: false }>): SandboxUnavailableError {
  return new SandboxUnavailableError(capability.code, capability.reason, capability.remedy);
}

const unavailable = (platform: NodeJS.Platform, code: SandboxUnavailableCode, reason: string, remedy: string): SandboxCapability => ({
  available: false,
  platform,
  code,
  reason,
  remedy,
});

async function runProbe(platform: NodeJS.Platform, options: ProbeOptions): Promise<SandboxCapability> {
  switch (platform) {
    case 'linux':
      return probeLinux(options);
    case 'darwin':
      return existsSync(MACOS_SANDBOX_EXEC)
        ? { available: true, platform, mechanism: 'seatbelt', sandboxExecPath: MACOS_SANDBOX_EXEC }
        : unavailable(platform, 'UnsupportedPlatform', `${MACOS_SANDBOX_EXEC} is missing`, 'Seatbelt ships with macOS; restore the system file or run without a sandbox explicitly (danger-full-access)');
    case 'win32':
      return unavailable(
        platform,
        'WindowsRunnerUnavailable',
        'the Windows sandbox runner (skein --run-as-windows-sandbox) is not part of this build',
        'Run Skein inside WSL, where bubblewrap confines commands, or choose danger-full-access explicitly',
      );
    default:
      return unavailable(platform, 'UnsupportedPlatform', `no sandbox is available on '${platform}'`, 'Run on Linux (bubblewrap) or macOS (Seatbelt), or choose danger-full-access explicitly');
  }
}

const INSTALL_BWRAP =
  'Install bubblewrap: `apt-get install bubblewrap` (Debian, Ubuntu), `dnf install bubblewrap` (Fedora), `pacman -S bubblewrap` (Arch), `apk add bubblewrap` (Alpine)';

/**
 * Whether `release` is a WSL1 kernel's: WSL1 reports `…-Microsoft`, WSL2 `…-microsoft-standard…`.
 * WSL1 translates Linux system calls without user namespaces, so bubblewrap can never start there.
 */
export function isWsl1KernelRelease(release: string): boolean {
  const lower = release.toLowerCase();
  return lower.includes('microsoft') && !lower.includes('microsoft-standard');
}

/** Executable files named `bwrap` on PATH, skipping relative entries and anything inside `cwd`. */
export function findBwrap(env: Readonly<Record<string, string | undefined>>, cwd: string | undefined): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir.length === 0 || !path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, 'bwrap');
    // A workspace could plant its own "bwrap" that runs commands unconfined.
    if (cwd !== undefined && (candidate === cwd || candidate.startsWith(cwd.endsWith(path.sep) ? cwd : cwd + path.sep))) continue;
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      continue;
    }
  }
  return undefined;
}

async function probeLinux(options: ProbeOptions): Promise<SandboxCapability> {
  const release = options.kernelRelease ?? readSysctl('/proc/sys/kernel/osrelease') ?? '';
  if (isWsl1KernelRelease(release)) {
    return unavailable(
      'linux',
      'Wsl1Unsupported',
      `this is WSL1 (kernel ${release}), which cannot create the user namespaces bubblewrap needs to confine commands`,
      'Move the distribution to WSL2 (`wsl --set-version <distro> 2` in Windows), or choose danger-full-access explicitly',
    );
  }
  const env = options.env ?? {};
  const bwrap = options.bwrapPath ?? findBwrap(env, options.cwd);
  if (bwrap === undefined) {
    return unavailable('linux', 'BwrapNotFound', 'no bwrap executable was found on PATH (outside the working directory)', INSTALL_BWRAP);
  }
  const deadlines = [options.timeoutMs ?? PROBE_TIMEOUT_MS, options.retryTimeoutMs ?? PROBE_RETRY_TIMEOUT_MS] as const;
  let filter: Uint8Array;
  try {
    filter = buildSeccompFilter('restricted', options.arch ?? process.arch);
  } catch (error) {
    if (error instanceof SandboxUnavailableError) return unavailable('linux', error.code, error.message, error.remedy);
    throw error;
  }
  const shell = existsSync('/bin/sh') ? ['/bin/sh', '-c', ':'] : [process.execPath, '-e', ''];
  // One bwrap run when it works: each spawn holds the main thread ~2 ms while the process forks, and
  // `skein exec-server` probes as it starts (issue #18).
  const trial = await runBwrapPatiently(
    bwrap,
    ['--new-session', '--die-with-parent', '--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-net', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--seccomp', '3', '--cap-drop', 'ALL', '--', ...shell],
    filter,
    deadlines,
  );
  if (trial.timedOut) return timedOut(bwrap, 'an empty sandbox', deadlines);
  if (trial.code === 0) return { available: true, platform: 'linux', mechanism: 'bubblewrap', bwrapPath: bwrap, userNamespaces: true, seccomp: true };
  // It failed: `--version` tells a bwrap that cannot run at all from one that cannot confine here.
  const version = await runBwrapPatiently(bwrap, ['--version'], undefined, deadlines);
  if (version.timedOut) return timedOut(bwrap, '--version', deadlines);
  if (version.code !== 0) {
    return unavailable('linux', 'BwrapFailed', `${bwrap} --version failed: ${version.stderr.trim() || `exit ${String(version.code)}`}`, INSTALL_BWRAP);
  }
  return classifyFailure(bwrap, trial.stderr, trial.code);
}

function readSysctl(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** Turns bwrap's complaint into a code and a remedy the user can act on. */
function classifyFailure(bwrap: string, stderr: string, code: number | null): SandboxCapability {
  const said = stderr.trim() || `exit ${String(code)}`;
  if (/seccomp/i.test(stderr)) {
    return unavailable('linux', 'SeccompUnavailable', `${bwrap} could not install the seccomp network filter: ${said}`, 'Use a kernel built with CONFIG_SECCOMP_FILTER, and run outside containers that forbid seccomp (docker: --security-opt seccomp=unconfined)');
  }
  if (/namespace|uid map|unshare|Operation not permitted|Permission denied/i.test(stderr)) {
    const remedies: string[] = [];
    if (readSysctl('/proc/sys/kernel/unprivileged_userns_clone') === '0') remedies.push('`sysctl -w kernel.unprivileged_userns_clone=1`');
    if (readSysctl('/proc/sys/user/max_user_namespaces') === '0') remedies.push('`sysctl -w user.max_user_namespaces=15000`');
    if (readSysctl('/proc/sys/kernel/apparmor_restrict_unprivileged_userns') === '1') {
      remedies.push('`sysctl -w kernel.apparmor_restrict_unprivileged_userns=0` (or install an AppArmor profile that allows bwrap to create user namespaces)');
    }
    const how = remedies.length > 0 ? remedies.join(' and ') : 'enable unprivileged user namespaces (`sysctl -w kernel.unprivileged_userns_clone=1`; on Ubuntu 24.04+ also `kernel.apparmor_restrict_unprivileged_userns=0`); inside a container, allow them (docker: --security-opt seccomp=unconfined --security-opt apparmor=unconfined)';
    return unavailable('linux', 'UserNamespacesDenied', `${bwrap} cannot create the user namespace it needs: ${said}`, `Allow user namespaces: ${how}`);
  }
  return unavailable('linux', 'BwrapFailed', `${bwrap} could not start an empty sandbox: ${said}`, 'Check that bubblewrap works: `bwrap --ro-bind / / --unshare-user --unshare-net -- true`');
}

/** Slow is not broken: a bwrap that never finished says nothing about whether it would have worked. */
function timedOut(bwrap: string, what: string, [first, retry]: readonly [number, number]): SandboxCapability {
  return unavailable(
    'linux',
    'BwrapTimedOut',
    `${bwrap} did not finish ${what} within ${seconds(first)} s, nor within ${seconds(retry)} s when retried; the machine is too loaded to tell whether it can confine commands`,
    'Try again when the machine is less busy; if bwrap is slow even on an idle machine, check it by hand: `bwrap --ro-bind / / --unshare-user --unshare-net -- true`',
  );
}

const seconds = (ms: number): string => String(Math.round(ms / 100) / 10);

interface BwrapRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Killed at its deadline rather than finished. */
  readonly timedOut: boolean;
}

/** Runs bwrap with the first deadline and, only if it missed it, once more with the longer one. */
async function runBwrapPatiently(bwrap: string, args: readonly string[], fd3: Uint8Array | undefined, [first, retry]: readonly [number, number]): Promise<BwrapRun> {
  const run = await runBwrap(bwrap, args, fd3, first);
  return run.timedOut ? runBwrap(bwrap, args, fd3, retry) : run;
}

function runBwrap(bwrap: string, args: readonly string[], fd3: Uint8Array | undefined, timeoutMs: number): Promise<BwrapRun> {
  return new Promise((resolve) => {
    const child = spawn(bwrap, [...args], { stdio: fd3 === undefined ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe', 'pipe'], env: {} });
    let stdout = '';
    let stderr = '';
    const keep = (buffer: string, chunk: Buffer): string => (buffer.length >= PROBE_STDERR_LIMIT ? buffer : (buffer + chunk.toString('utf8')).slice(0, PROBE_STDERR_LIMIT));
    child.stdout?.on('data', (chunk: Buffer) => (stdout = keep(stdout, chunk)));
    child.stderr?.on('data', (chunk: Buffer) => (stderr = keep(stderr, chunk)));
    if (fd3 !== undefined) {
      const pipe = child.stdio[3] as NodeJS.WritableStream & { on(event: 'error', listener: () => void): void };
      pipe.on('error', () => undefined);
      pipe.end(Buffer.from(fd3));
    }
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: -1, stdout, stderr: error.message, timedOut: false });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut: killed });
    });
  });
}
