// What would stop a packed package from installing and working outside the workspace, found by reading
// the unpacked tarball: ranges only the workspace understands, missing metadata, entry points that
// were not packed, and imports of packages the manifest does not declare (pnpm's workspace links can
// hide those; an npm install cannot).
import { readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import ts from 'typescript';
import { PUBLISHED_DEPENDENCY_FIELDS } from './public-packages.mjs';

const LOCAL_RANGE = /^(workspace|file|link|portal):/;
const REQUIRED_FIELDS = ['exports', 'types', 'files', 'engines', 'license'];
const CODE_FILE = /\.(m|c)?js$|\.d\.(m|c)?ts$/;

/** Problems with the package unpacked at `packageDir` (the tarball's `package/` folder), as sentences. */
export function tarballProblems(packageDir) {
  const files = listFiles(packageDir);
  const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
  return [
    ...localRanges(manifest),
    ...REQUIRED_FIELDS.filter((field) => manifest[field] === undefined).map((field) => `package.json has no "${field}"`),
    ...(manifest.engines !== undefined && manifest.engines.node === undefined ? ['package.json has no engines.node'] : []),
    ...(files.some((file) => /^readme(\.md)?$/i.test(file)) ? [] : ['no README.md']),
    ...missingEntryPoints(manifest, files),
    ...undeclaredImports(packageDir, manifest, files),
  ];
}

/** Paths of every file under `dir`, relative to it, with forward slashes. */
export function listFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

function localRanges(manifest) {
  // devDependencies too: they do not install, but a leftover range there means the rewrite did not run.
  return [...PUBLISHED_DEPENDENCY_FIELDS, 'devDependencies'].flatMap((field) =>
    Object.entries(manifest[field] ?? {})
      .filter(([, range]) => LOCAL_RANGE.test(range))
      .map(([name, range]) => `${field}.${name} is "${range}", which only the workspace can resolve`),
  );
}

function missingEntryPoints(manifest, files) {
  const bins = typeof manifest.bin === 'string' ? { [manifest.name]: manifest.bin } : (manifest.bin ?? {});
  const targets = [
    ...exportTargets(manifest.exports).map((target) => ['exports', target]),
    ...Object.entries(bins).map(([name, target]) => [`bin ${name}`, target]),
    ...['types', 'main', 'module'].filter((field) => typeof manifest[field] === 'string').map((field) => [field, manifest[field]]),
  ];
  return targets
    .filter(([, target]) => !matchesAFile(target, files))
    .map(([field, target]) => `${field} names ${target}, which is not in the tarball`);
}

/** Every file path an `exports` value can resolve to: its string leaves, through subpaths, conditions and arrays. */
function exportTargets(exports) {
  if (typeof exports === 'string') return [exports];
  if (Array.isArray(exports)) return exports.flatMap(exportTargets);
  if (exports !== null && typeof exports === 'object') return Object.values(exports).flatMap(exportTargets);
  return [];
}

function matchesAFile(target, files) {
  const relative = path.posix.normalize(target).replace(/^\.\//, '');
  if (!relative.includes('*')) return files.includes(relative);
  // A subpath pattern must match at least one packed file.
  const pattern = new RegExp(`^${relative.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.+')}$`);
  return files.some((file) => pattern.test(file));
}

function undeclaredImports(packageDir, manifest, files) {
  const declared = new Set([manifest.name, ...PUBLISHED_DEPENDENCY_FIELDS.flatMap((field) => Object.keys(manifest[field] ?? {}))]);
  const problems = new Set();
  for (const file of files.filter((name) => CODE_FILE.test(name))) {
    // TypeScript's own scanner finds import/export-from/import()/require() in JavaScript and declarations alike.
    const { importedFiles } = ts.preProcessFile(readFileSync(path.join(packageDir, file), 'utf8'), true, true);
    for (const { fileName: specifier } of importedFiles) {
      if (specifier.startsWith('.') || specifier.startsWith('/') || isBuiltin(specifier)) continue;
      const name = packageName(specifier);
      if (!declared.has(name)) problems.add(`${file} imports ${name}, which is not in dependencies or peerDependencies`);
    }
  }
  return [...problems];
}

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}
