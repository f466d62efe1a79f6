// @ts-check
// A package is consumed through its exports map only: `@skein/x/src/y` reaches past the contract.
import { onModuleReference } from '../module-references.js';
import { isExported, splitSkeinSpecifier } from '../specifier.js';
import { workspaceOf } from '../workspace.js';

/** @type {import('eslint').Rule.RuleModule} */
export const noDeepImports = {
  meta: {
    type: 'problem',
    docs: { description: "Import @skein packages only through the subpaths their exports map lists" },
    schema: [],
    messages: {
      notExported:
        "'{{specifier}}' is not an entry of {{name}}'s exports map ({{entries}}). Import a public entry; if something is missing there, export it from the package's index.",
      unknownPackage: "'{{specifier}}' reaches into {{name}}, which is not a workspace package.",
    },
  },
  create(context) {
    const workspace = workspaceOf(context.filename);
    if (workspace === undefined) return {};
    return onModuleReference((node, specifier) => {
      const target = splitSkeinSpecifier(specifier);
      if (target === undefined || target.subpath === '.') return;
      const pkg = workspace.byName.get(target.name);
      if (pkg === undefined) {
        context.report({ node, messageId: 'unknownPackage', data: { specifier, name: target.name } });
      } else if (!isExported(pkg.exportKeys, target.subpath)) {
        const entries = pkg.exportKeys.map((key) => `'${key}'`).join(', ') || 'none';
        context.report({ node, messageId: 'notExported', data: { specifier, name: pkg.name, entries } });
      }
    });
  },
};
