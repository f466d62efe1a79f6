// @ts-check
// One visitor for every way a file can name another module, so each rule only judges specifiers.

/**
 * @typedef {import('eslint').Rule.Node} Node
 * @typedef {(node: Node, specifier: string) => void} SpecifierCheck
 */

/**
 * ESLint listeners that call `check` with each static module specifier in the file:
 * import / export-from declarations, `import()`, `require()` and `import('x')` type queries.
 * @param {SpecifierCheck} check
 * @returns {import('eslint').Rule.RuleListener}
 */
export function onModuleReference(check) {
  /** @param {Node} node @param {unknown} source */
  const visit = (node, source) => {
    const literal = /** @type {{ type?: string, value?: unknown } | null | undefined} */ (source);
    if (literal?.type === 'Literal' && typeof literal.value === 'string') check(node, literal.value);
  };
  return {
    ImportDeclaration: (node) => visit(node, node.source),
    ExportNamedDeclaration: (node) => visit(node, node.source),
    ExportAllDeclaration: (node) => visit(node, node.source),
    ImportExpression: (node) => visit(node, node.source),
    CallExpression: (node) => {
      if (node.callee.type === 'Identifier' && node.callee.name === 'require') visit(node, node.arguments[0]);
    },
    /** @param {Node & { source?: unknown }} node */
    TSImportType: (node) => visit(node, node.source),
  };
}
