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
    for (const specifier of importedSpecifiers(file, readFileSync(path.join(packageDir, file), 'utf8'))) {
      if (specifier.startsWith('.') || specifier.startsWith('/') || isBuiltin(specifier)) continue;
      const name = packageName(specifier);
      if (!declared.has(name)) problems.add(`${file} imports ${name}, which is not in dependencies or peerDependencies`);
    }
  }
  return [...problems];
}

/**
 * What a JavaScript file or declaration imports: import/export-from, `import x = require()`, `import()`,
 * `require()` and `import("…")` types, found by TypeScript's parser. (Its quicker pre-processing
 * scanner misreads minified bundles: it took a string in a template literal for a `require`.) A
 * `require()` inside a `try` block is left out: the code copes without it (ws's optional bufferutil).
 */
function importedSpecifiers(fileName, text) {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, /\.[cm]?ts$/.test(fileName) ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const specifiers = [];
  const literal = (node) => {
    if (node !== undefined && ts.isStringLiteralLike(node)) specifiers.push(node.text);
  };
  const visit = (node, guarded) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) literal(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) literal(node.moduleReference.expression);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) literal(node.argument.literal);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) literal(node.arguments[0]);
    else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'require' && !guarded) literal(node.arguments[0]);
    if (ts.isTryStatement(node)) {
      visit(node.tryBlock, true);
      if (node.catchClause !== undefined) visit(node.catchClause, guarded);
      if (node.finallyBlock !== undefined) visit(node.finallyBlock, guarded);
      return;
    }
    // A function body runs when called, maybe outside the try that holds its definition.
    const inner = ts.isFunctionLike(node) ? false : guarded;
    ts.forEachChild(node, (child) => visit(child, inner));
  };
  visit(source, false);
  return specifiers;
}

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}
