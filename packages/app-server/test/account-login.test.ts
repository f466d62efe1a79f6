// API-key sign-in over the app-server (issue #35), as Codex 0.171.0 answers it (probed against
// `codex app-server`): `account/login/start {type: "apiKey"}` saves the key in $CODEX_HOME/auth.json
// byte for byte as Codex does (mode 0600), answers, then sends `account/login/completed` and
// `account/updated`; `account/read` reports the apiKey account; the model is sent the saved key; a
// logout answers, then announces it. The app-server takes neither CODEX_API_KEY (`exec`'s) nor
// OPENAI_API_KEY for OpenAI's sign-in. ChatGPT and Bedrock sign-ins are refused (Skein signs in
// with keys only); bad params and cancels are answered in Codex's words.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, mockProviderConfigToml, sse, startMockResponsesServer, type AppServerTestClient, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SavedApiKey } from '../src/saved-api-key.js';
import { makeHome, runTurnToEnd, spawnStdioClient, startInProcess, threadsOn, type InProcessServer, type TestHome } from './support/app-server-harness.js';

let model: MockResponsesServer;
let home: TestHome;

const KEY = 'sk-proj-abcdefghijklmnopqrstuvwxyz123456';
// What `printf sk-file | codex login --with-api-key` leaves in auth.json (probed): two-space JSON, no final newline.
const CODEX_AUTH_JSON = '{\n  "auth_mode": "apikey",\n  "OPENAI_API_KEY": "sk-file"\n}';

beforeEach(async () => {
  model = await startMockResponsesServer();
  // The mock stands in for OpenAI: a provider that takes OpenAI's sign-in and names no env_key, as the built-in one.
  home = makeHome(mockProviderConfigToml(model.url, { extra: 'requires_openai_auth = true' }));
});
afterEach(async () => {
  try {
    await model.close();
  } finally {
    home.cleanup();
  }
});

const refusal = (message: string) => ({ error: { code: -32600, message } });
const authFile = () => path.join(home.home, 'auth.json');

/** Starts a thread and runs one turn the model answers; resolves to the authorization header it was sent. */
async function turnAuthorization(client: AppServerTestClient): Promise<string | undefined> {
  model.expect([sse(assistantMessage('Done.'), completed())]);
  const { thread } = (await client.request('thread/start', { cwd: home.workspace })) as { thread: { id: string } };
  await runTurnToEnd(client, thread.id, 'hi');
  return model.requests.at(-1)!.header('authorization');
}

describe('account/login over the skein app-server binary', () => {
  let client: ReturnType<typeof spawnStdioClient>;
  /** Every frame's method (or `answer <id>`) in the order the server wrote them. */
  const frames: string[] = [];
  beforeEach(() => {
    frames.length = 0;
    // Keys in the environment that Codex's app-server does not use for OpenAI's sign-in.
    home.env.CODEX_API_KEY = 'sk-codex-env';
    home.env.OPENAI_API_KEY = 'sk-openai-env';
  });
  afterEach(async () => {
    await client.close();
  });
  function start(): void {
    client = spawnStdioClient(home);
    let pending = '';
    client.process.stdout.on('data', (chunk: string | Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const frame = JSON.parse(line) as { id?: unknown; method?: string };
        frames.push(frame.method ?? `answer ${String(frame.id)}`);
      }
    });
  }

  it('uses a key `codex login --with-api-key` saved, and neither CODEX_API_KEY nor OPENAI_API_KEY', async () => {
    writeFileSync(authFile(), CODEX_AUTH_JSON, { mode: 0o600 });
    start();
    await client.initialize();
    expect(await client.request('account/read', {})).toEqual({ account: { type: 'apiKey' }, userId: null, requiresOpenaiAuth: true, workspaceRouting: null });
    expect(await turnAuthorization(client)).toBe('Bearer sk-file');
    expect(client.schemaFailures).toEqual([]);
  });

  it('signs in: saves the key as Codex does, answers, then announces it; the model gets the key; a logout forgets it', async () => {
    start();
    await client.initialize();
    expect(await client.request('account/read', {})).toEqual({ account: null, userId: null, requiresOpenaiAuth: true, workspaceRouting: null });
    // Signed out, Codex sends OpenAI's provider no key at all (the environment's keys are not its sign-in).
    expect(await turnAuthorization(client)).toBeUndefined();

    frames.length = 0;
    expect(await client.request('account/login/start', { type: 'apiKey', apiKey: KEY })).toEqual({ type: 'apiKey' });
    await client.waitFor('account/updated', (params) => (params as { authMode: unknown }).authMode === 'apikey');
    const answer = frames.find((frame) => frame.startsWith('answer'));
    expect(frames).toEqual([answer, 'account/login/completed', 'account/updated']);
    expect(client.notificationsOf('account/login/completed')).toEqual([{ loginId: null, success: true, error: null, onboardingEntrypoint: null }]);
    expect(client.notificationsOf('account/updated')).toEqual([{ authMode: 'apikey', planType: null, reason: null }]);
    expect(readFileSync(authFile(), 'utf8')).toBe(`{\n  "auth_mode": "apikey",\n  "OPENAI_API_KEY": "${KEY}"\n}`);
    expect(statSync(authFile()).mode & 0o777).toBe(0o600);
    expect(readdirSync(home.home).filter((name) => name.startsWith('auth.json'))).toEqual(['auth.json']);
    expect(await client.request('account/read', {})).toMatchObject({ account: { type: 'apiKey' } });
    // The thread started before the sign-in is sent the key too.
    expect(await turnAuthorization(client)).toBe(`Bearer ${KEY}`);

    frames.length = 0;
    expect(await client.request('account/logout', {})).toEqual({});
    await client.waitFor('account/updated', (params) => (params as { authMode: unknown }).authMode === null);
    expect(frames).toEqual([frames[0], 'account/updated']);
    expect(frames[0]).toMatch(/^answer /);
    expect(existsSync(authFile())).toBe(false);
    expect(await client.request('account/read', {})).toMatchObject({ account: null });
    expect(await turnAuthorization(client)).toBeUndefined();
    expect(client.schemaFailures).toEqual([]);
  });
});

