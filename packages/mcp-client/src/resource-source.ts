// One server of an `McpServers` as a plain resource source: list a page, read a resource. Consumers
// such as the skills extension take this shape without knowing how servers are started.
import type { McpResource, McpResourceContents } from './mcp-resource.js';
import type { McpServers } from './mcp-servers.js';

/** The resources of one configured server; each call connects on first use. */
export interface McpResourceSource {
  readonly server: string;
  /** The server's `tool_timeout_sec` in ms, when its table sets one. */
  readonly timeoutMs: number | undefined;
  listResources(options: { readonly cursor?: string | undefined; readonly signal?: AbortSignal | undefined }): Promise<{ readonly resources: readonly McpResource[]; readonly nextCursor?: string | undefined }>;
  readResource(uri: string, options: { readonly signal?: AbortSignal | undefined }): Promise<readonly McpResourceContents[]>;
}

/** `name` of `servers` as a resource source. */
export function resourceSource(servers: McpServers, name: string, timeoutMs?: number): McpResourceSource {
  return {
    server: name,
    timeoutMs,
    async listResources({ cursor, signal }) {
      const client = await servers.client(name, signal === undefined ? {} : { signal });
      return client.listResources({ ...(cursor === undefined ? {} : { cursor }), ...(signal === undefined ? {} : { signal }) });
    },
    async readResource(uri, { signal }) {
      const client = await servers.client(name, signal === undefined ? {} : { signal });
      return client.readResource(uri, signal === undefined ? {} : { signal });
    },
  };
}
