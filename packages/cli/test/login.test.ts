// `skein login --with-api-key`, `login status` and `logout` (issue #35): the key kept in
// $CODEX_HOME/auth.json as Codex 0.171.0 keeps it and reports it (probed), and `skein exec` using it
// for an OpenAI-auth provider when the environment has no key.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, sse } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execScratch, type ExecScratch } from './support/exec-run.js';

let fixture: ExecScratch;
beforeEach(async () => (fixture = await execScratch('skein-login-')));
afterEach(() => fixture.cleanup());

const KEY = 'sk-proj-abcdefghijklmnopqrstuvwxyz123456';

describe('skein login', () => {
  it('saves a key from stdin as Codex does, reports it masked, and logs out', async () => {
    expect(await fixture.skein(['login', 'status'])).toMatchObject({ code: 1, stderr: 'Not logged in\n' });
    expect(await fixture.skein(['login', '--with-api-key'], { stdin: '' })).toMatchObject({ code: 1, stderr: 'Reading API key from stdin...\nNo API key provided via stdin.\n' });
    expect(await fixture.skein(['login', '--with-api-key'], { stdin: `${KEY}\n` })).toMatchObject({ code: 0, stderr: 'Reading API key from stdin...\nAPI key saved. Authentication is checked when you send a request.\n' });
    const file = path.join(fixture.home, 'auth.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ auth_mode: 'apikey', OPENAI_API_KEY: KEY });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await fixture.skein(['login', 'status'])).toMatchObject({ code: 0, stderr: 'API key configured - sk-proj-***23456\nAuthentication is checked when you send a request.\n' });
    expect(await fixture.skein(['login'])).toMatchObject({ code: 1, stderr: expect.stringContaining('API key only') as unknown });
    expect(await fixture.skein(['logout'])).toMatchObject({ code: 0, stderr: 'Successfully logged out\n' });
    expect(await fixture.skein(['logout'])).toMatchObject({ code: 0, stderr: 'Not logged in\n' });
    expect(await fixture.skein(['login', 'status'])).toMatchObject({ code: 1 });
  });

  it('exec sends the saved key to an OpenAI-auth provider when the environment has none; an environment key wins', async () => {
    // The mock stands in for OpenAI's provider: it takes OpenAI's sign-in.
    const config = readFileSync(path.join(fixture.home, 'config.toml'), 'utf8').replace('env_key = "MOCK_API_KEY"', 'env_key = "OPENAI_API_KEY"\nrequires_openai_auth = true');
    writeFileSync(path.join(fixture.home, 'config.toml'), config);
    expect((await fixture.skein(['login', '--with-api-key'], { stdin: KEY })).code).toBe(0);
    fixture.server.expect([sse(assistantMessage('Saved key.'), completed()), sse(assistantMessage('Env key.'), completed())]);
    expect((await fixture.skein(['exec', 'hi'])).code).toBe(0);
    expect((await fixture.skein(['exec', 'hi'], { env: { OPENAI_API_KEY: 'sk-from-env' } })).code).toBe(0);
    expect(fixture.server.requests.map((request) => request.header('authorization'))).toEqual([`Bearer ${KEY}`, 'Bearer sk-from-env']);
  });
});
