// Plugins as a Codex client meets them through the app-server: marketplaces added from a folder and
// from a git repository, `plugin/list|read|install|uninstall|installed|search`, the installed
// plugin's skills in `skills/list` and in what the model receives (`<plugin>:<skill>` in the catalog,
// `<plugins_instructions>`, `$plugin:skill` injection, a plugin mention), `disabledPluginIds`, and
// every refusal as -32600 with the server still serving.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  assistantMessage,
  commitMarketplace,
  completed,
  gitUrlRewrite,
  mockProviderConfigToml,
  sse,
  startMockResponsesServer,
  writePluginMarketplace,
  type AppServerTestClient,
  type MockResponsesServer,
} from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, runTurnToEnd, spawnStdioClient, textInput, type TestHome } from './support/app-server-harness.js';

let model: MockResponsesServer;
let home: TestHome;
const clients: AppServerTestClient[] = [];

beforeEach(async () => {
  model = await startMockResponsesServer();
  home = makeHome(`# my settings, kept by every write\n${mockProviderConfigToml(model.url)}`);
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await model.close();
  home.cleanup();
});

async function appServer(env: Record<string, string> = {}): Promise<AppServerTestClient> {
  const client = spawnStdioClient({ ...home, env: { ...home.env, ...env } });
  clients.push(client);
  await client.initialize();
  return client;
}

interface Summary {
  id: string;
  installed: boolean;
  enabled: boolean;
  localVersion: string | null;
  source: { type: string; path: string };
  interface: { displayName: string } | null;
}
interface Listed {
  marketplaces: { name: string; path: string; plugins: Summary[] }[];
  marketplaceLoadErrors: unknown[];
}

const developerTexts = (index: number) => model.requests[index]!.inputItems({ role: 'developer' }).flatMap((item) => (item as unknown as { content: { text: string }[] }).content.map((part) => part.text));

