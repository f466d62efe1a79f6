// The `--ws-auth` flags, shared by every server that listens on WebSocket (exec-server, app-server):
// `capability-token` with `--ws-token-file` or `--ws-token-sha256`, or `signed-bearer-token` with
// `--ws-shared-secret-file` (and optionally `--ws-issuer`, `--ws-audience`,
// `--ws-max-clock-skew-seconds`). A flag that belongs to the other mode is refused, as Codex does.
import { CapabilityToken } from './capability-token.js';
import { SignedBearerToken } from './signed-bearer-token.js';
import type { UpgradeAuth } from './upgrade-auth.js';

/** The flags as a program parsed them. */
export interface WebSocketAuthFlags {
  /** `capability-token` or `signed-bearer-token` to require a bearer token on WebSocket upgrades. */
  readonly wsAuth?: string | undefined;
  /** File holding the capability token (relative to the working directory). */
  readonly wsTokenFile?: string | undefined;
  /** Hex SHA-256 of the capability token, instead of the token file. */
  readonly wsTokenSha256?: string | undefined;
  /** File holding the HS256 secret signed bearer tokens are verified with. */
  readonly wsSharedSecretFile?: string | undefined;
  readonly wsIssuer?: string | undefined;
  readonly wsAudience?: string | undefined;
  /** Seconds of clock skew allowed on `exp` and `nbf` (default 30), as given on the command line. */
  readonly wsMaxClockSkewSeconds?: string | undefined;
}

/**
 * The auth the flags ask for (undefined: none). A flag combination that makes no sense is reported
 * through `fail`, so each program throws its own settings error.
 */
export async function resolveWebSocketAuth(flags: WebSocketAuthFlags, cwd: string, fail: (message: string) => Error): Promise<UpgradeAuth | undefined> {
  const tokenFlags = flags.wsTokenFile !== undefined || flags.wsTokenSha256 !== undefined;
  const signedFlags = flags.wsSharedSecretFile !== undefined || flags.wsIssuer !== undefined || flags.wsAudience !== undefined || flags.wsMaxClockSkewSeconds !== undefined;
  if (flags.wsAuth !== 'capability-token' && tokenFlags) {
    throw fail(`\`--ws-token-file\` and \`--ws-token-sha256\` require \`--ws-auth capability-token\`${flags.wsAuth === undefined ? '' : `, not \`${flags.wsAuth}\``}`);
  }
  if (flags.wsAuth !== 'signed-bearer-token' && signedFlags) {
    throw fail('`--ws-shared-secret-file`, `--ws-issuer`, `--ws-audience`, and `--ws-max-clock-skew-seconds` require `--ws-auth signed-bearer-token`');
  }
  switch (flags.wsAuth) {
    case undefined:
      return undefined;
    case 'capability-token':
      if (flags.wsTokenFile !== undefined && flags.wsTokenSha256 !== undefined) throw fail('pass either `--ws-token-file` or `--ws-token-sha256`, not both');
      if (flags.wsTokenFile !== undefined) return CapabilityToken.fromTokenFile(flags.wsTokenFile, cwd);
      if (flags.wsTokenSha256 !== undefined) return CapabilityToken.fromSha256(flags.wsTokenSha256);
      throw fail('`--ws-token-file` or `--ws-token-sha256` is required when `--ws-auth capability-token` is set');
    case 'signed-bearer-token': {
      if (flags.wsSharedSecretFile === undefined) throw fail('`--ws-shared-secret-file` is required when `--ws-auth signed-bearer-token` is set');
      const skew = flags.wsMaxClockSkewSeconds;
      if (skew !== undefined && !/^\d+$/.test(skew)) throw fail(`--ws-max-clock-skew-seconds must be a whole number of seconds, got '${skew}'`);
      return SignedBearerToken.fromSecretFile(flags.wsSharedSecretFile, cwd, {
        issuer: flags.wsIssuer,
        audience: flags.wsAudience,
        maxClockSkewSeconds: skew === undefined ? undefined : Number(skew),
      });
    }
    default:
      throw fail(`unsupported --ws-auth \`${flags.wsAuth}\`; use \`capability-token\` or \`signed-bearer-token\``);
  }
}
