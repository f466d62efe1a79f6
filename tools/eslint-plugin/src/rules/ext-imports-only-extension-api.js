// @ts-check
// An extension sees Skein only through @skein/extension-api (DESIGN.md, "Rules that keep the house standing").
import { onModuleReference } from '../module-references.js';
import { splitSkeinSpecifier } from '../specifier.js';
import { packageOf, workspaceOf } from '../workspace.js';

const ALLOWED = '@skein/extension-api';

/** @type {import('eslint').Rule.RuleModule} */
export const extImportsOnlyExtensionApi = {
  meta: {
    type: 'problem',
    docs: { description: `Packages under ext/ may import only ${ALLOWED} of our packages` },
    schema: [],
    messages: {
      forbidden: `Extensions may import only ${ALLOWED} of Skein's packages, not '{{specifier}}'. Ask for what you need to be re-exported by ${ALLOWED}.`,
    },
  },
  create(context) {
    const workspace = workspaceOf(context.filename);
    if (workspace === undefined || packageOf(workspace, context.filename)?.group !== 'ext') return {};
    return onModuleReference((node, specifier) => {
      const target = splitSkeinSpecifier(specifier);
      if (target !== undefined && target.name !== ALLOWED) {
        context.report({ node, messageId: 'forbidden', data: { specifier } });
      }
    });
  },
};
