// The bundles' lazy builtins (build/lazy-builtins.ts): a module that imports one evaluates without
// loading it, and every way esbuild reads an import still gets the real builtin's value.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { lazyBuiltins } from '../build/lazy-builtins.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'skein-lazy-builtins-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// What the program prints: which of the builtins Node had loaded, after each step it names.
const LOADED = `const loaded = () => ['crypto', 'child_process', 'zlib'].filter((name) => process.moduleLoadList.includes('NativeModule ' + name));`;

/** Bundles `source` as tsup.config.ts does the CLI's bundles, runs it, and returns its stdout lines. */
async function runBundled(source: string): Promise<string[]> {
  const result = await build({
    stdin: { contents: `${LOADED}\n${source}`, loader: 'ts', resolveDir: scratch },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    write: false,
    plugins: [lazyBuiltins(['crypto', 'child_process'])],
  });
  const file = path.join(scratch, `bundle-${Math.random().toString(36).slice(2)}.cjs`);
  writeFileSync(file, result.outputFiles[0]!.text);
  const env = { PATH: process.env.PATH };
  return execFileSync(process.execPath, [file], { encoding: 'utf8', env }).trim().split('\n');
}

describe('lazy builtins', () => {
  it('loads a builtin at the first read of a named import, not when its importer is evaluated', async () => {
    const lines = await runBundled(`
      import { randomUUID } from 'node:crypto';
      console.log('evaluated', loaded().join(','));
      const id = randomUUID();
      console.log('called', loaded().join(','), /^[0-9a-f-]{36}$/.test(id));
    `);
    expect(lines).toEqual(['evaluated ', 'called crypto true']);
  });

  it('serves default and namespace imports, `in` and classes from the real module', async () => {
    const lines = await runBundled(`
      import childProcess from 'child_process';
      import * as crypto from 'node:crypto';
      console.log('evaluated', loaded().join(','));
      console.log(childProcess.execFileSync(process.execPath, ['-p', '6 * 7'], { encoding: 'utf8' }).trim());
      console.log('createHash' in crypto, new crypto.Hash('sha256') instanceof crypto.Hash);
      console.log('after', loaded().join(','));
    `);
    expect(lines).toEqual(['evaluated ', '42', 'true true', 'after crypto,child_process']);
  });

  it('leaves builtins it was not given as they are', async () => {
    const lines = await runBundled(`
      import { gzipSync } from 'node:zlib';
      console.log('evaluated', loaded().join(','), typeof gzipSync);
    `);
    expect(lines).toEqual(['evaluated zlib function']);
  });
});
