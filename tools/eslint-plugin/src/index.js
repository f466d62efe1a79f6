// @ts-check
// The plugin object, and `configs.boundaries` which turns every house boundary rule on.
import { coreImporters } from './rules/core-importers.js';
import { extImportsOnlyExtensionApi } from './rules/ext-imports-only-extension-api.js';
import { noDeepImports } from './rules/no-deep-imports.js';
import { noRelativeCrossPackage } from './rules/no-relative-cross-package.js';
import { transportFromJsonRpc } from './rules/transport-from-json-rpc.js';

const rules = {
  'ext-imports-only-extension-api': extImportsOnlyExtensionApi,
  'core-importers': coreImporters,
  'no-deep-imports': noDeepImports,
  'no-relative-cross-package': noRelativeCrossPackage,
  'transport-from-json-rpc': transportFromJsonRpc,
};

/** @type {import('eslint').ESLint.Plugin} */
const plugin = { meta: { name: '@skein/eslint-plugin', version: '0.0.0' }, rules };

/** The boundary rules as errors, for every JS/TS file. @type {import('eslint').Linter.Config} */
const boundaries = {
  name: 'skein/boundaries',
  files: ['**/*.{ts,mts,cts,js,mjs,cjs}'],
  plugins: { skein: plugin },
  rules: Object.fromEntries(Object.keys(rules).map((name) => [`skein/${name}`, /** @type {const} */ ('error')])),
};

/** @type {import('eslint').ESLint.Plugin & { configs: { boundaries: import('eslint').Linter.Config } }} */
const skein = { ...plugin, configs: { boundaries } };

export { rules };
// ESLint plugins are conventionally the default export.
export default skein;
