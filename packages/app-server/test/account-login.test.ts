// API-key sign-in over the app-server (issue #35), as Codex 0.171.0 answers it (probed):
// `account/login/start {type: "apiKey"}` saves the key in $CODEX_HOME/auth.json and announces it
// before answering, `account/read` reports the apiKey account, the model is sent the key, and
// `account/logout` forgets it. The ChatGPT sign-in is refused (Skein signs in with keys only).
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, mockProviderConfigToml, sse, startMockResponsesServer, type AppServerTestClient, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, runTurnToEnd, startInProcess, threadsOn, type InProcessServer, type TestHome } from './support/app-server-harness.js';

let model: MockResponsesServer;
let home: TestHome;
let server: InProcessServer;
let client: AppServerTestClient;

const KEY = 'sk-proj-abcdefghijklmnopqrstuvwxyz123456';

beforeEach(async () => {
  model = await startMockResponsesServer();
  // The mock stands in for OpenAI's provider: it takes OpenAI's sign-in, and the environment has no key.
  home = makeHome(mockProviderConfigToml(model.url, { envKey: 'OPENAI_API_KEY', extra: '' }).replace('wire_api = "responses"', 'wire_api = "responses"\nrequires_openai_auth = true'));
  server = await startInProcess(home, { threads: threadsOn(home) });
  client = await server.connect('stdio');
  await client.initialize({ capabilities: { experimentalApi: true } });
});
afterEach(async () => {
  await client.close();
  await server.close();
  try {
    await model.close();
  } finally {
    home.cleanup();
  }
});

const refusal = (message: string) => ({ error: { code: -32600, message } });

describe('account/login', () => {
  it('signs in with an API key: saved as Codex saves it, announced, reported, and sent to the model; logout forgets it', async () => {
    expect(await client.request('account/read', {})).toEqual({ account: null, userId: null, requiresOpenaiAuth: true, workspaceRouting: null });
    expect(await client.requestReply('account/login/start', { type: 'apiKey', apiKey: '  ' })).toEqual(refusal('apiKey must not be empty'));
    expect(await client.requestReply('account/login/start', { type: 'chatgpt' })).toMatchObject({ error: { code: -32600, message: expect.stringContaining('chatgpt sign-in is not available') as unknown } });

    const before = client.notifications.length;
    expect(await client.request('account/login/start', { type: 'apiKey', apiKey: KEY })).toEqual({ type: 'apiKey' });
    // Both notifications came before the answer, as Codex sends them.
    expect(client.notifications.slice(before).map((note) => [note.method, note.params])).toEqual([
      ['account/login/completed', { loginId: null, success: true, error: null, onboardingEntrypoint: null }],
      ['account/updated', { authMode: 'apikey', planType: null, reason: null }],
    ]);
    const file = path.join(home.home, 'auth.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ auth_mode: 'apikey', OPENAI_API_KEY: KEY });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await client.request('account/read', {})).toMatchObject({ account: { type: 'apiKey' } });

    model.expect([sse(assistantMessage('Signed in.'), completed())]);
    const { thread } = (await client.request('thread/start', { cwd: home.workspace })) as { thread: { id: string } };
    await runTurnToEnd(client, thread.id, 'hi');
    expect(model.requests[0]!.header('authorization')).toBe(`Bearer ${KEY}`);

    expect(await client.requestReply('account/login/cancel', { loginId: 'nope' })).toEqual(refusal('invalid login id: nope'));
    expect(await client.request('account/logout', {})).toEqual({});
    await client.waitFor('account/updated', (params) => (params as { authMode: unknown }).authMode === null);
    expect(existsSync(file)).toBe(false);
    expect(await client.request('account/read', {})).toMatchObject({ account: null });
    expect(client.schemaFailures).toEqual([]);
  });
});
