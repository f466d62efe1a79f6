// An example of examples/ as a team outside Skein would use it: copied out of the repository,
// installed with npm from the packed tarballs alone, and built there. Every @skein package, direct
// or not, comes from its tarball: nothing is asked of the registry under that name (the packages
// are not published), and nothing of the workspace is linked.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { TEST_RUN_ID_ENV, testRunDir } from '@skein/test-support';
import * as z from 'zod';
import { localSqlitePrebuild } from './sqlite-prebuild.js';

export const run = promisify(execFile);
export const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
// Packing builds every package (cached by turbo); npm then fetches the third-party dependencies
// (better-sqlite3's binary comes from the workspace's build: sqlite-prebuild.ts).
export const SETUP_TIMEOUT_MS = 600_000;

const PackManifest = z.object({ packages: z.array(z.object({ name: z.string(), tarball: z.string() })) });

/**
 * Every package packed (a minute of work): once per test run when `pnpm test` gave the run an id,
 * shared by the example files (which run one after another), else into `scratch`.
 */
async function packedTarballs(scratch: string): Promise<z.infer<typeof PackManifest>['packages']> {
  const runId = process.env[TEST_RUN_ID_ENV];
  const tarballs = runId === undefined ? path.join(scratch, 'tarballs') : path.join(testRunDir(runId), 'tarballs');
  if (!existsSync(path.join(tarballs, 'manifest.json'))) {
    // Packed aside and renamed into place, so a half-packed folder is never taken for a whole one.
    const packing = `${tarballs}.${process.pid}`;
    rmSync(packing, { recursive: true, force: true });
    mkdirSync(path.dirname(tarballs), { recursive: true });
    await run(process.execPath, [path.join(ROOT, 'scripts', 'pack-packages.mjs'), '--out', packing], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
    renameSync(packing, tarballs);
  }
  // The manifest names the folder they were packed into; they live here now.
  const packed = PackManifest.parse(JSON.parse(readFileSync(path.join(tarballs, 'manifest.json'), 'utf8'))).packages;
  return packed.map((entry) => ({ ...entry, tarball: path.join(tarballs, path.basename(entry.tarball)) }));
}

/** Copies `examples/<name>` to `scratch/<name>`, installs it from the packed tarballs and builds it there; answers its folder. */
export async function installExample(name: string, scratch: string): Promise<string> {
  const packed = await packedTarballs(scratch);

  const source = path.join(ROOT, 'examples', name);
  const example = path.join(scratch, name);
  cpSync(source, example, { recursive: true, filter: (file) => !/[\\/](node_modules|dist)([\\/]|$)/.test(path.relative(source, file)) });
  const manifest = JSON.parse(readFileSync(path.join(example, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
  const tarballOf = (pkg: string) => `file:${packed.find((entry) => entry.name === pkg)?.tarball ?? pkg}`;
  for (const field of ['dependencies', 'devDependencies']) {
    for (const pkg of Object.keys(manifest[field] ?? {})) if (pkg.startsWith('@skein/')) manifest[field]![pkg] = tarballOf(pkg);
  }
  // The peer range names the release the example is written for; the tarballs carry the unreleased version.
  for (const pkg of Object.keys(manifest.peerDependencies ?? {})) if (pkg.startsWith('@skein/')) manifest.peerDependencies![pkg] = '*';
  manifest.overrides = Object.fromEntries(packed.map((entry) => [entry.name, tarballOf(entry.name)]));
  writeFileSync(path.join(example, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);

  const prebuilds = await localSqlitePrebuild(path.join(ROOT, 'packages', 'rollout'), path.join(scratch, 'prebuilds'));
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: example, env: { ...process.env, ...prebuilds }, maxBuffer: 16 * 1024 * 1024 });
  await run('npm', ['run', 'build'], { cwd: example });
  return example;
}
