// The `--ws-auth` / `--ws-token-file` / `--ws-token-sha256` flags, shared by every server that
// listens on WebSocket (exec-server, app-server): which capability token, if any, clients must bear.
import { CapabilityToken } from './capability-token.js';

/** The flags as a program parsed them. */
export interface WebSocketAuthFlags {
  /** `capability-token` to require a bearer token on WebSocket upgrades. */
  readonly wsAuth?: string | undefined;
  /** File holding the token (relative to the working directory). */
  readonly wsTokenFile?: string | undefined;
  /** Hex SHA-256 of the token, instead of the token file. */
  readonly wsTokenSha256?: string | undefined;
}

/**
 * The token the flags ask for (undefined: no auth). A flag combination that makes no sense is
 * reported through `fail`, so each program throws its own settings error.
 */
export async function resolveWebSocketAuth(flags: WebSocketAuthFlags, cwd: string, fail: (message: string) => Error): Promise<CapabilityToken | undefined> {
  const hasTokenFlag = flags.wsTokenFile !== undefined || flags.wsTokenSha256 !== undefined;
  if (flags.wsAuth === undefined) {
    if (hasTokenFlag) throw fail('websocket auth flags require `--ws-auth capability-token`');
    return undefined;
  }
  if (flags.wsAuth !== 'capability-token') throw fail(`unsupported --ws-auth \`${flags.wsAuth}\`; Skein supports \`capability-token\``);
  if (flags.wsTokenFile !== undefined && flags.wsTokenSha256 !== undefined) throw fail('pass either `--ws-token-file` or `--ws-token-sha256`, not both');
  if (flags.wsTokenFile !== undefined) return CapabilityToken.fromTokenFile(flags.wsTokenFile, cwd);
  if (flags.wsTokenSha256 !== undefined) return CapabilityToken.fromSha256(flags.wsTokenSha256);
  throw fail('`--ws-token-file` or `--ws-token-sha256` is required when `--ws-auth capability-token` is set');
}
