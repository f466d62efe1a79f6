// The bundles' lazy builtins (build/lazy-builtins.ts): a module that imports one evaluates without
// loading it, every way esbuild reads an import still gets the real builtin's value, and the built
// `skein app-server` answers `initialize` without loading any of them.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AppServerTestClient } from '@skein/test-support';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { lazyBuiltins } from '../build/lazy-builtins.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'skein-lazy-builtins-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// What the program prints: which of the builtins Node had loaded, after each step it names.
const LOADED = `const loaded = () => ['crypto', 'child_process', 'zlib'].filter((name) => process.moduleLoadList.includes('NativeModule ' + name));`;

/** Bundles `source` with the plugin (esbuild's CommonJS output, as the CLI's bundles), runs it, and returns its stdout lines. */
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
      console.log('createHash' in crypto, crypto.createHash('sha256') instanceof crypto.Hash);
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

  it('lets the built app-server answer initialize before any of them is loaded', async () => {
    const bin = path.join(import.meta.dirname, '..', 'dist', 'bin.cjs');
    // Run first inside the server: at its first write to stdout (the answer), it lists the builtins Node has loaded.
    const preload = path.join(scratch, 'loaded-at-first-answer.cjs');
    writeFileSync(
      preload,
      `const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (...args) => {
  process.stdout.write = write;
  const loaded = process.moduleLoadList.filter((entry) => entry.startsWith('NativeModule ')).map((entry) => entry.slice(13));
  process.stderr.write('LOADED ' + JSON.stringify(loaded) + '\\n');
  return write(...args);
};
`,
    );
    const home = path.join(scratch, 'home');
    mkdirSync(home, { recursive: true });
    const env = { PATH: process.env.PATH, HOME: scratch, CODEX_HOME: home, XDG_CACHE_HOME: path.join(scratch, 'cache') };
    const startAndInitialize = async (): Promise<string[]> => {
      const server = AppServerTestClient.spawn(process.execPath, ['--require', preload, bin, 'app-server'], { cwd: scratch, env });
      try {
        expect(await server.initialize({ clientInfo: { name: 'lazy_builtins_test', version: '1' } })).toMatchObject({ codexHome: home });
      } finally {
        await server.close();
      }
      return JSON.parse(/LOADED (.*)/.exec(server.stderr())?.[1] ?? 'null') as string[];
    };
    // The first start in a home makes its installation id (node:crypto); the test is of every later one.
    await startAndInitialize();
    const loaded = await startAndInitialize();
    expect(loaded).toContain('fs');
    for (const builtin of ['crypto', 'child_process', 'http', 'https', 'tls', 'zlib', 'dns', 'perf_hooks', 'readline', 'worker_threads', 'v8']) {
      expect(loaded, builtin).not.toContain(builtin);
    }
  });
});
