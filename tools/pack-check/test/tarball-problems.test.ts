// scripts/tarball-problems.mjs reads an unpacked tarball for imports its manifest does not declare.
// Here on a hand-made package: the cases the cli's minified CommonJS bundle raised (a `require` that
// is only text inside a template literal, an optional `require` in a `try`) and the ones it must keep.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const SCRIPT = pathToFileURL(path.resolve(import.meta.dirname, '..', '..', '..', 'scripts', 'tarball-problems.mjs')).href;
const { tarballProblems } = (await import(SCRIPT)) as { tarballProblems: (packageDir: string) => string[] };

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'skein-tarball-problems-'));
  mkdirSync(path.join(dir, 'dist'));
  const manifest = { name: 'demo', version: '1.0.0', license: 'MIT', engines: { node: '>=20' }, files: ['dist'], types: './dist/index.d.ts', exports: './dist/index.js', dependencies: { zod: '^4' } };
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest));
  writeFileSync(path.join(dir, 'README.md'), '# demo\n');
  writeFileSync(path.join(dir, 'dist', 'index.d.ts'), "export type Z = import('zod').ZodType;\n");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const undeclared = () => tarballProblems(dir).filter((problem) => problem.includes('not in dependencies'));
const code = (text: string) => writeFileSync(path.join(dir, 'dist', 'index.js'), text);

describe('tarballProblems: undeclared imports', () => {
  it('finds import, export-from, import() and require() of a package the manifest does not name', () => {
    code("import a from 'left-pad';\nexport * from '@scope/thing/sub';\nconst b = () => import('lazy-one');\nconst c = require('plain-require');\nimport z from 'zod';\nimport fs from 'node:fs';\nimport './local.js';\n");
    expect(undeclared()).toEqual(['left-pad', '@scope/thing', 'lazy-one', 'plain-require'].map((name) => `dist/index.js imports ${name}, which is not in dependencies or peerDependencies`));
  });

  it('does not take text in a template literal after a regex holding a backtick for a require (ajv-formats, bundled)', () => {
    code('var email=/^[a-z`{|}~-]+$/i;var source=(0,_)`require("ajv-formats/dist/formats").${name}`;\n');
    expect(undeclared()).toEqual([]);
  });

  it('leaves out an optional require inside try, but not one in a function defined there', () => {
    code("try{require('bufferutil')}catch{}\ntry{module.exports=function(){return require('needed-later')}}catch{}\n");
    expect(undeclared()).toEqual(['dist/index.js imports needed-later, which is not in dependencies or peerDependencies']);
  });
});
