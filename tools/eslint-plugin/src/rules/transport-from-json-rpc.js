// @ts-check
// The JSON-RPC transport lives in @skein/json-rpc alone (DESIGN.md): its names are imported from there,
// never through another package, and only it may open a WebSocket listener.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageOf, workspaceOf } from '../workspace.js';

const TRANSPORT = '@skein/json-rpc';
/** What `ws` offers for listening; a client (`WebSocket`) may be used anywhere. */
const LISTENER_NAMES = new Set(['WebSocketServer', 'Server']);

/** @type {Map<string, ReadonlySet<string>>} */
const namesByDir = new Map();

/**
 * The names the transport's barrels (`src/index.ts`, `src/framing.ts`) export, read from their
 * `export { … } from` lists so the rule follows the package without a second list to keep.
 * @param {string} dir the package folder
 * @returns {ReadonlySet<string>}
 */
function transportNames(dir) {
  const known = namesByDir.get(dir);
  if (known !== undefined) return known;
  /** @type {Set<string>} */
  const names = new Set();
  for (const barrel of ['index.ts', 'framing.ts']) {
    let text;
    try {
      text = readFileSync(path.join(dir, 'src', barrel), 'utf8');
    } catch {
      continue;
    }
    for (const match of text.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}\s*from/g)) {
      for (const entry of (match[1] ?? '').split(',')) {
        const name = entry.trim().replace(/^type\s+/, '').split(/\s+as\s+/).pop();
        if (name !== undefined && name !== '') names.add(name);
      }
    }
  }
  namesByDir.set(dir, names);
  return names;
}

/**
 * @param {unknown} node an import or export specifier
 * @returns {string | undefined} the name it takes from the module
 */
function takenName(node) {
  const specifier = /** @type {{ type?: string, imported?: { type?: string, name?: string, value?: unknown }, local?: { type?: string, name?: string, value?: unknown } }} */ (node);
  const source = specifier.type === 'ImportSpecifier' ? specifier.imported : specifier.type === 'ExportSpecifier' ? specifier.local : undefined;
  if (source === undefined) return undefined;
  return source.type === 'Identifier' ? source.name : typeof source.value === 'string' ? source.value : undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
export const transportFromJsonRpc = {
  meta: {
    type: 'problem',
    docs: { description: `Transport names come from ${TRANSPORT}, and only it listens on WebSocket` },
    schema: [],
    messages: {
      viaOtherPackage: `'{{name}}' belongs to the JSON-RPC transport: import it from ${TRANSPORT}, not from '{{specifier}}'.`,
      listener: `Only ${TRANSPORT} may open a WebSocket listener ('{{name}}' from 'ws'): serve a JsonRpcService with its listenWebSocket, which applies the Origin and loopback rules.`,
      listenerModule: `Only ${TRANSPORT} may open a WebSocket listener: '{{specifier}}' is ws's server.`,
    },
  },
  create(context) {
    const workspace = workspaceOf(context.filename);
    if (workspace === undefined) return {};
    const importer = packageOf(workspace, context.filename);
    if (importer?.name === TRANSPORT) return {};
    const transport = workspace.byName.get(TRANSPORT);
    const names = transport === undefined ? new Set() : transportNames(transport.dir);

    /**
     * @param {import('eslint').Rule.Node} node
     * @param {unknown} source
     * @param {readonly unknown[]} specifiers
     */
    const check = (node, source, specifiers) => {
      const literal = /** @type {{ type?: string, value?: unknown } | null | undefined} */ (source);
      if (literal?.type !== 'Literal' || typeof literal.value !== 'string') return;
      const specifier = literal.value;
      if (specifier === 'ws/lib/websocket-server' || specifier === 'ws/lib/websocket-server.js') {
        context.report({ node, messageId: 'listenerModule', data: { specifier } });
        return;
      }
      const fromWs = specifier === 'ws';
      const fromOtherSkein = specifier.startsWith('@skein/') && specifier !== TRANSPORT && !specifier.startsWith(`${TRANSPORT}/`);
      if (!fromWs && !fromOtherSkein) return;
      for (const entry of specifiers) {
        const name = takenName(entry);
        if (name === undefined) continue;
        const at = /** @type {import('eslint').Rule.Node} */ (entry);
        if (fromWs && LISTENER_NAMES.has(name)) context.report({ node: at, messageId: 'listener', data: { name } });
        if (fromOtherSkein && names.has(name)) context.report({ node: at, messageId: 'viaOtherPackage', data: { name, specifier } });
      }
    };

    return {
      ImportDeclaration: (node) => check(node, node.source, node.specifiers),
      ExportNamedDeclaration: (node) => check(node, node.source, node.specifiers),
    };
  },
};
