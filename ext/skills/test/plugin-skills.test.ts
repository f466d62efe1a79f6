// Installed plugins as skill sources: the host names them in the settings; their skills are listed as
// `<plugin>:<skill>` under the marketplace's cache folder, after the system skills, selected with
// `$plugin:skill`, switched off per thread, and scanned again only when the plugin changes.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { JsonValue } from '@skein/extension-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { extensionRequest } from './support/extension-request.js';
import { SkillsService } from '../src/skills-service.js';
import type { PluginSkillSource } from '../src/skills-settings.js';

let home: string;
/** `<home>/plugins/cache/localmp`. */
let marketplace: string;
let plugins: PluginSkillSource[];
let disabled: Map<string, readonly string[]>;
let service: SkillsService;

const GREET = '---\nname: greet\ndescription: Greets the user politely.\n---\nSay hello.\n';

beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'skein-plugin-skills-'));
  marketplace = path.join(home, 'plugins', 'cache', 'localmp');
  plugins = [];
  disabled = new Map();
  service = new SkillsService({
    home,
    settings: () => Promise.resolve({ projectRoot: home, toggles: [], remoteSkills: false, plugins }),
    disabledPlugins: (threadId) => disabled.get(threadId) ?? [],
    watch: false,
    userHome: null,
    adminRoot: null,
  });
});
afterEach(async () => {
  await service.close();
  rmSync(home, { recursive: true, force: true });
});

const write = (file: string, text: string) => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
};

/** Installs `alpha` at `version` with a `greet` skill, as the host's plugin cache holds it, and names it in the settings. */
function installAlpha(version = '1.2.3'): PluginSkillSource {
  const root = path.join(marketplace, 'alpha', version);
  write(path.join(root, '.codex-plugin', 'plugin.json'), JSON.stringify({ name: 'alpha', version }));
  write(path.join(root, 'skills', 'greet', 'SKILL.md'), GREET);
  const source: PluginSkillSource = { id: 'alpha@localmp', name: 'alpha', marketplaceRoot: marketplace, root, skillRoots: [path.join(root, 'skills')] };
  plugins = [source];
  return source;
}

const greetPath = (version = '1.2.3') => path.join(marketplace, 'alpha', version, 'skills', 'greet', 'SKILL.md');

function request(prompt: string, threadId = 't1') {
  return extensionRequest({ threadId, cwd: home, prompt });
}

async function catalogText(threadId = 't1'): Promise<string> {
  return (await service.extension.context!.threadFragments!(request('', threadId))).map((fragment) => fragment.text).join('\n');
}

