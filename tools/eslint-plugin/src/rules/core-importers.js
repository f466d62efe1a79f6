// @ts-check
// Only the hosts (app-server, cli) and tools/* may depend on the engine itself.
import { onModuleReference } from '../module-references.js';
import { splitSkeinSpecifier } from '../specifier.js';
import { packageOf, workspaceOf } from '../workspace.js';

const CORE = '@skein/core';
const HOSTS = new Set([CORE, '@skein/app-server', '@skein/cli']);

/** @type {import('eslint').Rule.RuleModule} */
export const coreImporters = {
  meta: {
    type: 'problem',
    docs: { description: `Only @skein/app-server, @skein/cli and tools/* may import ${CORE}` },
    schema: [],
    messages: {
      forbidden: `'{{importer}}' may not import ${CORE}: only @skein/app-server, @skein/cli and tools/* host the engine. Depend on a lower package (protocol, extension-api, …) instead.`,
    },
  },
  create(context) {
    const workspace = workspaceOf(context.filename);
    const importer = workspace === undefined ? undefined : packageOf(workspace, context.filename);
    if (importer === undefined || importer.group === 'tools' || HOSTS.has(importer.name)) return {};
    return onModuleReference((node, specifier) => {
      if (splitSkeinSpecifier(specifier)?.name === CORE) {
        context.report({ node, messageId: 'forbidden', data: { importer: importer.name } });
      }
    });
  },
};
