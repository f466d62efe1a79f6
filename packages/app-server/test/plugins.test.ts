// Plugins as a Codex client meets them through the app-server: marketplaces added from a folder and
// from a git repository, `plugin/list|read|install|uninstall|installed|search`, the installed
// plugin's skills in `skills/list` and in what the model receives (`<plugin>:<skill>` in the catalog,
// `<plugins_instructions>`, `$plugin:skill` injection, a plugin mention), `disabledPluginIds`, and
// every refusal as -32600 with the server still serving.
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  assistantMessage,
  commitMarketplace,
  completed,
  functionCall,
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
    // What the plugin ships beyond skills is listed, not started: an MCP server and a hook.
    const alphaRoot = path.join(marketRoot, 'plugins', 'alpha');
    writeFileSync(path.join(alphaRoot, '.mcp.json'), JSON.stringify({ mcpServers: { docs: { command: 'definitely-not-started' } } }));
    mkdirSync(path.join(alphaRoot, 'hooks'));
    writeFileSync(path.join(alphaRoot, 'hooks', 'hooks.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'exec_command', hooks: [{ type: 'command', command: 'touch /tmp/never' }] }] } }));
    const read = (await client.request('plugin/read', { pluginName: 'alpha', marketplacePath: manifest })) as { plugin: { marketplaceName: string; description: string; skills: { name: string; path: string }[]; summary: Summary; mcpServers: string[]; hooks: { eventName: string }[] } };
    expect(read.plugin).toMatchObject({ marketplaceName: 'localmp', description: 'the alpha plugin', summary: { id: 'alpha@localmp', interface: { displayName: 'alpha plugin' } } });
    expect(read.plugin.mcpServers).toEqual(['docs']);
    expect(read.plugin.hooks.map((hook) => hook.eventName)).toEqual(['preToolUse']);
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
    expect((model.requests[0]!.body?.tools ?? []).some((tool) => JSON.stringify(tool).includes('mcp__docs'))).toBe(false);
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

  it('keeps installed plugins away from the model with the plugins feature off', async () => {
    const marketRoot = path.join(path.dirname(home.home), 'mp');
    const manifest = writePluginMarketplace(marketRoot, 'localmp', [{ name: 'alpha', skills: { greet: 'Greets.' } }]);
    appendFileSync(path.join(home.home, 'config.toml'), '\n[features]\nplugins = false\n');
    const client = await appServer();
    await client.request('marketplace/add', { source: marketRoot });
    await client.request('plugin/install', { pluginName: 'alpha', marketplacePath: manifest });
    model.expect([sse(assistantMessage('Hi.'), completed())]);
    const { thread } = (await client.request('thread/start', { cwd: home.workspace })) as { thread: { id: string } };
    await runTurnToEnd(client, thread.id, 'Use $alpha:greet.');
    expect(developerTexts(0).some((text) => text.includes('alpha:greet') || text.startsWith('<plugins_instructions>'))).toBe(false);
    expect(model.requests[0]!.messageTexts('user').at(-1)).toBe('Use $alpha:greet.');
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

describe('plugin recommendations', () => {
  it('lists recommended plugins, asks the user through the client, and the installed plugin serves the next turn', async () => {
    const marketRoot = path.join(path.dirname(home.home), 'mp');
    const manifest = writePluginMarketplace(marketRoot, 'localmp', [{ name: 'alpha', version: '1.2.3', skills: { greet: 'Greets the user politely.' } }, { name: 'beta' }]);
    const source = path.join(path.dirname(home.home), 'recommended.json');
    writeFileSync(source, JSON.stringify({ enabled: true, plugins: [{ id: 'alpha@localmp', name: 'alpha', display_name: 'Alpha Helper' }] }));
    appendFileSync(path.join(home.home, 'config.toml'), `\n[features]\nrecommended_plugins = true\n\n[skein]\nplugin_recommendations = "${source}"\n`);
    const client = await appServer();
    await client.request('marketplace/add', { source: marketRoot });
    const asked: unknown[] = [];
    client.onServerRequest(async (request) => {
      asked.push({ method: request.method, params: request.params });
      // The user agrees; the client installs the plugin, as Codex's clients do, then answers.
      await client.request('plugin/install', { pluginName: 'alpha', marketplacePath: manifest });
      return { action: 'accept', content: null, _meta: null };
    });
    model.expect([
      sse(functionCall('request_plugin_install', { plugin_id: 'alpha@localmp', suggest_reason: 'It greets people for you.' }, { callId: 'call_install' }), completed()),
      sse(assistantMessage('Installed.'), completed()),
      sse(assistantMessage('Hello!'), completed()),
    ]);
    const { thread } = (await client.request('thread/start', { cwd: home.workspace })) as { thread: { id: string } };
    await runTurnToEnd(client, thread.id, 'Greet people for me.');

    const first = model.requests[0]!;
    const context = first.messageTexts('user').find((text) => text.includes('<recommended_plugins>')) ?? '';
    expect(context).toContain('\n- Alpha Helper (alpha@localmp)\n');
    const tool = (first.body?.tools ?? []).find((candidate) => (candidate as { name?: string }).name === 'request_plugin_install') as { parameters: unknown } | undefined;
    expect(tool?.parameters).toMatchObject({ type: 'object', required: ['plugin_id', 'suggest_reason'], additionalProperties: false });
    expect((first.body?.tools ?? []).some((candidate) => (candidate as { name?: string }).name === 'list_available_plugins_to_install')).toBe(false);
    expect(asked).toEqual([
      {
        method: 'mcpServer/elicitation/request',
        params: expect.objectContaining({
          threadId: thread.id,
          serverName: 'codex_apps',
          mode: 'form',
          _meta: { codex_approval_kind: 'tool_suggestion', tool_type: 'plugin', suggest_type: 'install', suggest_reason: 'It greets people for you.', tool_id: 'alpha@localmp', tool_name: 'Alpha Helper' },
        }) as unknown,
      },
    ]);
    expect(JSON.parse(model.requests[1]!.toolOutputText('call_install') ?? '{}')).toEqual({
      completed: true,
      user_confirmed: true,
      tool_type: 'plugin',
      action_type: 'install',
      tool_id: 'alpha@localmp',
      tool_name: 'Alpha Helper',
      suggest_reason: 'It greets people for you.',
    });

    // The next turn has the plugin's skill.
    await runTurnToEnd(client, thread.id, 'Now use $alpha:greet.');
    const cached = path.join(home.home, 'plugins', 'cache', 'localmp', 'alpha', '1.2.3', 'skills', 'greet', 'SKILL.md');
    expect(model.requests[2]!.messageTexts('user').at(-1)).toBe(`<skill>\n<name>alpha:greet</name>\n<path>${cached}</path>\n${readFileSync(cached, 'utf8')}\n</skill>`);
    expect(client.schemaFailures).toEqual([]);
  });

  it('refuses a plugin that is not recommended and an empty reason, and goes on without a source that cannot be read', async () => {
    const source = path.join(path.dirname(home.home), 'recommended.json');
    writeFileSync(source, JSON.stringify({ plugins: [{ id: 'alpha@localmp', display_name: 'Alpha Helper' }] }));
    appendFileSync(path.join(home.home, 'config.toml'), `\n[features]\nrecommended_plugins = true\n\n[skein]\nplugin_recommendations = "${source}"\n`);
    const client = await appServer();
    model.expect([
      sse(functionCall('request_plugin_install', { plugin_id: 'evil@elsewhere', suggest_reason: 'x' }, { callId: 'call_1' }), completed()),
      sse(functionCall('request_plugin_install', { plugin_id: 'alpha@localmp', suggest_reason: '  ' }, { callId: 'call_2' }), completed()),
      sse(assistantMessage('Fine.'), completed()),
      sse(assistantMessage('No list.'), completed()),
    ]);
    const { thread } = (await client.request('thread/start', { cwd: home.workspace })) as { thread: { id: string } };
    await runTurnToEnd(client, thread.id, 'Install something.');
    expect(model.requests[1]!.toolOutputText('call_1')).toMatch(/must be one of the plugins in the <recommended_plugins> list \(alpha@localmp\)/);
    expect(model.requests[2]!.toolOutputText('call_2')).toBe('suggest_reason must not be empty');

    // A source that cannot be read: a warning, no list, no tool, and the turn runs.
    writeFileSync(source, '{ not json');
    const other = (await client.request('thread/start', { cwd: home.workspace })) as { thread: { id: string } };
    await runTurnToEnd(client, other.thread.id, 'Anything?');
    const last = model.requests[3]!;
    expect(last.messageTexts('user').some((text) => text.includes('<recommended_plugins>'))).toBe(false);
    expect((last.body?.tools ?? []).some((candidate) => (candidate as { name?: string }).name === 'request_plugin_install')).toBe(false);
    const warning = client.notifications.find((note) => note.method === 'warning' && JSON.stringify(note.params).includes('plugin recommendations are unavailable'));
    expect(warning).toBeDefined();
  });

  it('offers the list-backed presentation for [tool_suggest] discoverables: list the candidates, then ask to install one', async () => {
    const marketRoot = path.join(path.dirname(home.home), 'mp');
    const manifest = writePluginMarketplace(marketRoot, 'localmp', [{ name: 'alpha', skills: { greet: 'Greets.' } }, { name: 'beta', version: '2.0.0', skills: { tidy: 'Tidies up.' } }]);
    appendFileSync(path.join(home.home, 'config.toml'), '\n[tool_suggest]\ndiscoverables = [{ type = "plugin", id = "beta@localmp" }, { type = "connector", id = "connector_x" }]\n');
    const client = await appServer();
    await client.request('marketplace/add', { source: marketRoot });
    client.onServerRequest(async (request) => {
      await client.request('plugin/install', { pluginName: 'beta', marketplacePath: manifest });
      return { action: 'accept', content: null, _meta: (request.params as { _meta: unknown })._meta };
    });
    model.expect([
      sse(functionCall('list_available_plugins_to_install', {}, { callId: 'call_list' }), completed()),
      sse(functionCall('request_plugin_install', { tool_type: 'plugin', action_type: 'uninstall', tool_id: 'beta@localmp', suggest_reason: 'x' }, { callId: 'call_bad' }), completed()),
      sse(functionCall('request_plugin_install', { tool_type: 'plugin', action_type: 'install', tool_id: 'beta@localmp', suggest_reason: 'It tidies.' }, { callId: 'call_ok' }), completed()),
      sse(assistantMessage('Done.'), completed()),
    ]);
    const { thread } = (await client.request('thread/start', { cwd: home.workspace })) as { thread: { id: string } };
    await runTurnToEnd(client, thread.id, 'I want the beta plugin.');
    const tools = (model.requests[0]!.body?.tools ?? []) as { name?: string; parameters?: { required?: string[] } }[];
    expect(tools.find((tool) => tool.name === 'request_plugin_install')?.parameters?.required).toEqual(['tool_type', 'action_type', 'tool_id', 'suggest_reason']);
    expect(tools.some((tool) => tool.name === 'list_available_plugins_to_install')).toBe(true);
    expect(JSON.parse(model.requests[1]!.toolOutputText('call_list') ?? '{}')).toEqual({
      tools: [{ id: 'beta@localmp', name: 'beta plugin', description: 'the beta plugin', tool_type: 'plugin', has_skills: true, mcp_server_names: [], app_connector_ids: [] }],
    });
    expect(model.requests[2]!.toolOutputText('call_bad')).toBe('plugin install requests support only action_type="install"');
    expect(JSON.parse(model.requests[3]!.toolOutputText('call_ok') ?? '{}')).toMatchObject({ completed: true, user_confirmed: true, tool_id: 'beta@localmp', tool_name: 'beta plugin' });
    expect(existsSync(path.join(home.home, 'plugins', 'cache', 'localmp', 'beta', '2.0.0'))).toBe(true);
  });
});
