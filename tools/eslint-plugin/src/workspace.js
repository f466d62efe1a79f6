// @ts-check
// Where a file sits in the workspace: the repository root (the folder with pnpm-workspace.yaml),
// the package that owns the file, and every workspace package's name, folder and exports map.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Folders that hold workspace packages, as listed in pnpm-workspace.yaml. */
export const PACKAGE_GROUPS = /** @type {const} */ (['packages', 'ext', 'tools']);

/**
 * @typedef {{ name: string, dir: string, group: typeof PACKAGE_GROUPS[number], exportKeys: string[] }} WorkspacePackage
 * @typedef {{ root: string, byName: Map<string, WorkspacePackage>, byDir: Map<string, WorkspacePackage> }} Workspace
 */

/** @type {Map<string, Workspace>} */
const cache = new Map();

/**
 * The workspace that contains `file`, or undefined when the file is outside any pnpm workspace.
 * @param {string} file absolute path
 * @returns {Workspace | undefined}
 */
export function workspaceOf(file) {
  const root = findRoot(path.dirname(file));
  if (root === undefined) return undefined;
  let workspace = cache.get(root);
  if (workspace === undefined) {
    workspace = scan(root);
    cache.set(root, workspace);
  }
  return workspace;
}

/**
 * The package whose folder contains `file` (a direct child of packages/, ext/ or tools/).
 * @param {Workspace} workspace
 * @param {string} file absolute path
 * @returns {WorkspacePackage | undefined}
 */
export function packageOf(workspace, file) {
  const relative = path.relative(workspace.root, file).split(path.sep);
  if (relative.length < 3) return undefined;
  return workspace.byDir.get(path.join(workspace.root, relative[0] ?? '', relative[1] ?? ''));
}

/** @param {string} dir */
function findRoot(dir) {
  for (let current = dir; ; current = path.dirname(current)) {
    if (existsSync(path.join(current, 'pnpm-workspace.yaml'))) return current;
    if (path.dirname(current) === current) return undefined;
  }
}

/** @param {string} root @returns {Workspace} */
function scan(root) {
  /** @type {Workspace} */
  const workspace = { root, byName: new Map(), byDir: new Map() };
  for (const group of PACKAGE_GROUPS) {
    const groupDir = path.join(root, group);
    if (!existsSync(groupDir)) continue;
    for (const entry of readdirSync(groupDir, { withFileTypes: true })) {
      const dir = path.join(groupDir, entry.name);
      const manifestPath = path.join(dir, 'package.json');
      if (!entry.isDirectory() || !existsSync(manifestPath)) continue;
      const manifest = /** @type {{ name?: unknown, exports?: unknown }} */ (
        JSON.parse(readFileSync(manifestPath, 'utf8'))
      );
      if (typeof manifest.name !== 'string') continue;
      const pkg = { name: manifest.name, dir, group, exportKeys: exportKeys(manifest.exports) };
      workspace.byName.set(pkg.name, pkg);
      workspace.byDir.set(dir, pkg);
    }
  }
  return workspace;
}

/**
 * The subpaths a package's `exports` field opens (".", "./remote", "./x/*").
 * @param {unknown} exportsField
 * @returns {string[]}
 */
function exportKeys(exportsField) {
  if (typeof exportsField === 'string' || Array.isArray(exportsField)) return ['.'];
  if (exportsField === null || typeof exportsField !== 'object') return [];
  const keys = Object.keys(exportsField);
  // A conditions-only object ({ types, import }) describes ".".
  return keys.some((key) => key.startsWith('.')) ? keys : ['.'];
}
