// Signed bearer tokens checked as Codex checks them (recorded against `codex app-server --ws-auth
// signed-bearer-token`): HS256 only, `exp` required, 30 s of skew by default, `nbf`, `iss` and `aud`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SignJWT, type JWTPayload } from 'jose';
import { describe, expect, it } from 'vitest';
import { SignedBearerToken, SignedBearerTokenError } from './signed-bearer-token.js';
import { resolveWebSocketAuth } from './websocket-auth.js';

const SECRET = 'a-shared-secret-of-at-least-32-bytes!';
const NOW = new Date('2026-12-01T12:00:00Z');
const nowSeconds = NOW.getTime() / 1000;
const key = new TextEncoder().encode(SECRET);

const jwt = (claims: JWTPayload, alg = 'HS256', secret = key) => new SignJWT(claims).setProtectedHeader({ alg }).sign(secret);
const bearer = async (claims: JWTPayload, alg?: string, secret?: typeof key) => `Bearer ${await jwt(claims, alg, secret)}`;

describe('SignedBearerToken', () => {
  const verifier = SignedBearerToken.fromSecret(`${SECRET}\n`, {}, () => NOW);

  it('accepts an HS256 token with a future exp, signed with the trimmed secret', async () => {
    expect(await verifier.refusal(await bearer({ exp: nowSeconds + 60 }))).toBeUndefined();
    expect(await verifier.refusal(await bearer({ exp: nowSeconds + 60, iss: 'anyone', aud: 'anything' }))).toBeUndefined();
  });

  it('refuses with the reason Codex gives', async () => {
    expect(await verifier.refusal(undefined)).toMatch(/^missing websocket bearer token/);
    expect(await verifier.refusal('Basic abc')).toBe('invalid websocket jwt');
    expect(await verifier.refusal('Bearer abc.def.ghi')).toBe('invalid websocket jwt');
    expect(await verifier.refusal(await bearer({}))).toBe('invalid websocket jwt');
    expect(await verifier.refusal(await bearer({ exp: nowSeconds + 60 }, 'HS512'))).toBe('invalid websocket jwt');
    expect(await verifier.refusal(await bearer({ exp: nowSeconds + 60 }, 'HS256', new TextEncoder().encode(`${SECRET}x`)))).toBe('invalid websocket jwt');
    expect(await verifier.refusal(await bearer({ exp: nowSeconds - 35 }))).toBe('expired websocket jwt');
    expect(await verifier.refusal(await bearer({ exp: nowSeconds + 600, nbf: nowSeconds + 300 }))).toBe('websocket jwt is not valid yet');
  });

  it('allows 30 seconds of clock skew by default, and the skew it is given', async () => {
    expect(await verifier.refusal(await bearer({ exp: nowSeconds - 25 }))).toBeUndefined();
    const strict = SignedBearerToken.fromSecret(SECRET, { maxClockSkewSeconds: 5 }, () => NOW);
    expect(await strict.refusal(await bearer({ exp: nowSeconds - 25 }))).toBe('expired websocket jwt');
  });

  it('checks the issuer and audience it is given; an audience list may contain it', async () => {
    const scoped = SignedBearerToken.fromSecret(SECRET, { issuer: 'me', audience: 'you' }, () => NOW);
    expect(await scoped.refusal(await bearer({ exp: nowSeconds + 60, iss: 'me', aud: 'you' }))).toBeUndefined();
    expect(await scoped.refusal(await bearer({ exp: nowSeconds + 60, iss: 'me', aud: ['other', 'you'] }))).toBeUndefined();
    expect(await scoped.refusal(await bearer({ exp: nowSeconds + 60, iss: 'other', aud: 'you' }))).toBe('websocket jwt issuer mismatch');
    expect(await scoped.refusal(await bearer({ exp: nowSeconds + 60, aud: 'you' }))).toBe('websocket jwt issuer mismatch');
    expect(await scoped.refusal(await bearer({ exp: nowSeconds + 60, iss: 'me', aud: 'other' }))).toBe('websocket jwt audience mismatch');
  });

  it('refuses a secret shorter than 32 bytes and a file it cannot read', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'skein-jwt-'));
    try {
      writeFileSync(path.join(dir, 'short'), 'short\n');
      await expect(SignedBearerToken.fromSecretFile('short', dir)).rejects.toMatchObject({ code: 'ShortSecret', message: `signed websocket bearer secret ${path.join(dir, 'short')} must be at least 32 bytes` });
      await expect(SignedBearerToken.fromSecretFile('missing', dir)).rejects.toBeInstanceOf(SignedBearerTokenError);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('resolveWebSocketAuth', () => {
  const fail = (message: string) => new Error(message);

  it('refuses the flags of one mode with the other, and a mode without its secret', async () => {
    await expect(resolveWebSocketAuth({ wsAuth: 'capability-token', wsTokenFile: 't', wsSharedSecretFile: 's' }, '/', fail)).rejects.toThrow(/require `--ws-auth signed-bearer-token`/);
    await expect(resolveWebSocketAuth({ wsAuth: 'signed-bearer-token', wsSharedSecretFile: 's', wsTokenFile: 't' }, '/', fail)).rejects.toThrow(
      '`--ws-token-file` and `--ws-token-sha256` require `--ws-auth capability-token`, not `signed-bearer-token`',
    );
    await expect(resolveWebSocketAuth({ wsAuth: 'signed-bearer-token' }, '/', fail)).rejects.toThrow('`--ws-shared-secret-file` is required when `--ws-auth signed-bearer-token` is set');
    await expect(resolveWebSocketAuth({ wsIssuer: 'me' }, '/', fail)).rejects.toThrow(/require `--ws-auth signed-bearer-token`/);
    await expect(resolveWebSocketAuth({ wsAuth: 'signed-bearer-token', wsSharedSecretFile: 's', wsMaxClockSkewSeconds: 'soon' }, '/', fail)).rejects.toThrow(/whole number/);
    await expect(resolveWebSocketAuth({ wsAuth: 'oauth' }, '/', fail)).rejects.toThrow(/capability-token.*signed-bearer-token/);
  });
});
