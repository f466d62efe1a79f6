// The BM25 index tool_search runs over: every deferred tool, by its name, namespace, description and
// parameter names and descriptions (what Codex indexes). Built once per thread and kept while the
// ordered set of deferred tools stays the same; a changed set (a server came up, a reload) rebuilds it.
import type { LeafToolHandler, ToolHandler } from '@skein/extension-api';
import MiniSearch from 'minisearch';

/** How many tools a search returns unless the model asks otherwise (Codex's default). */
export const DEFAULT_SEARCH_LIMIT = 8;
/** The most a search returns, however many the model asks for. */
export const MAX_SEARCH_LIMIT = 64;

/** A deferred tool as the search found it: its namespace (if any) and its handler. */
export interface ToolSearchHit {
  readonly namespace: { readonly name: string; readonly description: string } | undefined;
  readonly tool: LeafToolHandler;
}

interface IndexedTool extends ToolSearchHit {
  readonly id: number;
  readonly name: string;
  readonly namespaceName: string;
  readonly description: string;
  readonly parameters: string;
}

/** A thread's tool search; `builds` counts index builds (for tests and benchmarks). */
export class ToolSearchIndex {
  #key: string | undefined;
  /** The handlers the index was built from: the same objects again need no look at their contents. */
  #handlers: readonly ToolHandler[] = [];
  #tools: IndexedTool[] = [];
  #index: MiniSearch<IndexedTool> | undefined;
  #builds = 0;

  get builds(): number {
    return this.#builds;
  }

  /** The best `limit` matches of `query` among `deferred` (namespaces and leaf tools), best first. */
  search(deferred: readonly ToolHandler[], query: string, limit: number): ToolSearchHit[] {
    if (query.trim() === '') return [];
    const index = this.#indexFor(deferred);
    const count = Math.min(Math.max(1, Math.floor(limit)), MAX_SEARCH_LIMIT);
    return index
      .search(query, { combineWith: 'OR', prefix: (term) => term.length > 3, boost: { name: 2, namespaceName: 1.5 } })
      .slice(0, count)
      .map((result) => this.#tools[result.id as number]!);
  }

  #indexFor(deferred: readonly ToolHandler[]): MiniSearch<IndexedTool> {
    if (this.#index !== undefined && sameHandlers(deferred, this.#handlers)) return this.#index;
    this.#handlers = [...deferred];
    const tools = flatten(deferred);
    const key = tools.map((tool) => `${tool.namespaceName}\u0000${tool.name}\u0000${tool.description}\u0000${tool.parameters}`).join('\u0001');
    if (this.#index !== undefined && key === this.#key) return this.#index;
    const index = new MiniSearch<IndexedTool>({ fields: ['name', 'namespaceName', 'description', 'parameters'], idField: 'id', processTerm });
    index.addAll(tools);
    this.#key = key;
    this.#tools = tools;
    this.#index = index;
    this.#builds += 1;
    return index;
  }
}

function sameHandlers(a: readonly ToolHandler[], b: readonly ToolHandler[]): boolean {
  return a.length === b.length && a.every((handler, index) => handler === b[index]);
}

// Words that say nothing about a tool; as in Codex's BM25 tokenizer, they match nothing.
const STOP_WORDS = new Set(
  'a an and are as at be by for from has have i in is it its me my of on or our so that the their them then there these this to was we what when which who will with you your'.split(' '),
);

function processTerm(term: string): string | null {
  const lower = term.toLowerCase();
  return STOP_WORDS.has(lower) ? null : lower;
}

function flatten(deferred: readonly ToolHandler[]): IndexedTool[] {
  const tools: IndexedTool[] = [];
  const add = (tool: LeafToolHandler, namespace: ToolSearchHit['namespace']) => {
    const parameters = tool.kind === 'function' ? parameterText(tool.spec.parameters) : '';
    tools.push({ id: tools.length, namespace, tool, name: tool.spec.name, namespaceName: namespace?.name ?? '', description: tool.spec.description, parameters });
  };
  for (const handler of deferred) {
    if (handler.kind === 'namespace') {
      const namespace = { name: handler.name, description: handler.description };
      for (const tool of handler.tools) add(tool, namespace);
    } else {
      add(handler, undefined);
    }
  }
  return tools;
}

/** The names and descriptions of a schema's top-level properties, as one text. */
function parameterText(schema: Readonly<Record<string, unknown>>): string {
  const properties = schema.properties;
  if (typeof properties !== 'object' || properties === null) return '';
  return Object.entries(properties as Record<string, unknown>)
    .map(([name, property]) => {
      const description = typeof property === 'object' && property !== null ? (property as { description?: unknown }).description : undefined;
      return typeof description === 'string' ? `${name} ${description}` : name;
    })
    .join(' ');
}
