// Signed-bearer-token authentication for WebSocket clients, as Codex's `--ws-auth
// signed-bearer-token`: a client sends `Authorization: Bearer <JWT>`, an HS256 token signed with a
// shared secret (at least 32 bytes, read from a file), which must carry `exp` and, when configured,
// the expected `iss` and `aud`; `exp` and `nbf` are checked with a bounded clock skew.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type * as Jose from 'jose';
import { bearerToken, MISSING_BEARER_TOKEN, type UpgradeAuth } from './upgrade-auth.js';

/** Why a signed-bearer-token configuration was refused. */
export class SignedBearerTokenError extends Error {
  override readonly name = 'SignedBearerTokenError';
  constructor(
    readonly code: 'UnreadableSecretFile' | 'ShortSecret' | 'BadClockSkew',
    message: string,
  ) {
    super(message);
  }
}

/** What the tokens are checked against besides the signature. */
export interface SignedBearerTokenOptions {
  readonly issuer?: string | undefined;
  readonly audience?: string | undefined;
  /** Default 30, as Codex. */
  readonly maxClockSkewSeconds?: number | undefined;
}

/** HMAC keys shorter than this are refused (Codex's minimum). */
export const MIN_SECRET_BYTES = 32;
const DEFAULT_CLOCK_SKEW_SECONDS = 30;

// jose is loaded by the first server configured for signed tokens, not by every program that can
// listen (it is ~10 modules the exec-server's start-up would otherwise compile).
let joseModule: Promise<typeof Jose> | undefined;
const loadJose = (): Promise<typeof Jose> => (joseModule ??= import('jose'));

/** Verifies HS256 JWT bearer tokens signed with one shared secret. */
export class SignedBearerToken implements UpgradeAuth {
  private constructor(
    private readonly secret: Uint8Array,
    private readonly options: SignedBearerTokenOptions,
    private readonly now: () => Date,
  ) {}

  /** From the secret itself (surrounding whitespace, such as a file's final newline, is ignored). */
  static fromSecret(secret: string, options: SignedBearerTokenOptions = {}, now: () => Date = () => new Date()): SignedBearerToken {
    const bytes = new TextEncoder().encode(secret.trim());
    if (bytes.length < MIN_SECRET_BYTES) throw new SignedBearerTokenError('ShortSecret', `the signed websocket bearer secret must be at least ${MIN_SECRET_BYTES} bytes`);
    const skew = options.maxClockSkewSeconds;
    if (skew !== undefined && (!Number.isInteger(skew) || skew < 0)) {
      throw new SignedBearerTokenError('BadClockSkew', `--ws-max-clock-skew-seconds must be a whole number of seconds, got ${skew}`);
    }
    // Loaded now so the first client's upgrade does not wait for it; a failure surfaces there.
    loadJose().catch(() => undefined);
    return new SignedBearerToken(bytes, options, now);
  }

  /** From a file holding the secret; a relative path is resolved against `cwd`. */
  static async fromSecretFile(file: string, cwd: string, options: SignedBearerTokenOptions = {}): Promise<SignedBearerToken> {
    const resolved = path.resolve(cwd, file);
    let text: string;
    try {
      text = await readFile(resolved, 'utf8');
    } catch (error) {
      throw new SignedBearerTokenError('UnreadableSecretFile', `failed to read the shared secret file ${resolved}: ${(error as Error).message}`);
    }
    try {
      return SignedBearerToken.fromSecret(text, options);
    } catch (error) {
      if (error instanceof SignedBearerTokenError && error.code === 'ShortSecret') {
        throw new SignedBearerTokenError('ShortSecret', `signed websocket bearer secret ${resolved} must be at least ${MIN_SECRET_BYTES} bytes`);
      }
      throw error;
    }
  }

  async refusal(authorization: string | undefined): Promise<string | undefined> {
    const token = bearerToken(authorization);
    if (token === undefined) return MISSING_BEARER_TOKEN;
    if (token === null) return 'invalid websocket jwt';
    const { errors, jwtVerify } = await loadJose();
    try {
      await jwtVerify(token, this.secret, {
        algorithms: ['HS256'],
        requiredClaims: ['exp'],
        clockTolerance: this.options.maxClockSkewSeconds ?? DEFAULT_CLOCK_SKEW_SECONDS,
        currentDate: this.now(),
        ...(this.options.issuer === undefined ? {} : { issuer: this.options.issuer }),
        ...(this.options.audience === undefined ? {} : { audience: this.options.audience }),
      });
      return undefined;
    } catch (error) {
      return refusalFor(error, errors);
    }
  }
}

/** Codex's reasons, by what the verification found. */
function refusalFor(error: unknown, errors: typeof Jose.errors): string {
  if (error instanceof errors.JWTExpired) return 'expired websocket jwt';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'nbf') return 'websocket jwt is not valid yet';
    if (error.claim === 'iss') return 'websocket jwt issuer mismatch';
    if (error.claim === 'aud') return 'websocket jwt audience mismatch';
  }
  return 'invalid websocket jwt';
}
