// The MCP servers of one thread: each enabled `[mcp_servers.<name>]` is started in the background
// when the thread opens (a turn never waits for one), its tools listed once it is ready, its status
// reported as it changes. A server that went away is started again on its next use. A thread swaps
// the whole set for a new one when its servers' config changes (`config/mcpServer/reload`).
import type { McpServerToml } from '@skein/config';
import { McpClient, McpClientError, type McpElicitation, type McpElicitationResult, type McpHostEnv, type McpServerDescription, type McpTool } from '@skein/mcp-client';

/** Where a server's start stands (Codex's `McpServerStartupState`). */
export type McpStartupState = 'starting' | 'ready' | 'failed' | 'cancelled';

/** A server's status, as `mcpServer/startupStatus/updated` reports it. */
export interface McpServerStartup {
  readonly name: string;
  readonly status: McpStartupState;
  /** Why it failed; null otherwise. */
  readonly error: string | null;
}

/** A ready server: its connection, its (filtered) tools and what it said about itself. */
export interface ReadyMcpServer {
  readonly name: string;
  readonly config: McpServerToml;
  readonly client: McpClient;
  readonly tools: readonly McpTool[];
  readonly description: McpServerDescription;
  /** Why listing its tools failed (the server still serves resources), if it did. */
  readonly toolsError: string | null;
}

/** How the connections are made. */
export interface McpConnectionsOptions {
  /** Where `env_vars`, `bearer_token_env_var` and `env_http_headers` are read. */
  readonly env: McpHostEnv;
  readonly onStatus: (status: McpServerStartup) => void;
  readonly onWarning: (message: string) => void;
  /** Answers a server's own elicitations; without it servers are told the client cannot ask. */
  readonly onElicitation?: ((server: string, request: McpElicitation, signal: AbortSignal) => Promise<McpElicitationResult>) | undefined;
}

interface ServerSlot {
  readonly name: string;
  readonly config: McpServerToml;
  status: McpServerStartup;
  ready: ReadyMcpServer | undefined;
  /** The start under way, if any; settles when it ends either way. */
  starting: Promise<void> | undefined;
  /** Why the last start failed: thrown again to each call until a start succeeds. */
  startError: McpClientError | undefined;
}

/** The thread's servers, started at once and kept as they come up. */
export class McpConnections {
  readonly #slots = new Map<string, ServerSlot>();
  readonly #closing = new AbortController();
  readonly #options: McpConnectionsOptions;

  constructor(servers: Readonly<Record<string, McpServerToml>>, options: McpConnectionsOptions) {
    this.#options = options;
    for (const name of Object.keys(servers).sort()) {
      const config = servers[name]!;
      if (config.enabled === false) continue;
      const slot: ServerSlot = { name, config, status: { name, status: 'starting', error: null }, ready: undefined, starting: undefined, startError: undefined };
      this.#slots.set(name, slot);
    }
  }

