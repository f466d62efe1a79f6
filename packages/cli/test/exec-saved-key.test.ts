// `skein exec` signs in as `codex exec` does (issue #35, probed against Codex 0.171.0 with the mock):
// a provider that takes OpenAI's sign-in and names no env_key (as the built-in one) is sent
// CODEX_API_KEY, else the key saved in $CODEX_HOME/auth.json (by `codex login --with-api-key` or
// skein's), and never OPENAI_API_KEY; a provider with its own env_key is sent that variable only.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, sse } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execScratch, type ExecScratch } from './support/exec-run.js';

let fixture: ExecScratch;
beforeEach(async () => (fixture = await execScratch('skein-exec-key-')));
afterEach(() => fixture.cleanup());

// What `printf sk-file | codex login --with-api-key` writes (probed): two-space JSON, no final newline, mode 0600.
const CODEX_AUTH_JSON = '{\n  "auth_mode": "apikey",\n  "OPENAI_API_KEY": "sk-file"\n}';

/** Rewrites the mock provider's key setting to `setting`. */
function providerKey(setting: string): void {
  const file = path.join(fixture.home, 'config.toml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('env_key = "MOCK_API_KEY"', setting));
}

describe('skein exec and the saved key', () => {
  it('sends the key `codex login --with-api-key` saved; CODEX_API_KEY before it; never OPENAI_API_KEY', async () => {
    providerKey('requires_openai_auth = true');
    writeFileSync(path.join(fixture.home, 'auth.json'), CODEX_AUTH_JSON, { mode: 0o600 });
    fixture.server.expect([sse(assistantMessage('one'), completed()), sse(assistantMessage('two'), completed()), sse(assistantMessage('three'), completed())]);
    expect((await fixture.skein(['exec', 'hi'])).code).toBe(0);
    expect((await fixture.skein(['exec', 'hi'], { env: { OPENAI_API_KEY: 'sk-env' } })).code).toBe(0);
    expect((await fixture.skein(['exec', 'hi'], { env: { OPENAI_API_KEY: 'sk-env', CODEX_API_KEY: 'sk-codex' } })).code).toBe(0);
    expect(fixture.server.requests.map((request) => request.header('authorization'))).toEqual(['Bearer sk-file', 'Bearer sk-file', 'Bearer sk-codex']);
  });

  it('keeps the saved key from a provider with its own env_key, as Codex does', async () => {
    providerKey('env_key = "OPENAI_API_KEY"\nrequires_openai_auth = true');
    writeFileSync(path.join(fixture.home, 'auth.json'), CODEX_AUTH_JSON, { mode: 0o600 });
    const run = await fixture.skein(['exec', 'hi'], { env: { CODEX_API_KEY: 'sk-codex' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('missing environment variable OPENAI_API_KEY');
    expect(fixture.server.requests).toHaveLength(0);
  });
});
