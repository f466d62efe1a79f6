// Thread ids are read as Codex 0.171.0 reads them: any form the `uuid` crate accepts, answered in the
// canonical form, and a malformed one refused before any lookup with the crate's diagnosis. The
// expected texts were recorded from the real `codex app-server` (`thread/goal/get` with each id).
import { mockProviderConfigToml, startMockResponsesServer, type AppServerTestClient, type MockResponsesServer } from '@skein/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseUuid } from '../src/threads/thread-id.js';
import { makeHome, startInProcess, threadsOn, type InProcessServer, type TestHome } from './support/app-server-harness.js';

const CANONICAL = '019a0000-0000-7000-8000-000000000000';

describe('parseUuid', () => {
  it.each([
    ['019A0000-0000-7000-8000-000000000000'],
    ['{019a0000-0000-7000-8000-000000000000}'],
    ['urn:uuid:019a0000-0000-7000-8000-000000000000'],
    ['019a0000000070008000000000000000'],
  ])('reads %s as the canonical id', (raw) => {
    expect(parseUuid(raw)).toEqual({ uuid: CANONICAL });
  });

  it.each([
    ['nope', 'invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `n` at 1'],
    ['abc123', 'invalid length: expected length 32 for simple format, found 6'],
    ['', 'invalid length: expected length 32 for simple format, found 0'],
    ['019a00000000700080000000000000000', 'invalid length: expected length 32 for simple format, found 33'],
    ['0000-0000', 'invalid group count: expected 5, found 2'],
    ['00000000-0000-0000-0000-00000000000-', 'invalid group count: expected 5, found 6'],
    ['00000000-000-0000-0000-000000000000', 'invalid group length in group 1: expected 4, found 3'],
    ['00000000-0000-0000-0000-0000000000000', 'invalid group length in group 4: expected 12, found 13'],
    ['{00000000-0000-0000-0000-00000000000}', 'invalid group length in group 4: expected 12, found 13'],
    ['urn:uuid:0000000g-0000-0000-0000-000000000000', 'invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `g` at 8'],
    ['{0000000g-0000-0000-0000-000000000000}', 'invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `g` at 8'],
    ['urn:uuid:é', 'invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `é` at 10'],
    ['urn:uuid:0000-0000', 'invalid group count: expected 5, found 2'],
    ['{00000000000000000000000000000000}', 'invalid group count: expected 5, found 1'],
    ['urn:uuid:00000000-0000-0000-0000-00000000000', 'invalid group length in group 4: expected 12, found 20'],
    ['é', 'invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `é` at 1'],
  ])('refuses %j as the crate does', (raw, problem) => {
    expect(parseUuid(raw)).toEqual({ problem });
  });
});

describe('thread ids in requests', () => {
  let model: MockResponsesServer;
  let home: TestHome;
  let server: InProcessServer;
  let client: AppServerTestClient;

  beforeAll(async () => {
    model = await startMockResponsesServer();
    home = makeHome(mockProviderConfigToml(model.url));
    server = await startInProcess(home, { threads: threadsOn(home) });
    client = await server.connect('stdio');
    await client.initialize({ capabilities: { experimentalApi: true } });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
    await model.close();
    home.cleanup();
  });

  const malformed = (noun: string) => ({ error: { code: -32600, message: `invalid ${noun} id: invalid group count: expected 5, found 2` } });

  it('calls it a session id on the methods that open a stored thread, a thread id elsewhere', async () => {
    for (const method of ['thread/resume', 'thread/fork', 'thread/archive', 'thread/unarchive']) {
      expect(await client.requestReply(method, { threadId: '0000-0000' }), method).toEqual(malformed('session'));
    }
    for (const method of ['thread/read', 'thread/turns/list', 'thread/unsubscribe', 'thread/name/set', 'thread/goal/get']) {
      expect(await client.requestReply(method, { threadId: '0000-0000', name: 'x' }), method).toEqual(malformed('thread'));
    }
    expect(await client.requestReply('thread/goal/get', { threadId: `{${CANONICAL.toUpperCase()}}` })).toEqual({ error: { code: -32600, message: `thread not found: ${CANONICAL}` } });
  });

  it('finds a loaded thread by any form of its id', async () => {
    const { thread } = (await client.request('thread/start', { cwd: home.workspace })) as { thread: { id: string } };
    for (const form of [thread.id.toUpperCase(), `urn:uuid:${thread.id}`, thread.id.replaceAll('-', '')]) {
      expect(await client.request('thread/read', { threadId: form }), form).toMatchObject({ thread: { id: thread.id } });
    }
  });
});
