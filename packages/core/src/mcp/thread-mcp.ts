// One thread's MCP side: its connection set (replaced when the servers' config changes, between
// turns), the deferred namespaces of the servers that are ready, and the resource tools.
import type { Config, McpServerToml } from '@skein/config';
import type { FunctionToolHandler, NamespaceToolHandler, ToolHandler } from '@skein/extension-api';
import type { McpElicitation, McpElicitationResult, McpHostEnv } from '@skein/mcp-client';
import * as z from 'zod';
import type { DeferredToolSource } from '../tools/tool-router.js';
import type { CoreEvent } from '../turn/core-event.js';
import type { McpApprovalContext } from './mcp-approval.js';
import { McpConnections, type ReadyMcpServer } from './mcp-connections.js';
import { mcpResourceTools } from './mcp-resource-tools.js';
import { mcpNamespace, mcpNamespaceName } from './mcp-tool-namespace.js';

/** What a user may answer a form with (MCP's primitive values). */
const ElicitationContent = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]));

/** What the thread's MCP side reports to and reads. */
export interface ThreadMcpOptions {
  readonly env: McpHostEnv;
  readonly emit: (event: CoreEvent) => void;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
  /** Who approves calls that need it (its client also answers the servers' own elicitations). */
  readonly approvals: McpApprovalContext;
  /** The running turn, which a server's elicitation belongs to. */
  readonly activeTurnId: () => string | undefined;
}

/** The thread's servers and the tools made of them. */
export class ThreadMcp {
  readonly #options: ThreadMcpOptions;
  #key: string | undefined;
  #connections: McpConnections;
  /** Each ready server's namespace, made once per connection. */
  #namespaces = new WeakMap<ReadyMcpServer, NamespaceToolHandler | undefined>();
  readonly #resourceTools: FunctionToolHandler[];
  readonly source: DeferredToolSource;

  constructor(options: ThreadMcpOptions) {
    this.#options = options;
    this.#connections = this.#open({});
    this.#resourceTools = mcpResourceTools(() => this.#connections);
    this.source = {
      current: () => this.#namespacesOf(this.#connections.ready()),
      settled: async (signal) => this.#namespacesOf(await this.#connections.settled(signal)),
    };
  }

  /** The connection set now. */
  get connections(): McpConnections {
    return this.#connections;
  }

  /**
   * Makes the connection set fit `config`: the first call starts the servers; a later one with other
   * `[mcp_servers]` tables replaces the set (call it between turns). `force` replaces it even when
   * nothing changed (a reload). Returns whether the set was replaced.
   */
  use(config: Pick<Config, 'mcpServers'>, force = false): boolean {
    const key = JSON.stringify(sortedServers(config.mcpServers));
    if (!force && key === this.#key) return false;
    const previous = this.#key === undefined ? undefined : this.#connections;
    this.#key = key;
    this.#connections = this.#open(config.mcpServers);
    this.#namespaces = new WeakMap();
    // On the next tick: whoever opened the thread answers its client before the first status goes out.
    const connections = this.#connections;
    setImmediate(() => connections.start());
    void previous?.close();
    return true;
  }

  /** Whether any server is enabled (the resource tools and tool_search are offered then). */
  get hasServers(): boolean {
    return this.#connections.names().length > 0;
  }

  /** The resource tools (offered when there are servers). */
  resourceTools(): readonly FunctionToolHandler[] {
    return this.#resourceTools;
  }

  /** The deferred namespaces as the `<tools>` part lists them: one per enabled server. */
  namespaceNames(): string[] {
    return this.#connections.names().map(mcpNamespaceName);
  }

  async close(): Promise<void> {
    await this.#connections.close();
  }

  #open(servers: Readonly<Record<string, McpServerToml>>): McpConnections {
    const { emit } = this.#options;
    return new McpConnections(servers, {
      env: this.#options.env,
      onStatus: (status) => emit({ type: 'mcpServerStatus', ...status }),
      onWarning: (message) => emit({ type: 'warning', message }),
      onElicitation: (server, request, signal) => this.#elicit(server, request, signal),
    });
  }

  /** A server's own question, passed to the thread's client; with no client to ask, it is declined. */
  async #elicit(server: string, request: McpElicitation, signal: AbortSignal): Promise<McpElicitationResult> {
    const ask = this.#options.approvals.client?.requestMcpElicitation?.bind(this.#options.approvals.client);
    if (ask === undefined) return { action: 'decline' };
    const answer = await ask(
      {
        turnId: this.#options.activeTurnId() ?? null,
        serverName: server,
        mode: request.mode,
        message: request.message,
        ...(request.mode === 'form' ? { requestedSchema: request.requestedSchema } : { url: request.url, elicitationId: request.elicitationId }),
        ...(request._meta === undefined ? {} : { meta: request._meta }),
      },
      signal,
    );
    if (answer.action !== 'accept') return { action: answer.action };
    const content = ElicitationContent.safeParse(answer.content ?? {});
    // Content that is not a flat object of answers cannot go back to the server: the question is cancelled.
    return content.success ? { action: 'accept', content: content.data } : { action: 'cancel' };
  }

  #namespacesOf(servers: readonly ReadyMcpServer[]): ToolHandler[] {
    return servers.flatMap((server) => {
      if (!this.#namespaces.has(server)) this.#namespaces.set(server, mcpNamespace(server, { connections: () => this.#connections, emit: this.#options.emit, now: this.#options.now, approvals: this.#options.approvals }));
      const namespace = this.#namespaces.get(server);
      return namespace === undefined ? [] : [namespace];
    });
  }
}

function sortedServers(servers: Readonly<Record<string, McpServerToml>>): [string, McpServerToml][] {
  return Object.entries(servers).sort(([a], [b]) => a.localeCompare(b));
}
