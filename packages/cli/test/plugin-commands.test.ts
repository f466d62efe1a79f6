// `skein plugin …` on a real home: a marketplace from a folder, a plugin installed and used by
// `skein exec` (its skill injected by `$plugin:skill`), listed, removed; refusals exit 1 with the
// reason on stderr, and the config file keeps its comments.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { assistantMessage, completed, resolveCodexBinary, sse, writePluginMarketplace } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execScratch, type ExecScratch } from './support/exec-run.js';

let scratch: ExecScratch;
beforeEach(async () => {
  scratch = await execScratch('skein-plugin-commands-');
});
afterEach(async () => {
  await scratch.cleanup();
});

describe('skein plugin', () => {
  it('adds a marketplace, installs a plugin that exec then uses, lists it and removes it', async () => {
    const market = path.join(scratch.scratch, 'mp');
    writePluginMarketplace(market, 'localmp', [{ name: 'alpha', version: '1.2.3', skills: { greet: 'Greets the user politely.' } }, { name: 'beta' }]);
    const added = await scratch.skein(['plugin', 'marketplace', 'add', market, '--json']);
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toEqual({ marketplaceName: 'localmp', installedRoot: market, alreadyAdded: false });

    const install = await scratch.skein(['plugin', 'add', 'alpha@localmp', '--json']);
    expect(install.code, install.stderr).toBe(0);
    const cacheRoot = path.join(scratch.home, 'plugins', 'cache', 'localmp', 'alpha', '1.2.3');
    expect(JSON.parse(install.stdout)).toEqual({ pluginId: 'alpha@localmp', name: 'alpha', marketplaceName: 'localmp', version: '1.2.3', installedPath: cacheRoot, authPolicy: 'ON_INSTALL' });
    expect(readFileSync(path.join(scratch.home, 'config.toml'), 'utf8')).toContain('[plugins."alpha@localmp"]\nenabled = true\n');

    const listed = await scratch.skein(['plugin', 'list', '--available', '--json']);
    const rows = JSON.parse(listed.stdout) as { installed: { pluginId: string; enabled: boolean }[]; available: { pluginId: string }[] };
    expect(rows.installed.map((row) => [row.pluginId, row.enabled])).toEqual([['alpha@localmp', true]]);
    expect(rows.available.map((row) => row.pluginId)).toEqual(['beta@localmp']);

    scratch.server.expect([sse(assistantMessage('Hello!'), completed())]);
    const run = await scratch.skein(['exec', '--json', 'Use $alpha:greet.']);
    expect(run.code, run.stderr).toBe(0);
    const skill = path.join(cacheRoot, 'skills', 'greet', 'SKILL.md');
    expect(scratch.server.requests[0]!.messageTexts('user').at(-1)).toBe(`<skill>\n<name>alpha:greet</name>\n<path>${skill}</path>\n${readFileSync(skill, 'utf8')}\n</skill>`);

    const removed = await scratch.skein(['plugin', 'remove', 'alpha@localmp']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toBe('Removed plugin `alpha` from marketplace `localmp`.\n');
    expect(existsSync(cacheRoot)).toBe(false);
    const gone = await scratch.skein(['plugin', 'marketplace', 'remove', 'localmp']);
    expect(gone.code, gone.stderr).toBe(0);
    expect(readFileSync(path.join(scratch.home, 'config.toml'), 'utf8')).not.toContain('localmp');
  });

  it('refuses what it cannot do, exiting 1 with the reason', async () => {
    const market = path.join(scratch.scratch, 'mp');
    writePluginMarketplace(market, 'localmp', [{ name: 'alpha' }]);
    expect(await scratch.skein(['plugin', 'marketplace', 'add', 'file:///etc'])).toMatchObject({ code: 1, stderr: expect.stringContaining('invalid marketplace source format') as unknown });
    expect(await scratch.skein(['plugin', 'add', 'alpha'])).toMatchObject({ code: 1, stderr: expect.stringContaining('plugin requires --marketplace') as unknown });
    expect(await scratch.skein(['plugin', 'add', 'alpha@nowhere'])).toMatchObject({ code: 1, stderr: expect.stringContaining('marketplace `nowhere` is not configured or installed') as unknown });
    await scratch.skein(['plugin', 'marketplace', 'add', market]);
    expect(await scratch.skein(['plugin', 'add', 'nope', '--marketplace', 'localmp'])).toMatchObject({ code: 1, stderr: 'error: plugin `nope` was not found in marketplace `localmp`\n' });
    expect(await scratch.skein(['plugin', 'marketplace', 'upgrade', 'localmp'])).toMatchObject({ code: 1, stderr: expect.stringContaining('is not configured as a Git marketplace') as unknown });
    expect(await scratch.skein(['plugin', 'add', '../x@localmp'])).toMatchObject({ code: 1, stderr: expect.stringContaining('plugin requires --marketplace') as unknown });
    const listed = JSON.parse((await scratch.skein(['plugin', 'marketplace', 'list', '--json'])).stdout) as unknown;
    expect(listed).toEqual({ marketplaces: [{ name: 'localmp', root: market, marketplaceSource: { sourceType: 'local', source: market } }] });
    // A marketplace that no longer parses fails the listing, naming it.
    writePluginMarketplace(market, 'localmp', []);
    writeFileSync(path.join(market, '.agents', 'plugins', 'marketplace.json'), '{"name": "localmp", "plugins": [{"name": "x"}]}');
    expect(await scratch.skein(['plugin', 'list'])).toMatchObject({ code: 1, stderr: expect.stringContaining('missing field `source`') as unknown });
  });
});

const codex = resolveCodexBinary(import.meta.url);

describe.skipIf(codex.binary === undefined)(`one home, shared with Codex 0.171.0${codex.missing === undefined ? '' : ` (skipped: ${codex.missing})`}`, () => {
  it('lists what the other installed, and removes it', async () => {
    const market = path.join(scratch.scratch, 'mp');
    writePluginMarketplace(market, 'localmp', [{ name: 'alpha', version: '1.2.3', skills: { greet: 'Greets.' } }, { name: 'beta' }]);
    const runCodex = (...args: string[]) =>
      execFileSync(codex.binary ?? 'codex', args, { cwd: scratch.scratch, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: path.join(scratch.scratch, 'user'), CODEX_HOME: scratch.home } });
    expect((await scratch.skein(['plugin', 'marketplace', 'add', market])).code).toBe(0);
    expect((await scratch.skein(['plugin', 'add', 'alpha@localmp'])).code).toBe(0);

    // Codex reads Skein's marketplace table, plugin table and cache.
    const seen = JSON.parse(runCodex('plugin', 'list', '--json')) as { installed: { pluginId: string; enabled: boolean; version: string }[] };
    expect(seen.installed.map((row) => [row.pluginId, row.enabled, row.version])).toEqual([['alpha@localmp', true, '1.2.3']]);
    // And Skein reads what Codex installs.
    runCodex('plugin', 'add', 'beta@localmp');
    const listed = JSON.parse((await scratch.skein(['plugin', 'list', '--json'])).stdout) as { installed: { pluginId: string; version: string }[] };
    expect(listed.installed.map((row) => [row.pluginId, row.version])).toEqual([
      ['alpha@localmp', '1.2.3'],
      ['beta@localmp', 'local'],
    ]);
    runCodex('plugin', 'remove', 'alpha@localmp');
    expect(((JSON.parse((await scratch.skein(['plugin', 'list', '--json'])).stdout) as typeof listed).installed).map((row) => row.pluginId)).toEqual(['beta@localmp']);
  });
});