describe('account/login answers', () => {
  let server: InProcessServer;
  let client: AppServerTestClient;
  beforeEach(async () => {
    server = await startInProcess(home, { threads: threadsOn(home) });
    client = await server.connect('stdio');
    await client.initialize({ capabilities: { experimentalApi: true } });
  });
  afterEach(async () => {
    await client.close();
    await server.close();
  });

  it('refuses an empty key and writes nothing', async () => {
    expect(await client.requestReply('account/login/start', { type: 'apiKey', apiKey: ' \n' })).toEqual(refusal('apiKey must not be empty'));
    expect(existsSync(authFile())).toBe(false);
    expect(await client.request('account/read', {})).toMatchObject({ account: null });
    expect(client.notificationsOf('account/updated')).toEqual([]);
  });

  it('refuses the ChatGPT and Bedrock sign-ins: Skein signs in with API keys only', async () => {
    for (const params of [
      { type: 'chatgpt' },
      { type: 'chatgptDeviceCode' },
      { type: 'chatgptAuthTokens', accessToken: 'a', chatgptAccountId: 'b' },
      { type: 'amazonBedrock', apiKey: 'a', region: 'us-east-1' },
      { type: 'amazonBedrockAccessKeys', accessKeyId: 'a', secretAccessKey: 'b', region: 'us-east-1' },
    ]) {
      expect(await client.requestReply('account/login/start', params)).toEqual(
        refusal(`${params.type} sign-in is not available: Skein signs in with an API key only (account/login/start {type: "apiKey", apiKey}, or \`skein login --with-api-key\`)`),
      );
    }
    expect(existsSync(authFile())).toBe(false);
  });

  it('answers bad params in Codex words', async () => {
    const invalid = (detail: string) => refusal(`Invalid request: ${detail}`);
    expect(await client.requestReply('account/login/start', { type: 'apiKey' })).toEqual(invalid('missing field `apiKey`'));
    expect(await client.requestReply('account/login/start', {})).toEqual(invalid('missing field `type`'));
    expect(await client.requestReply('account/login/start', { type: 'bogus' })).toEqual(
      invalid('unknown variant `bogus`, expected one of `apiKey`, `chatgpt`, `chatgptDeviceCode`, `chatgptAuthTokens`, `amazonBedrock`, `amazonBedrockAccessKeys`'),
    );
    expect(await client.requestReply('account/login/start', { type: 'chatgptAuthTokens' })).toEqual(invalid('missing field `accessToken`'));
    expect(await client.requestReply('account/login/start', { type: 'chatgptAuthTokens', accessToken: 'x' })).toEqual(invalid('missing field `chatgptAccountId`'));
    expect(await client.requestReply('account/login/start', { type: 'amazonBedrock', apiKey: 'x' })).toEqual(invalid('missing field `region`'));
    expect(await client.requestReply('account/login/start', { type: 'amazonBedrockAccessKeys' })).toEqual(invalid('missing field `accessKeyId`'));
    expect(await client.requestReply('account/login/cancel', {})).toEqual(invalid('missing field `loginId`'));
  });

  it('cancels nothing: an id that is not a UUID is refused, a UUID is not found', async () => {
    expect(await client.requestReply('account/login/cancel', { loginId: 'nope' })).toEqual(refusal('invalid login id: nope'));
    expect(await client.requestReply('account/login/cancel', { loginId: '0b8e8d1e-7d4a4b7e-9c43-1f7a9d4d2a10' })).toEqual(refusal('invalid login id: 0b8e8d1e-7d4a4b7e-9c43-1f7a9d4d2a10'));
    for (const loginId of ['0b8e8d1e-7d4a-4b7e-9c43-1f7a9d4d2a10', '0B8E8D1E7D4A4B7E9C431F7A9D4D2A10', '{0b8e8d1e-7d4a-4b7e-9c43-1f7a9d4d2a10}', 'urn:uuid:0b8e8d1e-7d4a-4b7e-9c43-1f7a9d4d2a10']) {
      expect(await client.request('account/login/cancel', { loginId })).toEqual({ status: 'notFound' });
    }
  });

  it('logs out when signed out too: answers {} and announces it', async () => {
    expect(await client.request('account/logout', {})).toEqual({});
    expect(await client.waitFor('account/updated')).toEqual({ authMode: null, planType: null, reason: null });
    expect(client.schemaFailures).toEqual([]);
  });
});

describe('account/read', () => {
  it('reports no account for a provider without OpenAI sign-in, even with a saved key', async () => {
    const other = makeHome(mockProviderConfigToml(model.url, { envKey: 'MOCK_API_KEY' }));
    try {
      writeFileSync(path.join(other.home, 'auth.json'), CODEX_AUTH_JSON, { mode: 0o600 });
      const server = await startInProcess(other, { savedApiKey: await SavedApiKey.load(other.home) });
      const client = await server.connect('stdio');
      await client.initialize();
      expect(await client.request('account/read', {})).toEqual({ account: null, userId: null, requiresOpenaiAuth: false, workspaceRouting: null });
      await client.close();
      await server.close();
    } finally {
      other.cleanup();
    }
  });
});
