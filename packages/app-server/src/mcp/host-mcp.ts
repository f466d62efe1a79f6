// The server's own MCP connections, for requests that name no thread (`mcpServerStatus/list {}`,
// `mcpServer/resource/read` without a threadId): the servers of the startup config, started on first
// use, replaced by `config/mcpServer/reload`, stopped with the server.
import type { Config } from '@skein/config';
import { McpConnections } from '@skein/core';

/** Lazily started connections to the servers of the server's config. */
export class HostMcp {
  #connections: McpConnections | undefined;

  constructor(
    private readonly config: () => Config,
    private readonly env: Readonly<Record<string, string | undefined>>,
    private readonly warn: (message: string) => void,
  ) {}

  /** The connections, started now if they were not. */
  connections(): McpConnections {
    if (this.#connections === undefined) {
      this.#connections = new McpConnections(this.config().mcpServers, { env: this.env, onStatus: () => undefined, onWarning: this.warn });
      this.#connections.start();
    }
    return this.#connections;
  }

  /** Drops the connections; the next use starts them from the config as it is then. */
  async reload(): Promise<void> {
    const previous = this.#connections;
    this.#connections = undefined;
    await previous?.close();
  }

  async close(): Promise<void> {
    await this.reload();
  }
}
