// @ts-check
// `../../protocol/src/x.js` couples two packages behind the exports map's back; name the package instead.
import path from 'node:path';
import { onModuleReference } from '../module-references.js';
import { workspaceOf } from '../workspace.js';

/** @type {import('eslint').Rule.RuleModule} */
export const noRelativeCrossPackage = {
  meta: {
    type: 'problem',
    docs: { description: 'Relative imports must stay inside the importing package' },
    schema: [],
    messages: {
      crossesPackage:
        "'{{specifier}}' leaves this package ({{dir}}). Import the other package by its name (@skein/…) through its exports map.",
    },
  },
  create(context) {
    const workspace = workspaceOf(context.filename);
    if (workspace === undefined) return {};
    const importerDir = ownPackageDir(workspace.root, context.filename);
    return onModuleReference((node, specifier) => {
      if (!specifier.startsWith('./') && !specifier.startsWith('../') && specifier !== '..') return;
      const resolved = path.resolve(path.dirname(context.filename), specifier);
      const inside = path.relative(importerDir, resolved);
      if (inside.startsWith('..') || path.isAbsolute(inside)) {
        context.report({
          node,
          messageId: 'crossesPackage',
          data: { specifier, dir: path.relative(workspace.root, importerDir) || '.' },
        });
      }
    });
  },
};

/**
 * The folder of the package that owns `file`: packages/x, ext/x, tools/x — or the root itself
 * for files at the top level (eslint.config.js, scripts/).
 * @param {string} root
 * @param {string} file
 */
function ownPackageDir(root, file) {
  const [group, name] = path.relative(root, file).split(path.sep);
  const isGrouped = group === 'packages' || group === 'ext' || group === 'tools';
  return isGrouped && name !== undefined && name !== path.basename(file) ? path.join(root, group, name) : root;
}
