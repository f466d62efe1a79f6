// `permissionProfile/list` and `account/rateLimits/read` (issue #13, §4), answered as Codex 0.171.0
// answers them on a machine with no sign-in and no requirements (probed: the same pages, cursors and
// error codes). In process over stdio; every message is schema-checked by the test client.
import type { AppServerTestClient } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, startInProcess, type InProcessServer, type TestHome } from './support/app-server-harness.js';

let home: TestHome;
let running: InProcessServer;
let client: AppServerTestClient;

beforeEach(async () => {
  home = makeHome();
  running = await startInProcess(home);
  client = await running.connect('stdio');
  await client.initialize();
});

afterEach(async () => {
  await client.close();
  await running.close();
  home.cleanup();
});

const profile = (id: string) => ({ id, description: null, allowed: true });

describe('permissionProfile/list', () => {
  it('lists the three built-in profiles in Codex’s order, each allowed; a relative cwd is accepted', async () => {
    const all = { data: [profile(':read-only'), profile(':workspace'), profile(':danger-full-access')], nextCursor: null };
    expect(await client.request('permissionProfile/list', {})).toEqual(all);
    expect(await client.request('permissionProfile/list', { cwd: 'relative/dir' })).toEqual(all);
  });

  it('pages by offset cursor; a zero limit still gives one profile', async () => {
    expect(await client.request('permissionProfile/list', { limit: 2 })).toEqual({ data: [profile(':read-only'), profile(':workspace')], nextCursor: '2' });
    expect(await client.request('permissionProfile/list', { cursor: '1', limit: 1 })).toEqual({ data: [profile(':workspace')], nextCursor: '2' });
    expect(await client.request('permissionProfile/list', { cursor: '2' })).toEqual({ data: [profile(':danger-full-access')], nextCursor: null });
    expect(await client.request('permissionProfile/list', { limit: 0 })).toEqual({ data: [profile(':read-only')], nextCursor: '1' });
  });

  it('refuses a cursor that is not an offset, one past the end, and a request without params with -32600', async () => {
    expect(await client.requestReply('permissionProfile/list', { cursor: 'x' })).toEqual({ error: { code: -32600, message: 'invalid cursor: x' } });
    expect(await client.requestReply('permissionProfile/list', { cursor: '9' })).toEqual({ error: { code: -32600, message: 'cursor 9 is past the end of the 3 permission profiles' } });
    expect(await client.requestReply('permissionProfile/list')).toEqual({ error: { code: -32600, message: 'Invalid request: missing field `params`' } });
  });
});

describe('account/rateLimits/read', () => {
  it('refuses with -32600 whatever the params, since rate limits need a ChatGPT sign-in', async () => {
    const refusal = { error: { code: -32600, message: 'reading rate limits takes a signed-in ChatGPT account, and this server has no account sign-in' } };
    expect(await client.requestReply('account/rateLimits/read')).toEqual(refusal);
    expect(await client.requestReply('account/rateLimits/read', { excludeResetCreditDetails: true })).toEqual(refusal);
  });
});