describe('plugin skills', () => {
  it('are listed as <plugin>:<skill> with the plugin id, user scope and the SKILL.md in the cache', async () => {
    installAlpha();
    write(path.join(marketplace, 'alpha', '1.2.3', 'skills', 'quiet', 'SKILL.md'), '---\nname: quiet\ndescription: Only on request.\n---\n');
    write(path.join(marketplace, 'alpha', '1.2.3', 'skills', 'quiet', 'agents', 'openai.yaml'), 'policy:\n  allow_implicit_invocation: false\n');
    const listed = await service.listForClient(home);
    const fromPlugin = listed.skills.filter((skill) => skill.pluginId !== undefined);
    expect(fromPlugin).toEqual([
      { name: 'alpha:greet', description: 'Greets the user politely.', hidden: false, scope: 'user', pluginId: 'alpha@localmp', enabled: true, locator: { kind: 'file', rootPath: marketplace, path: greetPath() } },
      { name: 'alpha:quiet', description: 'Only on request.', hidden: true, scope: 'user', pluginId: 'alpha@localmp', enabled: true, locator: { kind: 'file', rootPath: marketplace, path: path.join(marketplace, 'alpha', '1.2.3', 'skills', 'quiet', 'SKILL.md') } },
    ]);
    // The bundled system skills are there too, without a plugin id; plugin skills come after them.
    const names = listed.skills.map((skill) => skill.name);
    expect(names.indexOf('create-skill')).toBeGreaterThanOrEqual(0);
    expect(names.indexOf('alpha:greet')).toBeGreaterThan(names.indexOf('create-skill'));
    expect(listed.skills.find((skill) => skill.name === 'create-skill')!.pluginId).toBeUndefined();
    expect(listed.problems).toEqual([]);
  });

  it('come after the system skills in the catalog, under the marketplace cache folder as their root', async () => {
    installAlpha();
    const text = await catalogText();
    expect(text).toContain(`### Skill roots\n- \`r0\` = \`${path.join(home, 'skills', '.system')}\`\n- \`r1\` = \`${marketplace}\`\n### Available skills\n`);
    const lines = text.split('\n');
    const greet = lines.indexOf('- alpha:greet: Greets the user politely. (file: r1/alpha/1.2.3/skills/greet/SKILL.md)');
    expect(greet).toBeGreaterThan(lines.findIndex((line) => line.startsWith('- create-skill: ')));
    expect(greet).toBeGreaterThan(lines.findIndex((line) => line.startsWith('- install-skill: ')));
  });

  it('keeps a hidden plugin skill out of the catalog while $name still injects it', async () => {
    installAlpha();
    write(path.join(marketplace, 'alpha', '1.2.3', 'skills', 'quiet', 'SKILL.md'), '---\nname: quiet\ndescription: Only on request.\n---\n');
    write(path.join(marketplace, 'alpha', '1.2.3', 'skills', 'quiet', 'agents', 'openai.yaml'), 'policy:\n  allow_implicit_invocation: false\n');
    expect(await catalogText()).not.toContain('alpha:quiet');
    const injected = await service.extension.turnInput!.contributeTurnInput(request('Use $alpha:quiet.'));
    expect(JSON.stringify(injected)).toContain('<name>alpha:quiet</name>');
  });

  it('are injected for $plugin:skill and for the linked form', async () => {
    installAlpha();
    const expected = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: `<skill>\n<name>alpha:greet</name>\n<path>${greetPath()}</path>\n${GREET}\n</skill>` }] }];
    expect(await service.extension.turnInput!.contributeTurnInput(request('Please $alpha:greet me.'))).toEqual(expected);
    expect(await service.extension.turnInput!.contributeTurnInput(request(`Please [$alpha:greet](${greetPath()}) me.`))).toEqual(expected);
  });

  it('are left out for a thread that switched the plugin off, and only for that thread', async () => {
    installAlpha();
    disabled.set('t1', ['alpha@localmp']);
    const off = await catalogText('t1');
    expect(off).not.toContain('alpha:greet');
    expect(off).not.toContain(marketplace);
    expect(await service.extension.turnInput!.contributeTurnInput(request('Please $alpha:greet me.', 't1'))).toEqual([]);
    expect(await service.extension.turnInput!.contributeTurnInput(request(`Please [$alpha:greet](${greetPath()}) me.`, 't1'))).toEqual([]);

    expect(await catalogText('t2')).toContain('- alpha:greet: ');
    expect(await service.extension.turnInput!.contributeTurnInput(request('Please $alpha:greet me.', 't2'))).toHaveLength(1);
    // skills/list has no thread: every plugin the host names is listed.
    expect((await service.listForClient(home)).skills.map((skill) => skill.name)).toContain('alpha:greet');
  });

  it('reuse one snapshot and catalog across turns and threads until the plugin changes', async () => {
    installAlpha();
    const first = await service.turnCatalog(request('', 't1'));
    const again = await service.turnCatalog(request('', 't1'));
    expect(again).toBe(first);
    const [snapshot] = first.plugins;
    expect((await service.turnCatalog(request('', 't2'))).plugins[0]).toBe(snapshot);
    expect(await service.turnCatalog(request('', 't1'))).toBe(first);

    // A skill added to the installed plugin: its skill folder's mtime changed.
    write(path.join(marketplace, 'alpha', '1.2.3', 'skills', 'wave', 'SKILL.md'), '---\nname: wave\ndescription: Waves.\n---\n');
    const added = await service.turnCatalog(request('', 't1'));
    expect(added).not.toBe(first);
    expect(added.plugins[0]).not.toBe(snapshot);
    expect(added.skills.map((skill) => skill.name)).toEqual(expect.arrayContaining(['alpha:greet', 'alpha:wave']));
    expect(await service.turnCatalog(request('', 't1'))).toBe(added);

    // A new version installed: the host names another folder.
    installAlpha('1.3.0');
    const upgraded = await service.turnCatalog(request('', 't1'));
    expect(upgraded).not.toBe(added);
    expect(upgraded.skills.find((skill) => skill.name === 'alpha:greet')!.locator).toEqual({ kind: 'file', rootPath: marketplace, path: greetPath('1.3.0') });
    expect(upgraded.skills.map((skill) => skill.name)).not.toContain('alpha:wave');
  });

  it('send the catalog again when a plugin is installed or removed between turns', async () => {
    const section = service.extension.worldState![0]!;
    const before = (await section.snapshot(request(''))) as { readonly digest: string; readonly text: string };
    expect(before.text).not.toContain('alpha:greet');
    installAlpha();
    const installed = (await section.snapshot(request(''))) as { readonly digest: string; readonly text: string };
    expect(installed.digest).not.toBe(before.digest);
    expect(section.renderChange(before as unknown as JsonValue, installed as unknown as JsonValue)).toContain('- alpha:greet: Greets the user politely. (file: r1/alpha/1.2.3/skills/greet/SKILL.md)');
    plugins = [];
    const removed = (await section.snapshot(request(''))) as { readonly digest: string; readonly text: string };
    expect(removed.digest).toBe(before.digest);
    expect(removed.text).not.toContain('alpha:greet');
  });

  it('report a broken SKILL.md as a problem and keep the plugin’s other skills', async () => {
    installAlpha();
    const broken = path.join(marketplace, 'alpha', '1.2.3', 'skills', 'broken', 'SKILL.md');
    write(broken, 'no front matter here\n');
    const listed = await service.listForClient(home);
    expect(listed.skills.map((skill) => skill.name)).toContain('alpha:greet');
    expect(listed.problems.map((problem) => problem.path)).toEqual([broken]);
    expect(listed.problems[0]!.message).toMatch(/missing YAML front matter/);
    const catalog = await service.turnCatalog(request(''));
    expect(catalog.warnings).toEqual([expect.stringMatching(new RegExp(`^skill ${broken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} was not loaded: missing YAML front matter`))]);
    expect(catalog.skills.map((skill) => skill.name)).toContain('alpha:greet');
  });

  it('never take the name of a host skill', async () => {
    installAlpha();
    write(path.join(home, 'skills', 'impostor', 'SKILL.md'), '---\nname: "alpha:greet"\ndescription: A host skill.\n---\n');
    const catalog = await service.turnCatalog(request(''));
    const named = catalog.skills.filter((skill) => skill.name === 'alpha:greet');
    expect(named).toHaveLength(1);
    expect(named[0]!.pluginId).toBeUndefined();
    expect(named[0]!.description).toBe('A host skill.');
  });

  it('ignore a skill folder outside the installed plugin, with a problem saying so', async () => {
    const source = installAlpha();
    const outside = path.join(home, 'elsewhere');
    write(path.join(outside, 'x', 'SKILL.md'), '---\nname: x\ndescription: X.\n---\n');
    plugins = [{ ...source, skillRoots: [...source.skillRoots, outside] }];
    const listed = await service.listForClient(home);
    expect(listed.skills.map((skill) => skill.name)).not.toContain('alpha:x');
    expect(listed.problems.map((problem) => problem.path)).toEqual([outside]);
    expect(listed.problems[0]!.message).toContain('outside its installed folder');
  });

  it('read no linked folder or SKILL.md inside a plugin: a link could reach outside it, and installs copy none', async () => {
    const source = installAlpha();
    const outside = path.join(home, 'elsewhere');
    write(path.join(outside, 'x', 'SKILL.md'), '---\nname: x\ndescription: X.\n---\n');
    write(path.join(outside, 'y.md'), '---\nname: y\ndescription: Y.\n---\n');
    symlinkSync(path.join(outside, 'x'), path.join(source.root, 'skills', 'linked'));
    mkdirSync(path.join(source.root, 'skills', 'y'));
    symlinkSync(path.join(outside, 'y.md'), path.join(source.root, 'skills', 'y', 'SKILL.md'));
    const read = await service.readPluginSkills(source);
    expect(read.skills.map((skill) => skill.name)).toEqual(['alpha:greet']);
  });
});