  /** Starts every server in the background; each reports `starting`, then `ready` or `failed`. */
  start(): void {
    if (this.#closing.signal.aborted) return;
    for (const slot of this.#slots.values()) if (!this.#begun(slot)) this.#start(slot);
  }

  /** Names of the enabled servers, sorted. */
  names(): string[] {
    return [...this.#slots.keys()];
  }

  /** Every server's status now, by name. */
  statuses(): McpServerStartup[] {
    return [...this.#slots.values()].map((slot) => slot.status);
  }

  /** The servers that are ready now. */
  ready(): ReadyMcpServer[] {
    return [...this.#slots.values()].flatMap((slot) => (slot.ready === undefined ? [] : [slot.ready]));
  }

  /** The ready servers once every start under way has ended (each is bounded by its startup timeout). */
  async settled(signal?: AbortSignal): Promise<ReadyMcpServer[]> {
    const pending = [...this.#slots.values()].flatMap((slot) => (slot.starting === undefined ? [] : [slot.starting]));
    if (pending.length > 0) await untilAborted(Promise.all(pending), signal);
    return this.ready();
  }

  /**
   * The ready server `name`, waiting for a start under way and starting again one that went away.
   * Throws McpClientError (`UnknownServer`, or why the start failed).
   */
  async server(name: string, signal?: AbortSignal): Promise<ReadyMcpServer> {
    const slot = this.#slots.get(name);
    if (slot === undefined) {
      const known = this.names();
      throw new McpClientError('UnknownServer', name, `no enabled [mcp_servers.${name}] table; configured: ${known.length === 0 ? 'none' : known.join(', ')}`);
    }
    // Asked before the background start began (a hook of the thread's first turn, on the same tick):
    // this call starts it.
    if (!this.#begun(slot) && !this.#closing.signal.aborted) this.#start(slot);
    if (slot.ready !== undefined && !slot.ready.client.isOpen) this.#start(slot);
    if (slot.starting !== undefined) await untilAborted(slot.starting, signal);
    if (slot.ready === undefined) throw slot.startError ?? new McpClientError('ConnectFailed', name, 'the server is not running');
    return slot.ready;
  }

  /** Stops every server; starts under way are cancelled. */
  async close(): Promise<void> {
    this.#closing.abort();
    const slots = [...this.#slots.values()];
    await Promise.allSettled(slots.flatMap((slot) => (slot.starting === undefined ? [] : [slot.starting])));
    await Promise.allSettled(slots.flatMap((slot) => (slot.ready === undefined ? [] : [slot.ready.client.close()])));
  }

  /** Whether a start of `slot` ever began (it may be under way, done, or failed). */
  #begun(slot: ServerSlot): boolean {
    return slot.ready !== undefined || slot.starting !== undefined || slot.startError !== undefined;
  }

  #start(slot: ServerSlot): void {
    slot.ready = undefined;
    this.#report(slot, { name: slot.name, status: 'starting', error: null });
    const starting = this.#connect(slot).finally(() => {
      if (slot.starting === starting) slot.starting = undefined;
    });
    slot.starting = starting;
  }

  async #connect(slot: ServerSlot): Promise<void> {
    const { name, config } = slot;
    let client: McpClient;
    try {
      const { onElicitation } = this.#options;
      client = await McpClient.connect(name, config, {
        env: this.#options.env,
        signal: this.#closing.signal,
        clientInfo: { name: 'skein', version: '0.0.0' },
        ...(onElicitation === undefined ? {} : { onElicitation: (request: McpElicitation, signal: AbortSignal) => onElicitation(name, request, signal) }),
      });
    } catch (error) {
      const cancelled = this.#closing.signal.aborted;
      slot.startError = error instanceof McpClientError ? error : new McpClientError('ConnectFailed', name, messageOf(error), { cause: error });
      this.#report(slot, { name, status: cancelled ? 'cancelled' : 'failed', error: cancelled ? null : messageOf(error) });
      return;
    }
    if (this.#closing.signal.aborted) {
      await client.close();
      return;
    }
    let tools: McpTool[] = [];
    let toolsError: string | null = null;
    if (client.describe().capabilities?.tools !== undefined) {
      try {
        tools = this.#filtered(name, config, await client.tools());
      } catch (error) {
        toolsError = messageOf(error);
        this.#options.onWarning(`${toolsError}; its tools are not offered`);
      }
    }
    slot.startError = undefined;
    slot.ready = { name, config, client, tools, description: client.describe(), toolsError };
    this.#report(slot, { name, status: 'ready', error: null });
  }

  /** The tools `enabled_tools` / `disabled_tools` allow, a repeated name kept once (the first). */
  #filtered(server: string, config: McpServerToml, tools: readonly McpTool[]): McpTool[] {
    const enabled = config.enabled_tools === undefined ? undefined : new Set(config.enabled_tools);
    const disabled = new Set(config.disabled_tools ?? []);
    const seen = new Set<string>();
    const kept: McpTool[] = [];
    for (const tool of tools) {
      if (seen.has(tool.name)) {
        this.#options.onWarning(`MCP server '${server}' lists two tools named '${tool.name}'; the first is offered`);
        continue;
      }
      seen.add(tool.name);
      if ((enabled === undefined || enabled.has(tool.name)) && !disabled.has(tool.name)) kept.push(tool);
    }
    return kept;
  }

  #report(slot: ServerSlot, status: McpServerStartup): void {
    slot.status = status;
    this.#options.onStatus(status);
  }
}

async function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
  let onAbort: (() => void) | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_resolve, reject) => {
        onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
        signal.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } finally {
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
