// Packs Skein's public packages into tarballs as `pnpm publish` would upload them, and checks each one
// can install and load outside the workspace (see tarball-problems.mjs). The tarballs are what a test
// outside the workspace installs, so this is the step such a test starts from.
//
//   node scripts/pack-packages.mjs --out DIR [--only @skein/extension-api ...]
//
// Builds the packages first (turbo, cached), packs them into DIR and writes DIR/manifest.json:
//   { "packages": [{ "name", "version", "tarball" (absolute path), "size" (bytes), "files" }] }
// in publish order (every package after the siblings it depends on). `--only` (repeatable, or
// comma-separated) packs the named packages and the siblings they depend on; without it, all of them.
// Prints one line per package; exits 1, naming the package and the problem, when a tarball fails a check.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { extract } from 'tar';
import { publicPackages, withSiblings } from './public-packages.mjs';
import { listFiles, tarballProblems } from './tarball-problems.mjs';

const root = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { out: { type: 'string' }, only: { type: 'string', multiple: true } } });
if (values.out === undefined) {
  console.error('usage: node scripts/pack-packages.mjs --out DIR [--only <package name> ...]');
  process.exit(2);
}
const out = path.resolve(values.out);
const only = (values.only ?? []).flatMap((names) => names.split(',')).filter((name) => name !== '');
const all = publicPackages(root);
const selected = only.length === 0 ? all : withSiblings(all, only);

run('pnpm', ['exec', 'turbo', 'run', 'build', '--output-logs=errors-only', ...selected.map((pkg) => `--filter=${pkg.name}`)], root);
mkdirSync(out, { recursive: true });

const unpackRoot = mkdtempSync(path.join(tmpdir(), 'skein-pack-'));
const packed = [];
const failures = [];
try {
  for (const pkg of selected) {
    // pnpm pack rewrites `workspace:` ranges to the sibling's version, as pnpm publish does.
    const report = JSON.parse(run('pnpm', ['pack', '--json', '--pack-destination', out], pkg.dir));
    const unpacked = path.join(unpackRoot, pkg.name.replace('/', '+'));
    mkdirSync(unpacked);
    await extract({ file: report.filename, cwd: unpacked });
    const packageDir = path.join(unpacked, 'package');
    const entry = { name: report.name, version: report.version, tarball: report.filename, size: statSync(report.filename).size, files: listFiles(packageDir).length };
    packed.push(entry);
    console.log(`${entry.name}@${entry.version}  ${(entry.size / 1024).toFixed(1)} kB  ${entry.files} files`);
    for (const problem of tarballProblems(packageDir)) failures.push(`${pkg.name}: ${problem}`);
  }
} finally {
  rmSync(unpackRoot, { recursive: true, force: true });
}

if (failures.length > 0) {
  console.error(`packed tarballs that would not work outside the workspace:\n${failures.map((line) => `  ${line}`).join('\n')}`);
  process.exit(1);
}
const manifestPath = path.join(out, 'manifest.json');
writeFileSync(manifestPath, `${JSON.stringify({ packages: packed }, null, 2)}\n`);
console.log(`${packed.length} tarballs; manifest: ${manifestPath}`);

/** Runs a command to completion and returns its stdout; its stderr goes to ours. Exits on failure. */
function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (result.status !== 0) {
    console.error(`${command} ${args.join(' ')} failed in ${path.relative(root, cwd) || '.'}${result.error ? `: ${result.error.message}` : ''}`);
    if (result.stdout) console.error(result.stdout);
    process.exit(1);
  }
  return result.stdout;
}