describe('plugins from a local marketplace', () => {
  it('adds, lists, reads, installs and uses a plugin, honours disabledPluginIds, and uninstalls it', async () => {
    const marketRoot = path.join(path.dirname(home.home), 'mp');
    const manifest = writePluginMarketplace(marketRoot, 'localmp', [{ name: 'alpha', version: '1.2.3', skills: { greet: 'Greets the user politely.' } }, { name: 'beta' }]);
    const client = await appServer();

    expect(await client.request('marketplace/add', { source: marketRoot })).toEqual({ marketplaceName: 'localmp', installedRoot: marketRoot, alreadyAdded: false });
    const listed = (await client.request('plugin/list', {})) as Listed;
    expect(listed.marketplaceLoadErrors).toEqual([]);
    expect(listed.marketplaces.map((market) => [market.name, market.path, market.plugins.map((plugin) => [plugin.id, plugin.installed, plugin.enabled, plugin.localVersion])])).toEqual([
      ['localmp', manifest, [['alpha@localmp', false, false, '1.2.3'], ['beta@localmp', false, false, null]]],
    ]);
    const read = (await client.request('plugin/read', { pluginName: 'alpha', marketplacePath: manifest })) as { plugin: { marketplaceName: string; description: string; skills: { name: string; path: string }[]; summary: Summary } };
    expect(read.plugin).toMatchObject({ marketplaceName: 'localmp', description: 'the alpha plugin', summary: { id: 'alpha@localmp', interface: { displayName: 'alpha plugin' } } });
    expect(read.plugin.skills.map((skill) => [skill.name, skill.path])).toEqual([['alpha:greet', path.join(marketRoot, 'plugins', 'alpha', 'skills', 'greet', 'SKILL.md')]]);

    expect(await client.request('plugin/install', { pluginName: 'alpha', marketplacePath: manifest })).toEqual({ authPolicy: 'ON_INSTALL', appsNeedingAuth: [] });
    const cached = path.join(home.home, 'plugins', 'cache', 'localmp', 'alpha', '1.2.3', 'skills', 'greet', 'SKILL.md');
    expect(existsSync(cached)).toBe(true);
    const config = readFileSync(path.join(home.home, 'config.toml'), 'utf8');
    expect(config.startsWith('# my settings, kept by every write\n')).toBe(true);
    expect(config).toContain(`\n[marketplaces.localmp]\nsource_type = "local"\nsource = "${marketRoot}"\n`);
    expect(config).toContain('\n[plugins."alpha@localmp"]\nenabled = true\n');
    expect(((await client.request('plugin/installed', {})) as Listed).marketplaces.map((market) => market.plugins.map((plugin) => plugin.id))).toEqual([['alpha@localmp']]);
    const found = (await client.request('plugin/search', { searchTerm: 'ALPHA' })) as { data: { plugin: Summary }[]; nextCursor: string | null };
    expect(found.data.map((hit) => hit.plugin.id)).toEqual(['alpha@localmp']);

    const skills = (await client.request('skills/list', { cwds: [home.workspace] })) as { data: { skills: { name: string; path: string; scope: string; pluginId: string | null }[] }[] };
    expect(skills.data[0]!.skills.find((skill) => skill.name === 'alpha:greet')).toMatchObject({ path: cached, scope: 'user', pluginId: 'alpha@localmp' });

    // The model sees the plugin's skill in the catalog, the plugins instructions, the injected skill and the mention.
    model.expect([sse(assistantMessage('Hi.'), completed()), sse(assistantMessage('Still here.'), completed())]);
    const { thread } = (await client.request('thread/start', { cwd: home.workspace })) as { thread: { id: string } };
    await runTurnToEnd(client, thread.id, 'Use $alpha:greet and [@alpha](plugin://alpha@localmp) please.');
    const developer = developerTexts(0);
    const catalog = developer.find((text) => text.startsWith('<skills_instructions>')) ?? '';
    const alias = /- `(r\d+)` = `([^`]+)`/g;
    const roots = new Map([...catalog.matchAll(alias)].map((match) => [match[2], match[1]]));
    const cacheAlias = roots.get(path.join(home.home, 'plugins', 'cache', 'localmp'));
    expect(cacheAlias).toBeDefined();
    expect(catalog).toContain(`- alpha:greet: Greets the user politely. (file: ${cacheAlias}/alpha/1.2.3/skills/greet/SKILL.md)`);
    expect(catalog.indexOf('alpha:greet')).toBeGreaterThan(catalog.indexOf('install-skill'));
    const instructions = developer.findIndex((text) => text.startsWith('<plugins_instructions>'));
    expect(instructions).toBeGreaterThan(developer.findIndex((text) => text.startsWith('<permissions instructions>')));
    const user = model.requests[0]!.messageTexts('user');
    const prompt = user.indexOf('Use $alpha:greet and [@alpha](plugin://alpha@localmp) please.');
    expect(user[prompt + 1]).toBe(`<skill>\n<name>alpha:greet</name>\n<path>${cached}</path>\n${readFileSync(cached, 'utf8')}\n</skill>`);
    expect(developer.some((text) => text.startsWith('Capabilities from the `alpha plugin` plugin:'))).toBe(true);

    // Switched off for this thread: the next turn injects nothing, and the thread's settings say so.
    const { turn } = (await client.request('turn/start', { threadId: thread.id, input: textInput('Use $alpha:greet again.'), disabledPluginIds: ['alpha@localmp'] })) as { turn: { id: string } };
    await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === turn.id);
    const second = model.requests[1]!.messageTexts('user');
    expect(second.at(-1)).toBe('Use $alpha:greet again.');
    const updated = client.notifications.find((note) => note.method === 'thread/settings/updated');
    expect(updated?.params).toMatchObject({ threadSettings: { disabledPluginIds: ['alpha@localmp'] } });

    expect(await client.request('plugin/uninstall', { pluginId: 'alpha@localmp' })).toEqual({});
    expect(await client.request('plugin/uninstall', { pluginId: 'alpha@localmp' })).toEqual({});
    expect(existsSync(path.join(home.home, 'plugins', 'cache', 'localmp', 'alpha'))).toBe(false);
    expect(readFileSync(path.join(home.home, 'config.toml'), 'utf8')).not.toContain('alpha@localmp');
    expect(((await client.request('plugin/installed', {})) as Listed).marketplaces).toEqual([]);
    expect(await client.request('marketplace/remove', { marketplaceName: 'localmp' })).toEqual({ marketplaceName: 'localmp', installedRoot: null });
    expect(client.schemaFailures).toEqual([]);
  });

  it('refuses bad requests with -32600 and keeps serving', async () => {
    const marketRoot = path.join(path.dirname(home.home), 'mp');
    const manifest = writePluginMarketplace(marketRoot, 'localmp', [{ name: 'na', policy: { installation: 'NOT_AVAILABLE' } }, { name: 'broken', manifest: '{"name":' }]);
    const client = await appServer();
    await client.request('marketplace/add', { source: marketRoot });
    const refused = (message: string | RegExp) => ({ error: { code: -32600, message: typeof message === 'string' ? message : (expect.stringMatching(message) as unknown) } });
    expect(await client.requestReply('plugin/install', { pluginName: 'na' })).toEqual(refused('plugin/install requires exactly one of marketplacePath or remoteMarketplaceName'));
    expect(await client.requestReply('plugin/install', { pluginName: 'nope', marketplacePath: manifest })).toEqual(refused('plugin `nope` was not found in marketplace `localmp`'));
    expect(await client.requestReply('plugin/install', { pluginName: 'na', marketplacePath: manifest })).toEqual(refused('plugin `na` is not available for install in marketplace `localmp`'));
    expect(await client.requestReply('plugin/install', { pluginName: 'broken', marketplacePath: manifest })).toEqual(refused(/invalid JSON/));
    expect(await client.requestReply('plugin/read', { pluginName: 'broken', marketplacePath: manifest })).toEqual(refused('missing or invalid plugin.json'));
    expect(await client.requestReply('plugin/install', { pluginName: 'na', marketplacePath: 'relative/marketplace.json' })).toMatchObject({ error: { code: -32600 } });
    expect(await client.requestReply('plugin/install', { pluginName: 'na', marketplacePath: path.join(marketRoot, 'missing.json') })).toEqual(refused(/does not exist/));
    expect(await client.requestReply('plugin/uninstall', { pluginId: '../x@localmp' })).toEqual(refused(/invalid plugin name/));
    expect(await client.requestReply('marketplace/add', { source: 'file:///etc' })).toEqual(refused(/invalid marketplace source format/));
    expect(await client.requestReply('marketplace/add', { source: path.dirname(home.home) })).toEqual(refused(/does not contain a supported manifest/));
    expect(await client.requestReply('marketplace/upgrade', { marketplaceName: 'localmp' })).toEqual(refused('marketplace `localmp` is not configured as a Git marketplace'));
    expect(await client.requestReply('marketplace/remove', { marketplaceName: 'nomp' })).toEqual(refused('marketplace `nomp` is not configured or installed'));
    // The server still answers.
    expect(((await client.request('plugin/list', {})) as Listed).marketplaces.map((market) => market.name)).toEqual(['localmp']);
    expect(existsSync(path.join(home.home, 'plugins', 'cache'))).toBe(false);
  });
});

describe('plugins from a git marketplace', () => {
  it('adds the repository, installs from its checkout, and upgrades when it moves', async () => {
    const repos = path.join(path.dirname(home.home), 'repos');
    const repo = path.join(repos, 'gitmp');
    writePluginMarketplace(repo, 'gitmp', [{ name: 'alpha', version: '1.0.0', skills: { greet: 'Greets.' } }]);
    commitMarketplace(repo, 'first');
    const base = 'https://git.example.test/';
    const client = await appServer(gitUrlRewrite(base, repos));
    const checkout = path.join(home.home, '.tmp', 'marketplaces', 'gitmp');
    expect(await client.request('marketplace/add', { source: `${base}gitmp` })).toEqual({ marketplaceName: 'gitmp', installedRoot: checkout, alreadyAdded: false });
    expect(await client.request('marketplace/add', { source: `${base}gitmp` })).toMatchObject({ alreadyAdded: true });
    const manifest = path.join(checkout, '.agents', 'plugins', 'marketplace.json');
    await client.request('plugin/install', { pluginName: 'alpha', marketplacePath: manifest });
    expect(existsSync(path.join(home.home, 'plugins', 'cache', 'gitmp', 'alpha', '1.0.0', 'skills', 'greet', 'SKILL.md'))).toBe(true);

    expect(await client.request('marketplace/upgrade', {})).toEqual({ selectedMarketplaces: ['gitmp'], upgradedRoots: [checkout], errors: [] });
    expect(await client.request('marketplace/upgrade', {})).toEqual({ selectedMarketplaces: ['gitmp'], upgradedRoots: [], errors: [] });
    writePluginMarketplace(repo, 'gitmp', [{ name: 'alpha', version: '1.0.0' }, { name: 'beta' }]);
    commitMarketplace(repo, 'second');
    expect(await client.request('marketplace/upgrade', { marketplaceName: 'gitmp' })).toMatchObject({ upgradedRoots: [checkout] });
    const listed = (await client.request('plugin/list', {})) as Listed;
    expect(listed.marketplaces[0]?.plugins.map((plugin) => [plugin.id, plugin.installed])).toEqual([
      ['alpha@gitmp', true],
      ['beta@gitmp', false],
    ]);
    expect(await client.request('marketplace/remove', { marketplaceName: 'gitmp' })).toEqual({ marketplaceName: 'gitmp', installedRoot: checkout });
    expect(existsSync(checkout)).toBe(false);
    expect(client.schemaFailures).toEqual([]);
  });
});

