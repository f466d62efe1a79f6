// The MCP methods: `mcpServerStatus/list` (each server's start, identity, tools and resources),
// `mcpServer/tool/call` and `mcpServer/resource/read` (a client calls a server directly, through a
// loaded thread's connections or the server's own), and `config/mcpServer/reload` (every connection
// set is started again from config.toml as it is now; a running turn keeps its set until it ends).
import { McpClientError } from '@skein/mcp-client';
import type { McpConnections } from '@skein/core';
import * as z from 'zod';
import { AppServerRequestError } from '../app-server-error.js';
import { defineMethod, type AppServerMethod, type MethodContext } from '../method.js';
import { serverStatuses } from '../mcp/mcp-server-status.js';
import { paginate } from '../pagination.js';

const StatusListParams = z.looseObject({
  cursor: z.string().nullish(),
  limit: z.int().min(0).nullish(),
  detail: z.enum(['full', 'toolsAndAuthOnly']).nullish(),
  threadId: z.string().nullish(),
  serverName: z.string().nullish(),
  environmentId: z.string().nullish(),
});
const ToolCallParams = z.looseObject({ threadId: z.string(), server: z.string().min(1), tool: z.string().min(1), arguments: z.record(z.string(), z.unknown()).nullish(), environmentId: z.string().nullish() });
const ResourceReadParams = z.looseObject({ threadId: z.string().nullish(), server: z.string().min(1), uri: z.string().min(1), environmentId: z.string().nullish() });
const ReloadParams = z.looseObject({}).nullish();

/** A thread's connections, or the server's own when no thread is named. */
function connectionsFor(threadId: string | null | undefined, context: MethodContext): McpConnections {
  if (threadId == null) return context.server.mcp.connections();
  return context.server.threads.loaded(threadId).handle.mcp;
}

/** An MCP failure as the request's error, naming the server and what went wrong. */
function asRequestError(error: unknown): never {
  if (error instanceof McpClientError) throw AppServerRequestError.invalidRequest(error.message);
  throw error;
}

export const MCP_SERVER_METHODS: ReadonlyMap<string, AppServerMethod> = new Map<string, AppServerMethod>([
  [
    'mcpServerStatus/list',
    defineMethod({
      params: StatusListParams,
      async handle(params, context) {
        const statuses = await serverStatuses(connectionsFor(params.threadId, context), { serverName: params.serverName, detail: params.detail, signal: context.connection.closed });
        return paginate(statuses, params);
      },
    }),
  ],
  [
    'mcpServer/tool/call',
    defineMethod({
      params: ToolCallParams,
      async handle(params, context) {
        const connections = connectionsFor(params.threadId, context);
        const server = await connections.server(params.server, context.connection.closed).catch(asRequestError);
        if (!server.tools.some((tool) => tool.name === params.tool)) {
          throw AppServerRequestError.invalidRequest(`MCP server '${params.server}' offers no tool '${params.tool}'; it offers: ${server.tools.map((tool) => tool.name).join(', ') || 'none'}`);
        }
        const result = await server.client.callTool(params.tool, params.arguments ?? {}, { signal: context.connection.closed }).catch(asRequestError);
        return {
          content: result.content,
          ...(result.structuredContent === undefined ? {} : { structuredContent: result.structuredContent }),
          isError: result.isError ?? false,
          ...(result._meta === undefined ? {} : { _meta: result._meta }),
        };
      },
    }),
  ],
  [
    'mcpServer/resource/read',
    defineMethod({
      params: ResourceReadParams,
      async handle(params, context) {
        const server = await connectionsFor(params.threadId, context).server(params.server, context.connection.closed).catch(asRequestError);
        return { contents: await server.client.readResource(params.uri, { signal: context.connection.closed }).catch(asRequestError) };
      },
    }),
  ],
  [
    'config/mcpServer/reload',
    defineMethod({
      params: ReloadParams,
      async handle(_params, { server }) {
        // The server's config is read again from disk; its own connections start from it on next use.
        await server.changeConfig(() => server.mcp.reload());
        // Each thread reads its servers from config.toml as it is now, for its own directory. An idle
        // thread has its new set before the answer; a busy one gets it when its turn ends.
        await Promise.all(
          server.threads.attached().map(async (thread) => {
            const { config } = await server.loadConfig(thread.handle.config.cwd);
            const reloaded = thread.handle.reloadMcp(config);
            if (thread.handle.activeTurnId === undefined) await reloaded;
            else void reloaded; // It waits for the turn's end and cannot fail.
          }),
        );
        return {};
      },
    }),
  ],
]);
