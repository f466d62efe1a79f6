import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CapabilityToken, CapabilityTokenError } from './capability-token.js';

describe('CapabilityToken', () => {
  it('accepts the bearer token it was configured with and nothing else', () => {
    const token = CapabilityToken.fromToken('s3cret\n');
    expect(token.check('Bearer s3cret')).toBe('ok');
    expect(token.check('bearer   s3cret ')).toBe('ok');
    expect(token.check('Bearer s3cret2')).toBe('invalid');
    expect(token.check('Basic s3cret')).toBe('invalid');
    expect(token.check('Bearer')).toBe('invalid');
    expect(token.check(undefined)).toBe('missing');
    expect(token.check('  ')).toBe('missing');
  });

  it('verifies against a SHA-256 digest without knowing the token', () => {
    const digest = createHash('sha256').update('s3cret').digest('hex');
    expect(CapabilityToken.fromSha256(digest).check('Bearer s3cret')).toBe('ok');
    expect(CapabilityToken.fromSha256(digest.toUpperCase()).check('Bearer nope')).toBe('invalid');
    expect(() => CapabilityToken.fromSha256('abc')).toThrow(CapabilityTokenError);
  });

  it('reads the token from a file, relative to the working directory, and refuses an empty one', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'skein-token-'));
    writeFileSync(path.join(dir, 'token'), 'from-file\n');
    writeFileSync(path.join(dir, 'empty'), '\n');
    expect((await CapabilityToken.fromTokenFile('token', dir)).check('Bearer from-file')).toBe('ok');
    await expect(CapabilityToken.fromTokenFile('empty', dir)).rejects.toMatchObject({ code: 'EmptyToken' });
    await expect(CapabilityToken.fromTokenFile('missing', dir)).rejects.toMatchObject({ code: 'UnreadableTokenFile' });
    rmSync(dir, { recursive: true, force: true });
  });
});
