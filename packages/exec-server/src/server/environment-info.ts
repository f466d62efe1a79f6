// What `initialize` and `environment/info` report about this machine, in Codex 0.171.0's shape.
import { createHash } from 'node:crypto';
import { hostname, tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import type { EnvironmentInfo } from '../protocol/messages.js';
import { fromNativePath } from '../local/native-path.js';

/**
 * The Codex release whose exec-server protocol this server speaks. Codex clients read
 * `executorVersion` to decide what they may ask for, so it names the protocol, not Skein's version.
 */
export const EXEC_SERVER_PROTOCOL_VERSION = '0.171.0';

/** Inputs that vary per server. */
export interface EnvironmentInfoOptions {
  /** The server's working directory. */
  readonly cwd: string;
  /** Whether sandboxed fs calls and processes can run here. */
  readonly sandboxAvailable: boolean;
}

/** The passwd entry of this user, once per call (a lookup that can take a millisecond); in a container
 * that runs an unlisted uid there is none, and $HOME and the POSIX shell stand in. */
function thisUser(): { readonly uid: number; readonly home: string; readonly shell: string } {
  try {
    const user = userInfo();
    return { uid: user.uid, home: user.homedir, shell: user.shell !== null && user.shell !== '' ? user.shell : '/bin/sh' };
  } catch {
    return { uid: process.getuid?.() ?? -1, home: process.env.HOME ?? '', shell: '/bin/sh' };
  }
}

/** The environment description for this host. */
export function describeEnvironment(options: EnvironmentInfoOptions): EnvironmentInfo {
  const { uid, home, shell } = thisUser();
  const temp = tmpdir();
  // A stable, opaque identity for "this user on this machine", as Codex's `sha256:` provider id.
  const providerId = `sha256:${createHash('sha256').update(`${hostname()}\0${uid}\0${home}`).digest('hex')}`;
  return {
    shell: { name: path.basename(shell), path: shell },
    executorVersion: EXEC_SERVER_PROTOCOL_VERSION,
    providerId,
    cwd: fromNativePath(options.cwd).toString(),
    userHomeDir: home === '' ? null : fromNativePath(home).toString(),
    platformOs: process.platform === 'darwin' ? 'macos' : process.platform === 'win32' ? 'windows' : process.platform,
    prependPathDirs: [],
    temporaryDirectories: [],
    tempDir: fromNativePath(temp).toString(),
    // Only what this server implements is claimed; Codex clients skip what is reported false.
    capabilities: {
      networkProxyLaunch: false,
      networkProxyReviewDomains: false,
      networkProxyTransparentTcp: false,
      credentialMasking: false,
      credentialMaskingCustomProviders: false,
      capabilityDiscoverySandbox: options.sandboxAvailable,
      fsWatchMissing: false,
      capabilityDiscoveryV2: false,
      environmentConfigRead: false,
      httpHeaderEnvVars: false,
      sandboxedFileStreaming: options.sandboxAvailable,
      fileWriteStreaming: false,
      shellSnapshotV2: false,
      windowsMxc: false,
      linuxRootWritePreservesDevices: false,
      linuxApprovedRootWritePreservesRestrictions: false,
    },
  };
}
