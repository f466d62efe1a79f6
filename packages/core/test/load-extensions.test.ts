// Loading extensions from specs, as config and --extension name them: real module files in a
// scratch folder, imported by Node. Every failure is one problem naming the spec, and the rest load.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { EXTENSION_API_VERSION } from '@skein/extension-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExtensionLoadError, loadExtensions, type ExtensionSource } from '../src/index.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'skein-extensions-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function file(relative: string, text: string): string {
  const absolute = path.join(dir, relative);
  mkdirSync(path.dirname(absolute), { recursive: true });
  writeFileSync(absolute, text);
  return absolute;
}

/** A module exporting an extension literal (as defineExtension leaves it: with an apiRange). */
function extensionModule(relative: string, id: string, extra = ''): string {
  return file(relative, `export const extension = { id: ${JSON.stringify(id)}, apiRange: '>=0.0.0'${extra} };\n`);
}

const source = (spec: string, baseDir = dir): ExtensionSource => ({ spec, baseDir, origin: path.join(baseDir, 'config.toml') });

describe('loadExtensions', () => {
  it('loads a path relative to the naming file and a package resolved from its directory', async () => {
    extensionModule('tools/local.mjs', 'local');
    file('node_modules/@acme/skein-todo/package.json', JSON.stringify({ name: '@acme/skein-todo', type: 'module', exports: { '.': { import: './dist/index.js' } } }));
    extensionModule('node_modules/@acme/skein-todo/dist/index.js', 'todo');

    const { registry, loaded, problems } = await loadExtensions([source('./tools/local.mjs'), source('@acme/skein-todo')]);
    expect(problems).toEqual([]);
    expect(registry.extensions.map((extension) => extension.id)).toEqual(['local', 'todo']);
    expect(loaded.map((entry) => path.relative(dir, new URL(entry.url).pathname))).toEqual(['tools/local.mjs', path.join('node_modules', '@acme', 'skein-todo', 'dist', 'index.js')]);
  });

  it('turns each failure into one problem naming the spec and its cause, and loads the rest', async () => {
    extensionModule('good.mjs', 'good');
    file('throws.mjs', "throw new Error('boom at import');\n");
    file('no-export.mjs', 'export const something = 1;\n');
    extensionModule('bad-shape.mjs', 'bad-shape', ', tools: { tools: 42 }');
    extensionModule('duplicate.mjs', 'good');
    file('too-new.mjs', "export const extension = { id: 'too-new', apiRange: '^99.0.0' };\n");
    file('hand-made.mjs', "export const extension = { id: 'hand-made' };\n");
    file('no-range.mjs', "export const extension = { id: 'no-range', apiRange: 'soon' };\n");

    const specs = ['./missing.mjs', '@acme/not-installed', './throws.mjs', './no-export.mjs', './bad-shape.mjs', './good.mjs', './duplicate.mjs', './too-new.mjs', './hand-made.mjs', './no-range.mjs'];
    const { registry, problems } = await loadExtensions(specs.map((spec) => source(spec)));

    expect(registry.extensions.map((extension) => extension.id)).toEqual(['good']);
    expect(problems.map((problem) => [problem.source.spec, problem.code])).toEqual([
      ['./missing.mjs', 'NotFound'],
      ['@acme/not-installed', 'NotFound'],
      ['./throws.mjs', 'ImportFailed'],
      ['./no-export.mjs', 'InvalidShape'],
      ['./bad-shape.mjs', 'InvalidShape'],
      ['./duplicate.mjs', 'DuplicateId'],
      ['./too-new.mjs', 'IncompatibleApi'],
      ['./hand-made.mjs', 'InvalidShape'],
      ['./no-range.mjs', 'InvalidShape'],
    ]);
    const messages = problems.map((problem) => problem.message);
    for (const [index, spec] of specs.filter((spec) => spec !== './good.mjs').entries()) {
      expect(messages[index]).toContain(`extension '${spec}' (from ${path.join(dir, 'config.toml')})`);
    }
    expect(messages[1]).toContain(`cannot resolve package '@acme/not-installed' from ${dir}`);
    expect(messages[2]).toContain('boom at import');
    expect(messages[3]).toContain('no `extension` export');
    expect(messages[4]).toContain('tools.tools');
    expect(messages[5]).toContain("'good' is already installed");
    expect(messages[6]).toContain(`needs @skein/extension-api ^99.0.0; this host has ${EXTENSION_API_VERSION}`);
    expect(messages[7]).toContain('defineExtension');
    expect(messages[8]).toContain('`extension` is not an extension at apiRange: apiRange is not a semver range');
  });

  it('throws the first problem when strict', async () => {
    extensionModule('good.mjs', 'good');
    const failure = await loadExtensions([source('./good.mjs'), source('./missing.mjs')], { strict: true }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ExtensionLoadError);
    expect((failure as ExtensionLoadError).code).toBe('NotFound');
  });

  it('imports through the host’s importer when it lends one, and reports what that importer throws', async () => {
    const good = extensionModule('good.mjs', 'good');
    extensionModule('refused.mjs', 'refused');
    const imported: string[] = [];
    const importModule = async (url: string): Promise<unknown> => {
      imported.push(url);
      if (url.endsWith('refused.mjs')) throw new Error('the host would not');
      return (await import(url)) as unknown;
    };
    const { registry, problems } = await loadExtensions([source('./good.mjs'), source('./refused.mjs')], { importModule });
    expect(imported.map((url) => path.basename(new URL(url).pathname))).toEqual(['good.mjs', 'refused.mjs']);
    expect(imported[0]).toBe(pathToFileURL(good).href);
    expect(registry.extensions.map((extension) => extension.id)).toEqual(['good']);
    expect(problems.map((problem) => [problem.code, problem.message])).toEqual([['ImportFailed', expect.stringContaining('threw: the host would not')]]);
  });

  it('loads a file named by two layers once', async () => {
    extensionModule('shared.mjs', 'shared');
    mkdirSync(path.join(dir, 'project'));
    const { registry, problems } = await loadExtensions([source('./shared.mjs'), source('../shared.mjs', path.join(dir, 'project'))]);
    expect(problems).toEqual([]);
    expect(registry.extensions.map((extension) => extension.id)).toEqual(['shared']);
  });

  it('accepts what defineExtension makes: compatible with the contract version it was built against', async () => {
    // A fixture inside the package, so its import of @skein/extension-api resolves to this workspace's build.
    const fixtures = path.join(import.meta.dirname, 'fixtures');
    const { registry, problems } = await loadExtensions([source('./defined-extension.mjs', fixtures)]);
    expect(problems).toEqual([]);
    expect(registry.extensions[0]).toMatchObject({ id: 'defined', apiRange: `^${EXTENSION_API_VERSION}` });
  });

  it('refuses an id a built-in extension already uses', async () => {
    extensionModule('clash.mjs', 'builtin');
    const { problems } = await loadExtensions([source('./clash.mjs')], { builtIn: [{ id: 'builtin' }] });
    expect(problems.map((problem) => problem.code)).toEqual(['DuplicateId']);
  });
});
