// tool_search as Codex offers it: a client-executed tool (`{"type":"tool_search","execution":"client"}`)
// the model calls with `{query, limit}`; the answer is a `tool_search_output` listing the matching
// deferred tools, grouped by namespace and marked `defer_loading`, which the model may then call.
import type { ToolHandler } from '@skein/extension-api';
import { toolSearchOutput, type HostedToolSpec, type ToolSearchCallItem, type ToolSearchOutputItem } from '@skein/protocol';
import * as z from 'zod';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT, type ToolSearchHit, type ToolSearchIndex } from './tool-search-index.js';

/** The tool_search definition (the parameters are Codex's; the words are ours). */
export const TOOL_SEARCH_SPEC: HostedToolSpec = {
  type: 'tool_search',
  execution: 'client',
  description: 'Find tools that are not listed yet (those of MCP servers, among others). Describe what you need; the tools found can be called right after.',
  parameters: {
    type: 'object',
    properties: {
      limit: { type: 'number', description: `How many tools to return at most (default ${DEFAULT_SEARCH_LIMIT}, at most ${MAX_SEARCH_LIMIT}).` },
      query: { type: 'string', description: 'Words describing the capability you are looking for.' },
    },
    required: ['query'],
    additionalProperties: false,
  },
};

const SearchArguments = z.looseObject({ query: z.string(), limit: z.number().optional() });

/** The search `call` asks for over `deferred`, answered as its `tool_search_output`. */
export function runToolSearch(call: ToolSearchCallItem & { readonly call_id: string }, deferred: readonly ToolHandler[], index: ToolSearchIndex): ToolSearchOutputItem {
  // Arguments normally arrive as an object; a model that sent JSON text is read the same way.
  const raw = typeof call.arguments === 'string' ? parseJson(call.arguments) : call.arguments;
  const args = SearchArguments.safeParse(raw);
  if (!args.success) return toolSearchOutput(call.call_id, []);
  const hits = index.search(deferred, args.data.query, args.data.limit ?? DEFAULT_SEARCH_LIMIT);
  return toolSearchOutput(call.call_id, grouped(hits));
}

/** Hits as the model gets them: namespaces in order of their best hit, each with its matching tools. */
function grouped(hits: readonly ToolSearchHit[]): unknown[] {
  const out: unknown[] = [];
  const namespaces = new Map<string, { type: 'namespace'; name: string; description: string; tools: unknown[] }>();
  for (const { namespace, tool } of hits) {
    // Codex's key order: defer_loading comes before the parameters.
    const spec = tool.kind === 'function' ? { type: 'function', name: tool.spec.name, description: tool.spec.description, strict: tool.spec.strict, defer_loading: true, parameters: tool.spec.parameters } : { ...tool.spec, defer_loading: true };
    if (namespace === undefined) {
      out.push(spec);
      continue;
    }
    let group = namespaces.get(namespace.name);
    if (group === undefined) {
      group = { type: 'namespace', name: namespace.name, description: namespace.description, tools: [] };
      namespaces.set(namespace.name, group);
      out.push(group);
    }
    group.tools.push(spec);
  }
  return out;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
