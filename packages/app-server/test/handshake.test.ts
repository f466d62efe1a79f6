// The initialize handshake over stdio and WebSocket (the built binary): what comes before it is
// refused, a second one too, the result's shape, the startup notifications and the opt-outs.
import { AppServerTestClient } from '@skein/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_TOML, makeHome, spawnStdioClient, startWebSocketProcess, TOKEN, type TestHome, type Transport, type WebSocketProcess } from './support/app-server-harness.js';

// An unknown key makes the config load with a warning, which must reach clients as configWarning.
const CONFIG_WITH_UNKNOWN_KEY = `not_a_codex_key = 1\n${CONFIG_TOML}`;

describe.each<Transport>(['stdio', 'websocket'])('handshake over %s', (transport) => {
  let home: TestHome;
  let wsServer: WebSocketProcess | undefined;

  beforeAll(async () => {
    home = makeHome(CONFIG_WITH_UNKNOWN_KEY);
    if (transport === 'websocket') wsServer = await startWebSocketProcess(home);
  });
  afterAll(async () => {
    await wsServer?.stop();
    home.cleanup();
  });

  const connect = async (): Promise<AppServerTestClient> =>
    wsServer === undefined ? spawnStdioClient(home) : AppServerTestClient.connectWebSocket(wsServer.url, { token: TOKEN });

  it('refuses requests before initialize, answers initialize once, then serves', async () => {
    const client = await connect();
    expect(await client.requestReply('model/list', {})).toEqual({ error: { code: -32600, message: 'Not initialized' } });
    expect(await client.requestReply('thread/sample', {})).toEqual({ error: { code: -32600, message: 'Not initialized' } });

    const result = (await client.initialize({ clientInfo: { name: 'handshake_test', title: 'Handshake', version: '9.9.9' } })) as Record<string, unknown>;
    expect(result).toEqual({
      userAgent: expect.stringMatching(/^handshake_test\/0\.171\.0 \(\S+ \S+; \S+\) xterm \(handshake_test; 9\.9\.9\)$/) as unknown,
      codexHome: home.home,
      platformFamily: 'unix',
      platformOs: process.platform,
    });
    expect(await client.requestReply('initialize', { clientInfo: { name: 'again', version: '1' } })).toEqual({
      error: { code: -32600, message: 'Already initialized' },
    });
    const warning = (await client.waitFor('configWarning')) as { summary: string; path: string };
    expect(warning.summary).toContain('not_a_codex_key');
    expect(warning.path).toBe(`${home.home}/config.toml`);
    expect(await client.waitFor('remoteControl/status/changed')).toMatchObject({ status: 'disabled', environmentId: null });
    expect(await client.request('model/list', {})).toMatchObject({ nextCursor: null });
    await client.close();
  });

  it('rejects malformed initialize params with the missing field named', async () => {
    const client = await connect();
    expect(await client.requestReply('initialize')).toEqual({ error: { code: -32600, message: 'Invalid request: missing field `params`' } });
    expect(await client.requestReply('initialize', { clientInfo: { name: 'x' } })).toEqual({
      error: { code: -32600, message: 'Invalid request: missing field `version` at clientInfo.version' },
    });
    await client.initialize();
    await client.close();
  });

  it('does not send the notifications a client opted out of', async () => {
    const client = await connect();
    await client.initialize({ capabilities: { experimentalApi: false, optOutNotificationMethods: ['configWarning'] } });
    await client.waitFor('remoteControl/status/changed');
    // A round trip after the startup notifications: anything not filtered would have arrived by now.
    await client.request('experimentalFeature/list', { limit: 1 });
    expect(client.notificationsOf('configWarning')).toEqual([]);
    await client.close();
  });
});

describe('stdio lifecycle', () => {
  it('exits cleanly with code 0 when stdin closes, after answering what it was sent', async () => {
    const home = makeHome();
    const client = spawnStdioClient(home);
    await client.initialize();
    const exited = new Promise<number | null>((resolve) => client.process.once('exit', (code) => resolve(code)));
    const reply = client.request('experimentalFeature/list', { limit: 2 });
    client.process.stdin.end();
    expect(await reply).toMatchObject({ nextCursor: '2' });
    expect(await exited).toBe(0);
    await client.close();
    home.cleanup();
  });
});
