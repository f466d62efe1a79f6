// The packages Skein publishes (every package.json under packages/ and ext/ that is not private) and the order
// they must be built, packed and published in: a package comes after the siblings it depends on.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageDirs } from './workspace-packages.mjs';

/** The dependency fields that reach a package's users; devDependencies never do. */
export const PUBLISHED_DEPENDENCY_FIELDS = ['dependencies', 'peerDependencies', 'optionalDependencies'];

/**
 * Every public workspace package as `{ name, version, dir, manifest, siblings }`, where `siblings` are
 * the names of the other public packages it depends on, sorted so that each comes after its siblings
 * (ties by name, so the order is stable).
 */
export function publicPackages(root) {
  const packages = packageDirs(root)
    .filter((dir) => ['packages', 'ext'].includes(path.basename(path.dirname(dir))))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) }))
    .filter(({ manifest }) => manifest.private !== true);
  const names = new Set(packages.map(({ manifest }) => manifest.name));
  const described = packages.map(({ dir, manifest }) => ({
    name: manifest.name,
    version: manifest.version,
    dir,
    manifest,
    siblings: PUBLISHED_DEPENDENCY_FIELDS.flatMap((field) => Object.keys(manifest[field] ?? {})).filter((dep) => names.has(dep)),
  }));
  return topologicalOrder(described);
}

/** The named packages and every public sibling they depend on, directly or not, in publish order. */
export function withSiblings(packages, selectedNames) {
  const byName = new Map(packages.map((pkg) => [pkg.name, pkg]));
  const wanted = new Set();
  const visit = (name) => {
    const pkg = byName.get(name);
    if (pkg === undefined) throw new Error(`${name} is not a public package of this workspace`);
    if (wanted.has(name)) return;
    wanted.add(name);
    pkg.siblings.forEach(visit);
  };
  selectedNames.forEach(visit);
  return packages.filter((pkg) => wanted.has(pkg.name));
}

// Kahn's algorithm over a dozen packages; a cycle is a workspace error worth stopping for.
function topologicalOrder(packages) {
  const remaining = new Map(packages.map((pkg) => [pkg.name, pkg]));
  const ordered = [];
  while (remaining.size > 0) {
    const ready = [...remaining.values()]
      .filter((pkg) => pkg.siblings.every((dep) => !remaining.has(dep)))
      .sort((a, b) => a.name.localeCompare(b.name));
    if (ready.length === 0) throw new Error(`dependency cycle among ${[...remaining.keys()].join(', ')}`);
    for (const pkg of ready) {
      ordered.push(pkg);
      remaining.delete(pkg.name);
    }
  }
  return ordered;
}
