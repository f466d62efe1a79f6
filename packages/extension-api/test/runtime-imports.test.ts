// What importing the built @skein/extension-api loads at run time: protocol and zod, never the
// executor (`@skein/exec-server` brings `ws` and the sandboxing code), whose types alone it re-exports.
// The package is bundled afresh, as its build does, so the test never reads a stale dist.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
// Inside the package, so the bundle resolves its dependencies from the package's node_modules.
const bundleDir = path.join(packageDir, '.vitest', 'runtime-imports');
const entry = path.join(bundleDir, 'index.js');
const scratch = mkdtempSync(path.join(tmpdir(), 'skein-extension-api-imports-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

beforeAll(() => {
  const tsup = path.join(packageDir, 'node_modules', '.bin', 'tsup');
  const build = spawnSync(tsup, ['src/index.ts', '--no-config', '--format', 'esm', '--target', 'node20', '--out-dir', bundleDir, '--silent'], { cwd: packageDir, encoding: 'utf8' });
  expect(build.status, build.stderr).toBe(0);
});

/** Imports `entry` in a fresh node with a resolve hook, and returns every module URL resolved. */
function resolvedModules(): string[] {
  const log = path.join(scratch, 'resolved.log');
  const hooks = path.join(scratch, 'hooks.mjs');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, result.url + '\\n');
  return result;
}
`,
  );
  const register = path.join(scratch, 'register.mjs');
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  writeFileSync(log, '');
  const run = spawnSync(process.execPath, ['--import', pathToFileURL(register).href, '--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(entry).href)});`], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return readFileSync(log, 'utf8').split('\n').filter((line) => line !== '');
}

describe('@skein/extension-api at run time', () => {
  it('loads protocol but no module of @skein/exec-server, ws or sandboxing', () => {
    const modules = resolvedModules();
    // The hook works: it saw the entry and its protocol dependency.
    expect(modules.some((url) => url.includes('/protocol/dist/'))).toBe(true);
    const offending = modules.filter((url) => /\/(exec-server|sandboxing)\/|\/node_modules\/(\.pnpm\/)?ws[@/]/.test(url));
    expect(offending).toEqual([]);
  });
});
