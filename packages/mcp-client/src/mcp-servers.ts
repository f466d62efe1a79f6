// The configured MCP servers of one host: each one connected on first use, one connection per server
// shared by every caller, and all of them closed together by their owner.
import { McpClientError } from './mcp-client-error.js';
import { McpClient } from './mcp-client.js';
import type { McpCallOptions, McpClientOptions } from './mcp-client.js';
import type { McpServerConfig } from './mcp-server-config.js';

/** How the manager connects its clients; a per-call `signal` is given to `client()` instead. */
export type McpServersOptions = Omit<McpClientOptions, 'signal'>;

/**
 * Lazily started clients for a `Record<name, [mcp_servers.<name>] table>` (e.g. `Config.mcpServers`).
 * A failed start is not kept: the next `client()` tries again. A server that goes away, or a client
 * a caller closed, is dropped, so the next `client()` reconnects. Callers that want to remember a
 * failure cache it themselves.
 */
export class McpServers {
  readonly #connections = new Map<string, Promise<McpClient>>();
  // The started clients, to see synchronously that one was closed by a caller and must be replaced.
  readonly #started = new Map<string, McpClient>();
  readonly #closing = new AbortController();

  constructor(
    private readonly servers: Readonly<Record<string, McpServerConfig>>,
    private readonly options: McpServersOptions = {},
  ) {}

  /** Names of the configured servers that are not `enabled = false`, sorted. */
  names(): string[] {
    return Object.keys(this.servers).filter((name) => this.servers[name]?.enabled !== false).sort();
  }

  /** Names of the enabled servers marked `skein_skill_source = true`, sorted. */
  skillSources(): string[] {
    return this.names().filter((name) => this.servers[name]?.skein_skill_source === true);
  }

  /**
   * The connected client of `name`, starting it on first use. `signal` stops this caller's wait only;
   * a start other callers share goes on. Throws `McpClientError` (`UnknownServer`, `Closed`, and
   * everything `McpClient.connect` throws).
   */
  async client(name: string, options: Pick<McpCallOptions, 'signal'> = {}): Promise<McpClient> {
    if (this.#closing.signal.aborted) throw new McpClientError('Closed', name, 'the MCP servers were closed');
    const server = this.servers[name];
    if (server === undefined) {
      const known = Object.keys(this.servers).sort();
      throw new McpClientError('UnknownServer', name, `no [mcp_servers.${name}] table; configured: ${known.length === 0 ? 'none' : known.join(', ')}`);
    }
    if (this.#started.get(name)?.isOpen === false) this.#forget(name);
    let connection = this.#connections.get(name);
    if (connection === undefined) {
      connection = this.#connect(name, server);
      this.#connections.set(name, connection);
    }
    return options.signal === undefined ? connection : abortable(connection, options.signal, name);
  }

  /** Closes every client and refuses new ones. */
  async close(): Promise<void> {
    this.#closing.abort();
    const connections = [...this.#connections.values()];
    this.#connections.clear();
    this.#started.clear();
    await Promise.all(connections.map(async (connection) => {
      // A start that failed has nothing to close; its error went to the callers who waited for it.
      const client = await connection.catch(() => undefined);
      await client?.close();
    }));
  }

  async #connect(name: string, server: McpServerConfig): Promise<McpClient> {
    let client: McpClient;
    try {
      client = await McpClient.connect(name, server, { ...this.options, signal: this.#closing.signal });
    } catch (error) {
      this.#forget(name);
      if (error instanceof McpClientError && error.code === 'Aborted' && this.#closing.signal.aborted) {
        throw new McpClientError('Closed', name, 'the MCP servers were closed while it started', { cause: error });
      }
      throw error;
    }
    this.#started.set(name, client);
    client.onDisconnect(() => this.#forget(name));
    return client;
  }

  #forget(name: string): void {
    this.#connections.delete(name);
    this.#started.delete(name);
  }
}

async function abortable<T>(promise: Promise<T>, signal: AbortSignal, name: string): Promise<T> {
  if (signal.aborted) throw new McpClientError('Aborted', name, 'the wait for the server was aborted');
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(new McpClientError('Aborted', name, 'the wait for the server was aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([promise, aborted]);
  } finally {
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
  }
}
