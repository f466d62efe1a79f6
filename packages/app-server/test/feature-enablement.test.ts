// experimentalFeature/enablement/set against the built binary, as Codex 0.171.0 behaves: it takes
// only the features Codex switches at runtime, holds them for the process (nothing is written), and
// below every config layer, so a config file that sets one still decides it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AppServerTestClient } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONFIG_TOML, makeHome, spawnStdioClient, type TestHome } from './support/app-server-harness.js';

const CONFIG = `${CONFIG_TOML}\n[features]\ntool_suggest = false\n`;

let home: TestHome;
let client: AppServerTestClient;
beforeEach(async () => {
  home = makeHome(CONFIG);
  client = spawnStdioClient(home);
  await client.initialize();
});
afterEach(async () => {
  await client.close();
  home.cleanup();
});

async function enabled(names: readonly string[]): Promise<Record<string, boolean>> {
  const list = (await client.request('experimentalFeature/list', {})) as { data: { name: string; enabled: boolean }[] };
  return Object.fromEntries(list.data.filter((feature) => names.includes(feature.name)).map((feature) => [feature.name, feature.enabled]));
}

async function configFeatures(): Promise<Record<string, unknown>> {
  return ((await client.request('config/read', {})) as { config: { features: Record<string, unknown> } }).config.features;
}

describe('experimentalFeature/enablement/set', () => {
  it('answers the runtime features it took, sorted, and ignores every other name', async () => {
    const reply = await client.request('experimentalFeature/enablement/set', {
      enablement: { tool_suggest: true, prevent_idle_sleep: true, memories: true, no_such_feature: true, shell_tool: false, mentions_v2: false },
    });
    expect(reply).toEqual({ enablement: { memories: true, mentions_v2: false, tool_suggest: true } });
    expect(await client.request('experimentalFeature/enablement/set', { enablement: {} })).toEqual({ enablement: {} });
  });

  it('switches the features for later reads, below the config file, and writes nothing', async () => {
    const features = ['memories', 'mentions_v2', 'tool_suggest', 'shell_tool', 'prevent_idle_sleep'];
    expect(await enabled(features)).toEqual({ memories: false, mentions_v2: true, tool_suggest: false, shell_tool: true, prevent_idle_sleep: false });
    expect(await configFeatures()).toMatchObject({ memories: false, mentions_v2: true, tool_suggest: false });

    await client.request('experimentalFeature/enablement/set', { enablement: { memories: true, mentions_v2: false, tool_suggest: true, shell_tool: false, prevent_idle_sleep: true } });
    // The file's `tool_suggest = false` still wins; features Codex does not switch at runtime stay.
    expect(await enabled(features)).toEqual({ memories: true, mentions_v2: false, tool_suggest: false, shell_tool: true, prevent_idle_sleep: false });
    expect(await configFeatures()).toMatchObject({ memories: true, mentions_v2: false, tool_suggest: false });
    expect(readFileSync(path.join(home.home, 'config.toml'), 'utf8')).toBe(CONFIG);

    // A write to the file then decides over the runtime state.
    await client.request('config/value/write', { keyPath: 'features.memories', value: false, mergeStrategy: 'replace' });
    expect(await enabled(['memories'])).toEqual({ memories: false });
  });

  it('refuses a value that is not a boolean, and missing params', async () => {
    expect(await client.requestReply('experimentalFeature/enablement/set', { enablement: { memories: 'yes' } })).toEqual({
      error: { code: -32600, message: 'Invalid request: enablement.memories: Invalid input: expected boolean, received string' },
    });
    expect(await client.requestReply('experimentalFeature/enablement/set', {})).toEqual({ error: { code: -32600, message: 'Invalid request: missing field `enablement`' } });
  });
});
