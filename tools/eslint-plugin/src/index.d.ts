// Types for the checked-JavaScript plugin entry (index.js).
import type { ESLint, Linter, Rule } from 'eslint';

export declare const rules: Record<
  'ext-imports-only-extension-api' | 'core-importers' | 'no-deep-imports' | 'no-relative-cross-package' | 'transport-from-json-rpc',
  Rule.RuleModule
>;
declare const skein: ESLint.Plugin & { configs: { boundaries: Linter.Config } };
// eslint-disable-next-line no-restricted-syntax
export default skein;
