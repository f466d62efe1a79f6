// Capability-token authentication for WebSocket clients: the token (from a file) or only its SHA-256
// is configured, and a client proves it holds the token with `Authorization: Bearer <token>`.
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { bearerToken, MISSING_BEARER_TOKEN, type UpgradeAuth } from './upgrade-auth.js';

/** Why a capability-token configuration was refused. */
export class CapabilityTokenError extends Error {
  override readonly name = 'CapabilityTokenError';
  constructor(
    readonly code: 'EmptyToken' | 'BadDigest' | 'UnreadableTokenFile',
    message: string,
  ) {
    super(message);
  }
}

/** The outcome of checking an upgrade request's Authorization header. */
export type TokenCheck = 'ok' | 'missing' | 'invalid';

/** Verifies bearer tokens against a configured SHA-256 digest, in constant time. */
export class CapabilityToken implements UpgradeAuth {
  private constructor(private readonly digest: Buffer) {}

  /** From the token itself (surrounding whitespace, such as a file's final newline, is ignored). */
  static fromToken(token: string): CapabilityToken {
    const trimmed = token.trim();
    if (trimmed === '') throw new CapabilityTokenError('EmptyToken', 'the capability token is empty');
    return new CapabilityToken(createHash('sha256').update(trimmed).digest());
  }

  /** From a file holding the token; a relative path is resolved against `cwd`. */
  static async fromTokenFile(file: string, cwd: string): Promise<CapabilityToken> {
    const resolved = path.resolve(cwd, file);
    let text: string;
    try {
      text = await readFile(resolved, 'utf8');
    } catch (error) {
      throw new CapabilityTokenError('UnreadableTokenFile', `failed to read the capability-token file ${resolved}: ${(error as Error).message}`);
    }
    return CapabilityToken.fromToken(text);
  }

  /** From the hex SHA-256 digest of the token, so the server never holds the token itself. */
  static fromSha256(hex: string): CapabilityToken {
    if (!/^[0-9a-fA-F]{64}$/.test(hex.trim())) {
      throw new CapabilityTokenError('BadDigest', '--ws-token-sha256 must be 64 hex digits (the SHA-256 of the token)');
    }
    return new CapabilityToken(Buffer.from(hex.trim(), 'hex'));
  }

  /** Checks an `Authorization` header value. */
  check(authorization: string | undefined): TokenCheck {
    const token = bearerToken(authorization);
    if (token === undefined) return 'missing';
    if (token === null) return 'invalid';
    const presented = createHash('sha256').update(token).digest();
    return timingSafeEqual(presented, this.digest) ? 'ok' : 'invalid';
  }

  refusal(authorization: string | undefined): Promise<string | undefined> {
    const check = this.check(authorization);
    return Promise.resolve(check === 'ok' ? undefined : check === 'missing' ? MISSING_BEARER_TOKEN : 'invalid websocket bearer token');
  }
}
