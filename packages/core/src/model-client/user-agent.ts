// The `user-agent` of model requests (and the app-server's initialize response), shaped like Codex's:
// `<client>/<version> (<os> <release>; <arch>) <terminal> (<client>; <client version>)`.
import os from 'node:os';
import type { ClientInfo } from '@skein/protocol';

const ARCH: Readonly<Record<string, string>> = { x64: 'x86_64', arm64: 'aarch64', ia32: 'x86', arm: 'arm' };

/** Where the user agent's facts come from (injected so tests can pin them). */
export interface UserAgentHost {
  readonly osType: string;
  readonly osRelease: string;
  readonly arch: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** This machine's facts. */
export function localUserAgentHost(env: Readonly<Record<string, string | undefined>>): UserAgentHost {
  return { osType: os.type(), osRelease: os.release(), arch: os.arch(), env };
}

/** The user agent for a client, naming the server `version` and the terminal the server runs in. */
export function userAgent(client: ClientInfo, version: string, host: UserAgentHost): string {
  const terminal = host.env.TERM_PROGRAM ?? host.env.TERM ?? 'unknown';
  const arch = ARCH[host.arch] ?? host.arch;
  return `${client.name}/${version} (${host.osType} ${host.osRelease}; ${arch}) ${terminal} (${client.name}; ${client.version})`;
}
