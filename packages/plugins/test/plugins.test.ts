// Marketplaces and plugins end to end on real folders and real git repositories: config.toml as
// Codex writes it (comments kept), the cache layout, and every refusal.
import { mkdir, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pluginHooks, PluginError, readPluginManifest } from '../src/index.js';
import { commitMarketplace, gitIn, gitUrlRewrite, writePluginMarketplace } from '@skein/test-support';
import { pluginWorld } from './fixtures.js';

let world: Awaited<ReturnType<typeof pluginWorld>>;
beforeEach(async () => {
  world = await pluginWorld();
});
afterEach(async () => {
  await world.dispose();
});

const refusal = (code: string, message: RegExp | string): unknown => expect.objectContaining({ name: 'PluginError', code, message: expect.stringMatching(message) as unknown });

describe('local marketplaces', () => {
  it('adds a marketplace, installs a plugin into the cache and uninstalls it, keeping config.toml comments', async () => {
    const market = path.join(world.dir, 'mp');
    const manifest = writePluginMarketplace(market, 'localmp', [{ name: 'alpha', version: '1.2.3', skills: { greet: 'Greets.' } }, { name: 'beta' }]);
    const config = path.join(world.home, 'config.toml');
    await writeFile(config, '# my settings\nmodel = "gpt-5.5" # the model\n');

    expect(await world.service.marketplaces.add(market, { cwd: world.dir })).toEqual({ marketplaceName: 'localmp', installedRoot: market, alreadyAdded: false });
    expect(await world.service.marketplaces.add('./mp', { cwd: world.dir })).toMatchObject({ alreadyAdded: true });
    expect(await readFile(config, 'utf8')).toBe(`# my settings\nmodel = "gpt-5.5" # the model\n\n[marketplaces.localmp]\nsource_type = "local"\nsource = "${market}"\n`);

    const installed = await world.service.install('alpha', manifest);
    expect(installed).toEqual({ pluginId: 'alpha@localmp', name: 'alpha', marketplaceName: 'localmp', version: '1.2.3', installedPath: path.join(world.home, 'plugins', 'cache', 'localmp', 'alpha', '1.2.3'), authPolicy: 'ON_INSTALL' });
    expect(await readFile(path.join(installed.installedPath, 'skills', 'greet', 'SKILL.md'), 'utf8')).toContain('name: greet');
    expect(await readFile(config, 'utf8')).toContain('\n[plugins."alpha@localmp"]\nenabled = true\n');
    expect((await world.service.install('beta', manifest)).installedPath).toBe(path.join(world.home, 'plugins', 'cache', 'localmp', 'beta', 'local'));

    const listed = await world.service.list();
    expect(listed.loadErrors).toEqual([]);
    expect(listed.marketplaces.map((market) => [market.manifest.name, market.manifest.file, market.plugins.map((plugin) => [plugin.id, plugin.installed?.version, plugin.enabled])])).toEqual([
      ['localmp', manifest, [['alpha@localmp', '1.2.3', true], ['beta@localmp', 'local', true]]],
    ]);
    expect((await world.service.enabledSkillSources()).map((source) => [source.id, source.marketplaceRoot, source.skillRoots])).toEqual([
      ['alpha@localmp', path.join(world.home, 'plugins', 'cache', 'localmp'), [path.join(installed.installedPath, 'skills')]],
      ['beta@localmp', path.join(world.home, 'plugins', 'cache', 'localmp'), [path.join(world.home, 'plugins', 'cache', 'localmp', 'beta', 'local', 'skills')]],
    ]);

    await world.service.uninstall('alpha@localmp');
    await world.service.uninstall('alpha@localmp');
    expect(await readdir(path.join(world.home, 'plugins', 'cache', 'localmp'))).toEqual(['beta']);
    expect(await readFile(config, 'utf8')).not.toContain('alpha@localmp');
    expect(await readFile(config, 'utf8')).toMatch(/^# my settings\nmodel = "gpt-5.5" # the model\n/);

    expect(await world.service.marketplaces.remove('localmp')).toEqual({ marketplaceName: 'localmp', installedRoot: null });
    expect(await readFile(config, 'utf8')).not.toContain('[marketplaces.localmp]');
  });

  it('installs one plugin twice at once, and again over itself, leaving one whole version', async () => {
    const market = path.join(world.dir, 'mp');
    const manifest = writePluginMarketplace(market, 'localmp', [{ name: 'alpha', version: '1.0.0', skills: { greet: 'Greets.' } }]);
    await world.service.marketplaces.add(market, { cwd: world.dir });
    await Promise.all([world.service.install('alpha', manifest), world.service.install('alpha', manifest)]);
    writePluginMarketplace(market, 'localmp', [{ name: 'alpha', version: '2.0.0', skills: { greet: 'Greets better.' } }]);
    await world.service.install('alpha', manifest);
    const pluginDir = path.join(world.home, 'plugins', 'cache', 'localmp', 'alpha');
    expect(await readdir(pluginDir)).toEqual(['2.0.0']);
    expect(await readFile(path.join(pluginDir, '2.0.0', 'skills', 'greet', 'SKILL.md'), 'utf8')).toContain('Greets better.');
  });

  it('finds the user marketplace without adding it and searches plugins', async () => {
    writePluginMarketplace(world.userHome, 'personal', [{ name: 'notes', skills: { jot: 'Writes notes down.' } }, { name: 'other' }]);
    const found = await world.service.search('NOTES');
    expect(found.map((hit) => [hit.marketplace.name, hit.plugin.id])).toEqual([['personal', 'notes@personal']]);
    expect(await world.service.marketplacePathOf('personal')).toBe(path.join(world.userHome, '.agents', 'plugins', 'marketplace.json'));
  });

  it('refuses bad sources, names, manifests and policies, naming what is wrong', async () => {
    const market = path.join(world.dir, 'mp');
    const manifest = writePluginMarketplace(market, 'localmp', [
      { name: 'broken', manifest: '{"name": ' },
      { name: 'na', policy: { installation: 'NOT_AVAILABLE' } },
      { name: 'mismatch', manifest: '{"name":"other"}' },
    ]);
    await mkdir(path.join(world.dir, 'empty'));
    const { marketplaces } = world.service;
    await expect(marketplaces.add(path.join(world.dir, 'empty'), { cwd: world.dir })).rejects.toEqual(refusal('InvalidManifest', /does not contain a supported manifest/));
    await expect(marketplaces.add(path.join(world.dir, 'missing'), { cwd: world.dir })).rejects.toEqual(refusal('NotFound', /failed to resolve local marketplace source path/));
    await expect(marketplaces.add('file:///etc', { cwd: world.dir })).rejects.toEqual(refusal('InvalidRequest', /invalid marketplace source format/));
    await expect(marketplaces.add('http://git.example.com/market.git', { cwd: world.dir })).rejects.toEqual(refusal('InvalidRequest', /is plain http:\/\/: use https:\/\/ or ssh:\/\//));
    await expect(marketplaces.add(market, { cwd: world.dir, ref: 'main' })).rejects.toEqual(refusal('InvalidRequest', /--ref is only supported for git/));
    await expect(marketplaces.remove('nomp')).rejects.toEqual(refusal('NotFound', 'marketplace `nomp` is not configured or installed'));
    await expect(marketplaces.upgrade('nomp')).rejects.toEqual(refusal('InvalidRequest', 'marketplace `nomp` is not configured as a Git marketplace'));

    await expect(world.service.install('nope', manifest)).rejects.toEqual(refusal('NotFound', 'plugin `nope` was not found in marketplace `localmp`'));
    await expect(world.service.install('../na', manifest)).rejects.toEqual(refusal('NotFound', /not found/));
    await expect(world.service.install('na', manifest)).rejects.toEqual(refusal('InvalidRequest', 'plugin `na` is not available for install in marketplace `localmp`'));
    await expect(world.service.install('broken', manifest)).rejects.toEqual(refusal('InvalidManifest', /invalid JSON/));
    await expect(world.service.install('mismatch', manifest)).rejects.toEqual(refusal('InvalidManifest', 'plugin.json name `other` does not match marketplace plugin name `mismatch`'));
    await expect(world.service.install('na', path.join(world.dir, 'nowhere.json'))).rejects.toEqual(refusal('NotFound', /does not exist/));
    await expect(world.service.uninstall('../x@localmp')).rejects.toBeInstanceOf(PluginError);
    await expect(world.service.uninstall('no-id')).rejects.toEqual(refusal('InvalidRequest', /expected <plugin>@<marketplace>/));
    // Nothing was half-installed.
    await expect(readdir(path.join(world.home, 'plugins', 'cache'))).rejects.toMatchObject({ code: 'ENOENT' });

    // A marketplace that does not parse is reported, and the others still list.
    writePluginMarketplace(path.join(world.dir, 'good'), 'goodmp', [{ name: 'fine' }]);
    await marketplaces.add(path.join(world.dir, 'good'), { cwd: world.dir });
    await marketplaces.add(market, { cwd: world.dir });
    await writeFile(manifest, '{"name":"localmp","plugins":[{"name":"x"}]}');
    const listed = await world.service.list();
    expect(listed.marketplaces.map((entry) => entry.manifest.name)).toEqual(['goodmp']);
    expect(listed.loadErrors).toEqual([{ marketplacePath: manifest, message: expect.stringContaining('invalid manifest') as unknown }]);
  });

  it('leaves out entries whose source leaves the marketplace, and copies no symbolic links', async () => {
    const market = path.join(world.dir, 'mp');
    const manifest = writePluginMarketplace(market, 'localmp', [{ name: 'alpha', skills: { greet: 'Greets.' } }]);
    const json = JSON.parse(await readFile(manifest, 'utf8')) as { plugins: unknown[] };
    json.plugins.push({ name: 'escape', source: { source: 'local', path: '../outside' } }, { name: 'bare', source: 'plugins/alpha' });
    await writeFile(manifest, JSON.stringify(json));
    await writeFile(path.join(world.dir, 'secret.txt'), 'secret');
    await symlink(path.join(world.dir, 'secret.txt'), path.join(market, 'plugins', 'alpha', 'skills', 'greet', 'secret.txt'));
    await world.service.marketplaces.add(market, { cwd: world.dir });
    expect((await world.service.list()).marketplaces[0]?.plugins.map((plugin) => plugin.name)).toEqual(['alpha']);
    const installed = await world.service.install('alpha', manifest);
    expect((await readdir(path.join(installed.installedPath, 'skills', 'greet'))).sort()).toEqual(['SKILL.md']);
    // A plugin folder that is itself a link is refused.
    await mkdir(path.join(world.dir, 'elsewhere', '.codex-plugin'), { recursive: true });
    await writeFile(path.join(world.dir, 'elsewhere', '.codex-plugin', 'plugin.json'), '{"name":"linked"}');
    await symlink(path.join(world.dir, 'elsewhere'), path.join(market, 'plugins', 'linked'));
    json.plugins.push({ name: 'linked', source: { source: 'local', path: './plugins/linked' } });
    await writeFile(manifest, JSON.stringify(json));
    await expect(world.service.install('linked', manifest)).rejects.toEqual(refusal('InvalidManifest', /leads outside .* symbolic link/));
    await expect(world.service.marketplaces.add('https://example.test/x.git', { cwd: world.dir, sparsePaths: ['../up'] })).rejects.toEqual(refusal('InvalidRequest', /invalid sparse path/));
  });
});

describe('what a marketplace or a client cannot reach', () => {
  it("refuses to install from a folder that calls itself a configured marketplace's name, keeping the installed plugin", async () => {
    const market = path.join(world.dir, 'mp');
    const manifest = writePluginMarketplace(market, 'localmp', [{ name: 'alpha', version: '1.0.0' }]);
    await world.service.marketplaces.add(market, { cwd: world.dir });
    const installed = await world.service.install('alpha', manifest);
    const impostor = writePluginMarketplace(path.join(world.dir, 'elsewhere'), 'localmp', [{ name: 'alpha', version: '6.6.6' }]);

    await expect(world.service.install('alpha', impostor)).rejects.toEqual(refusal('InvalidRequest', /^marketplace `localmp` is configured at `.*mp`; `.*elsewhere` calls itself the same name/));
    expect(await readdir(path.join(world.home, 'plugins', 'cache', 'localmp', 'alpha'))).toEqual([path.basename(installed.installedPath)]);
  });

  it('refuses marketplace names that are not one folder, leaving the home alone', async () => {
    const victim = path.join(world.dir, 'victim');
    await mkdir(victim);
    const { marketplaces } = world.service;
    for (const name of ['../../victim', '..', '.staging', 'a/b']) {
      await expect(marketplaces.remove(name)).rejects.toEqual(refusal('InvalidRequest', /invalid marketplace name/));
      await expect(marketplaces.upgrade(name)).rejects.toEqual(refusal('InvalidRequest', /invalid marketplace name/));
    }
    await expect(readdir(victim)).resolves.toEqual([]);
    // A config.toml that names one anyway lists nothing under it.
    await writeFile(path.join(world.home, 'config.toml'), '[marketplaces."../../victim"]\nsource_type = "git"\nsource = "https://example.test/x.git"\n');
    expect((await marketplaces.known()).filter((known) => known.name !== undefined)).toEqual([]);
  });

  it('refuses a plugin reached through a linked folder, and skips entries it cannot install', async () => {
    const market = path.join(world.dir, 'mp');
    const manifest = writePluginMarketplace(market, 'localmp', [{ name: 'alpha' }]);
    // `plugins/` itself is a link to a folder outside the marketplace holding a plausible plugin.
    const outside = path.join(world.dir, 'outside');
    writePluginMarketplace(outside, 'other', [{ name: 'x' }]);
    await writeFile(path.join(outside, 'plugins', 'x', 'secret.txt'), 'secret');
    await mkdir(path.join(market, 'more'));
    await symlink(path.join(outside, 'plugins'), path.join(market, 'more', 'plugins'));
    const json = JSON.parse(await readFile(manifest, 'utf8')) as { plugins: unknown[] };
    json.plugins.push({ name: 'x', source: { source: 'local', path: './more/plugins/x' } }, { name: 'gh', source: { source: 'github', repo: 'acme/gh' } }, { name: '../evil', source: './plugins/alpha' });
    await writeFile(manifest, JSON.stringify(json));
    await world.service.marketplaces.add(market, { cwd: world.dir });
    const listed = (await world.service.list()).marketplaces[0]?.plugins ?? [];
    expect(listed.map((plugin) => [plugin.name, plugin.manifest === undefined])).toEqual([['alpha', false], ['x', true]]);
    await expect(world.service.install('x', manifest)).rejects.toEqual(refusal('InvalidManifest', /leads outside/));
    await expect(readdir(path.join(world.home, 'plugins', 'cache'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('lists no hooks for a hooks file that does not parse, rather than failing the read', async () => {
    const market = path.join(world.dir, 'mp');
    writePluginMarketplace(market, 'localmp', [{ name: 'alpha', manifest: JSON.stringify({ name: 'alpha', hooks: { PreToolUse: { not: 'a list' }, Stop: [null, { hooks: [{}] }] } }) }]);
    const manifest = await readPluginManifest(path.join(market, 'plugins', 'alpha'));
    expect(await pluginHooks(manifest)).toEqual([{ key: 'alpha:plugin.json:Stop:1:0', eventName: 'stop' }]);
  });
});

describe('git marketplaces', () => {
  const URL_BASE = 'https://git.example.test/';
  let saved: NodeJS.ProcessEnv;
  beforeEach(() => {
    saved = { ...process.env };
    // git rewrites the URL to a local repository, as a Codex user's `insteadOf` would.
    Object.assign(process.env, gitUrlRewrite(URL_BASE, path.join(world.dir, 'repos')));
  });
  afterEach(() => {
    process.env = saved;
  });

  function repo(): string {
    const dir = path.join(world.dir, 'repos', 'gitmp');
    writePluginMarketplace(dir, 'gitmp', [{ name: 'alpha', version: '1.0.0', skills: { greet: 'Greets.' } }]);
    commitMarketplace(dir, 'first', 'v1');
    return dir;
  }

  it('clones, records the source, upgrades when the repository moves, and removes the checkout', async () => {
    const dir = repo();
    const checkout = path.join(world.home, '.tmp', 'marketplaces', 'gitmp');
    expect(await world.service.marketplaces.add(`${URL_BASE}gitmp`, { cwd: world.dir, ref: 'v1' })).toEqual({ marketplaceName: 'gitmp', installedRoot: checkout, alreadyAdded: false });
    expect(await readFile(path.join(world.home, 'config.toml'), 'utf8')).toBe(`[marketplaces.gitmp]\nsource_type = "git"\nsource = "${URL_BASE}gitmp"\nref = "v1"\n`);
    expect(await world.service.marketplaces.add(`${URL_BASE}gitmp`, { cwd: world.dir, ref: 'v1' })).toMatchObject({ alreadyAdded: true });
    await expect(world.service.marketplaces.add(`${URL_BASE}gitmp`, { cwd: world.dir })).rejects.toEqual(refusal('Conflict', /already added from a different source/));
    const installed = await world.service.install('alpha', await world.service.marketplacePathOf('gitmp'));
    expect(installed.installedPath).toBe(path.join(world.home, 'plugins', 'cache', 'gitmp', 'alpha', '1.0.0'));

    // The first upgrade records the revision; the next finds nothing new until the tag moves.
    expect(await world.service.marketplaces.upgrade()).toEqual({ selectedMarketplaces: ['gitmp'], upgradedRoots: [checkout], errors: [] });
    const record = JSON.parse(await readFile(path.join(checkout, '.codex-marketplace-install.json'), 'utf8')) as Record<string, unknown>;
    expect(record).toEqual({ source_type: 'git', source: `${URL_BASE}gitmp`, ref_name: 'v1', sparse_paths: [], revision: gitIn(dir, 'rev-parse', 'v1') });
    expect((await world.service.marketplaces.upgrade('gitmp')).upgradedRoots).toEqual([]);
    writePluginMarketplace(dir, 'gitmp', [{ name: 'alpha', version: '1.0.0' }, { name: 'beta' }]);
    commitMarketplace(dir, 'second', 'v1');
    expect((await world.service.marketplaces.upgrade('gitmp')).upgradedRoots).toEqual([checkout]);
    expect((await world.service.list()).marketplaces[0]?.plugins.map((plugin) => plugin.id)).toEqual(['alpha@gitmp', 'beta@gitmp']);

    expect(await world.service.marketplaces.remove('gitmp')).toEqual({ marketplaceName: 'gitmp', installedRoot: checkout });
    await expect(readdir(checkout)).rejects.toMatchObject({ code: 'ENOENT' });
    // Its installed plugins stay installed, as Codex leaves them.
    expect((await world.service.enabledSkillSources()).map((source) => source.id)).toEqual(['alpha@gitmp']);
  });

  it('reports a repository that cannot be cloned, leaving no checkout behind', async () => {
    await expect(world.service.marketplaces.add(`${URL_BASE}missing`, { cwd: world.dir })).rejects.toEqual(refusal('GitFailed', /git clone failed/));
    await expect(readdir(path.join(world.home, '.tmp', 'marketplaces', '.staging'))).resolves.toEqual([]);
    await expect(world.service.marketplaces.upgrade('nothing')).rejects.toEqual(refusal('InvalidRequest', /not configured as a Git marketplace/));
  });
});
