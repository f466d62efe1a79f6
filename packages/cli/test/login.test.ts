// `skein login --with-api-key`, `login status` and `logout` (issue #35): the key kept in
// $CODEX_HOME/auth.json as Codex 0.171.0 keeps it and reports it (probed). `skein exec` using it:
// exec-saved-key.test.ts.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
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
});
