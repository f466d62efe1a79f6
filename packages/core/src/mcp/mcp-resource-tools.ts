// list_mcp_resources, list_mcp_resource_templates and read_mcp_resource: the model reads what the
// thread's MCP servers publish. Codex's names and parameters (probed); the answers are compact JSON.
import { defineFunctionTool, ToolError, type FunctionToolHandler } from '@skein/extension-api';
import { McpClientError } from '@skein/mcp-client';
import type { FunctionToolSpec } from '@skein/protocol';
import * as z from 'zod';
import type { McpConnections, ReadyMcpServer } from './mcp-connections.js';

const server = { type: 'string', description: 'The MCP server (its [mcp_servers] name). Leave it out to ask every server.' } as const;
const cursor = { type: 'string', description: 'Where the previous page ended (its nextCursor); needs `server`.' } as const;

function spec(name: string, description: string, properties: Record<string, unknown>, required: readonly string[] = []): FunctionToolSpec {
  return { type: 'function', name, description, strict: false, parameters: { type: 'object', properties, ...(required.length === 0 ? {} : { required: [...required] }), additionalProperties: false } };
}

const ListArguments = z.object({ server: z.string().min(1).optional(), cursor: z.string().optional() }).refine((args) => args.cursor === undefined || args.server !== undefined, { message: 'a cursor belongs to one server: name it with `server`' });

/** The three resource tools over the thread's servers now. */
export function mcpResourceTools(connections: () => McpConnections): FunctionToolHandler[] {
  const serversFor = async (name: string | undefined, signal: AbortSignal): Promise<ReadyMcpServer[]> => {
    if (name !== undefined) return [await connections().server(name, signal)];
    return (await connections().settled(signal)).filter((ready) => ready.description.capabilities?.resources !== undefined);
  };
  const failed = (error: unknown): never => {
    // The model reads this: a server's stderr stays out of it.
    throw new ToolError(error instanceof McpClientError ? error.messageForModel : error instanceof Error ? error.message : String(error));
  };
  /** A listing over one server (with its cursor) or every server that has resources; each entry names its server. */
  const listTool = (name: string, description: string, key: string, page: (ready: ReadyMcpServer, options: { signal: AbortSignal; cursor?: string }) => Promise<{ items: readonly object[]; nextCursor?: string | undefined }>) =>
    defineFunctionTool({
      spec: spec(name, description, { cursor, server }),
      arguments: ListArguments,
      handle: async (args, context) => {
        const servers = await serversFor(args.server, context.signal).catch(failed);
        const items: unknown[] = [];
        let nextCursor: string | undefined;
        for (const ready of servers) {
          const listed = await page(ready, { signal: context.signal, ...(args.cursor === undefined ? {} : { cursor: args.cursor }) }).catch(failed);
          items.push(...listed.items.map((item) => ({ server: ready.name, ...item })));
          nextCursor = listed.nextCursor;
        }
        return { output: JSON.stringify({ [key]: items, ...(args.server !== undefined && nextCursor !== undefined ? { nextCursor } : {}) }), success: true, externalContext: true };
      },
    });
  return [
    listTool('list_mcp_resources', 'List the resources MCP servers publish (files, records, documents) with their URIs.', 'resources', (ready, options) => ready.client.listResources(options).then((page) => ({ items: page.resources, nextCursor: page.nextCursor }))),
    listTool('list_mcp_resource_templates', 'List the resource URI templates MCP servers publish.', 'resourceTemplates', (ready, options) =>
      ready.client.listResourceTemplates(options).then((page) => ({ items: page.resourceTemplates, nextCursor: page.nextCursor })),
    ),
    defineFunctionTool({
      spec: spec('read_mcp_resource', 'Read one resource of an MCP server by its URI.', { server: { type: 'string', description: 'The MCP server (its [mcp_servers] name).' }, uri: { type: 'string', description: 'The resource URI.' } }, ['server', 'uri']),
      arguments: z.object({ server: z.string().min(1), uri: z.string().min(1) }),
      handle: async (args, context) => {
        const [ready] = await serversFor(args.server, context.signal).catch(failed);
        const contents = await ready!.client.readResource(args.uri, { signal: context.signal }).catch(failed);
        return { output: JSON.stringify({ server: args.server, uri: args.uri, contents }), success: true, externalContext: true };
      },
    }),
  ];
}
