// One MCP server as `mcpServerStatus/list` describes it: how its start went, who it says it is, its
// tools (as it listed them), and its resources when the detail asks for them.
import type { McpConnections, McpServerStartup, ReadyMcpServer } from '@skein/core';
import type { McpServerToml } from '@skein/config';

type Wire = Record<string, unknown>;

/** The statuses of every server of `connections`, once their starts have settled. */
export async function serverStatuses(connections: McpConnections, options: { readonly serverName?: string | null | undefined; readonly detail?: string | null | undefined; readonly signal: AbortSignal }): Promise<Wire[]> {
  const ready = new Map((await connections.settled(options.signal)).map((server) => [server.name, server]));
  const statuses = connections.statuses().filter((status) => options.serverName == null || status.name === options.serverName);
  return Promise.all(statuses.map((status) => describe(status, ready.get(status.name), options.detail !== 'toolsAndAuthOnly', options.signal)));
}

async function describe(status: McpServerStartup, server: ReadyMcpServer | undefined, full: boolean, signal: AbortSignal): Promise<Wire> {
  const info = server?.description.serverInfo;
  const base: Wire = {
    name: status.name,
    environmentId: null,
    runtimeStatus: runtimeStatus(status, server),
    pluginId: null,
    httpOrigin: server === undefined ? null : httpOrigin(server.config),
    serverInfo: info === undefined ? null : { name: info['name'] ?? status.name, title: info['title'] ?? null, version: info['version'] ?? '', description: info['description'] ?? null, icons: info['icons'] ?? null, websiteUrl: info['websiteUrl'] ?? null },
    serverCapabilities: server?.description.capabilities ?? null,
    toolListMeta: null,
    tools: Object.fromEntries((server?.tools ?? []).map((tool) => [tool.name, tool])),
    toolsError: server?.toolsError ?? (status.status === 'failed' ? status.error : null),
    resources: [],
    resourceTemplates: [],
    authStatus: server === undefined ? 'unknown' : authStatus(server.config),
  };
  if (!full || server === undefined || server.description.capabilities?.resources === undefined) return base;
  // A server that cannot list its resources still has a status: the lists stay empty.
  const [resources, templates] = await Promise.all([
    server.client.listResources({ signal }).then((page) => page.resources, () => []),
    server.client.listResourceTemplates({ signal }).then((page) => page.resourceTemplates, () => []),
  ]);
  return { ...base, resources, resourceTemplates: templates };
}

function runtimeStatus(status: McpServerStartup, server: ReadyMcpServer | undefined): string {
  if (server !== undefined) return server.client.isOpen ? 'connected' : 'failed';
  return status.status === 'ready' ? 'connected' : status.status;
}

function httpOrigin(config: McpServerToml): string | null {
  return 'url' in config && typeof config.url === 'string' ? new URL(config.url).origin : null;
}

/** A stdio server has no authentication; an HTTP one sends a bearer token when its table names one. */
function authStatus(config: McpServerToml): string {
  if (!('url' in config)) return 'unsupported';
  return config.bearer_token_env_var !== undefined ? 'bearerToken' : 'unsupported';
}
