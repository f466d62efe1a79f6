// `modelProvider/list` (issue #13), answered as Codex 0.171.0 answers it (probed): the built-in
// OpenAI provider and each configured `[model_providers.<id>]`, sorted by id, the config's
// `model_provider` as the default. In process over stdio; every message is schema-checked.
import type { AppServerTestClient } from '@skein/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { CONFIG_TOML, makeHome, startInProcess, type InProcessServer, type TestHome } from './support/app-server-harness.js';

let home: TestHome | undefined;
let running: InProcessServer | undefined;
let client: AppServerTestClient | undefined;

afterEach(async () => {
  await client?.close();
  await running?.close();
  home?.cleanup();
  client = undefined;
  running = undefined;
  home = undefined;
});

async function connect(configToml: string): Promise<AppServerTestClient> {
  home = makeHome(configToml);
  running = await startInProcess(home);
  client = await running.connect('stdio');
  await client.initialize();
  return client;
}

const OPENAI = { id: 'openai', name: 'OpenAI', canEdit: false, baseUrl: null, settings: { type: 'openai' } };

describe('modelProvider/list', () => {
  it('lists the built-in OpenAI provider and a configured one without a key as a custom gateway with no auth, as Codex does', async () => {
    const client = await connect('model_provider = "mock"\nmodel = "gpt-5.5"\n\n[model_providers.mock]\nname = "Mock"\nbase_url = "http://127.0.0.1:9/v1"\nwire_api = "responses"\n');
    expect(await client.request('modelProvider/list', {})).toEqual({
      data: [{ id: 'mock', name: 'Mock', canEdit: true, baseUrl: 'http://127.0.0.1:9/v1', settings: { type: 'customGateway', auth: { mode: 'none' } } }, OPENAI],
      defaultProviderId: 'mock',
      canChangeDefault: true,
    });
    expect(client.schemaFailures).toEqual([]);
  });

  it('sorts by id, names each provider’s auth (env_key, an OpenAI sign-in), hides an endpoint with credentials and one the config never wrote', async () => {
    const client = await connect(
      `${CONFIG_TOML}
[model_providers.zeta]
name = "Zeta"
base_url = "https://user:secret@zeta.example/v1"

[model_providers.alpha]
requires_openai_auth = true

[model_providers.ollama]
name = "Mine"
base_url = "http://127.0.0.1:1/v1"
`,
    );
    const list = (await client.request('modelProvider/list', {})) as { data: unknown[]; defaultProviderId: string; canChangeDefault: boolean };
    expect(list).toEqual({
      data: [
        { id: 'alpha', name: 'alpha', canEdit: true, baseUrl: null, settings: { type: 'customGateway', auth: { mode: 'externallyConfigured', envKey: null } } },
        { id: 'mock', name: 'Mock', canEdit: true, baseUrl: 'http://127.0.0.1:9/v1', settings: { type: 'customGateway', auth: { mode: 'environmentVariable', envKey: 'SKEIN_TEST_API_KEY' } } },
        OPENAI,
        { id: 'zeta', name: 'Zeta', canEdit: true, baseUrl: null, settings: { type: 'customGateway', auth: { mode: 'none' } } },
      ],
      defaultProviderId: 'mock',
      canChangeDefault: true,
    });
    expect(client.schemaFailures).toEqual([]);
  });

  it('names openai the default when config names no provider', async () => {
    const client = await connect('model = "gpt-5.5"\n');
    expect(await client.request('modelProvider/list', {})).toEqual({ data: [OPENAI], defaultProviderId: 'openai', canChangeDefault: true });
  });

  it('refuses a request without params with -32600, as Codex does', async () => {
    const client = await connect(CONFIG_TOML);
    expect(await client.requestReply('modelProvider/list')).toEqual({ error: { code: -32600, message: 'Invalid request: missing field `params`' } });
  });
});
