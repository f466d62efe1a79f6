// A connection to one MCP server: start or reach it as its `[mcp_servers.<name>]` table says, then
// list and call its tools and list and read its resources, every call bounded by a timeout and an
// AbortSignal.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpError } from '@modelcontextprotocol/sdk/types.js';
import { loadMcpSdk, type McpSdk } from './mcp-sdk.js';
import * as z from 'zod';
// Named, not `z.core.$ZodError`: a nested namespace read keeps all of zod (every locale) in a bundle.
import { $ZodError } from 'zod/v4/core';
import { CallDeadline, NO_SDK_TIMEOUT } from './call-deadline.js';
import { McpClientError } from './mcp-client-error.js';
import type { McpResource, McpResourceContents, McpResourcePage } from './mcp-resource.js';
import type { McpContentBlock, McpElicitation, McpElicitationResult, McpJsonObject, McpProgress, McpResourceTemplatePage, McpServerDescription, McpTool, McpToolPage, McpToolResult } from './mcp-tool.js';
import { parseServerConfig, resolveServerLaunch } from './mcp-server-config.js';
import type { McpHostEnv, McpServerConfig, ServerLaunch } from './mcp-server-config.js';
import { StderrTail } from './stderr-tail.js';

/** Codex's defaults when a table sets no `startup_timeout_sec` / `tool_timeout_sec`. */
export const DEFAULT_STARTUP_TIMEOUT_MS = 10_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
/** Pages `resourcePages` reads at most unless told otherwise (as many as Codex's skill discovery). */
export const DEFAULT_MAX_PAGES = 10;

/** How to connect. Every field is optional. */
export interface McpClientOptions {
  /** Where `env_vars`, `bearer_token_env_var` and `env_http_headers` are read (default `process.env`). */
  readonly env?: McpHostEnv;
  /** Overrides `startup_timeout_sec` (default 10 s). */
  readonly startupTimeoutMs?: number;
  /** Overrides `tool_timeout_sec` as the default limit of each request (default 60 s). */
  readonly requestTimeoutMs?: number;
  /** Aborts the start. */
  readonly signal?: AbortSignal;
  /** How the client introduces itself in `initialize`. */
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /**
   * Answers the server's `elicitation/create` requests (form and URL modes). Without it the client
   * declares no elicitation capability, so servers do not ask.
   */
  readonly onElicitation?: ((request: McpElicitation, signal: AbortSignal) => Promise<McpElicitationResult>) | undefined;
}

/** Limits of one request. */
export interface McpCallOptions {
  readonly signal?: AbortSignal;
  /** This request's limit instead of the client's default. */
  readonly timeoutMs?: number;
}

/** Paging through `resources/list`. */
export interface McpPagingOptions extends McpCallOptions {
  /** Start after this cursor instead of at the first page. */
  readonly cursor?: string;
  /** Stop after this many pages (default 10); the last page then still carries its `nextCursor`. */
  readonly maxPages?: number;
}

type ClientState = 'open' | 'disconnected' | 'closed';

/** Limits of one tool call, and where its progress goes. */
export interface McpToolCallOptions extends McpCallOptions {
  readonly onProgress?: (progress: McpProgress) => void;
}

/** A live connection to one MCP server. Close it when done; `McpServers` does that for its clients. */
export class McpClient {
  #state: ClientState = 'open';
  readonly #owner = new AbortController();
  readonly #disconnectListeners = new Set<() => void>();
  readonly #validators = new Map<string, (args: unknown) => string | undefined>();
  readonly #ajv: InstanceType<McpSdk['AjvJsonSchemaValidator']>;

  private constructor(
    /** The `[mcp_servers.<name>]` key, used in every error message. */
    readonly serverName: string,
    private readonly sdk: Client,
    /** The SDK's classes, to tell its errors apart. */
    private readonly mcp: McpSdk,
    private readonly stderr: StderrTail,
    private readonly requestTimeoutMs: number,
  ) {
    this.#ajv = new mcp.AjvJsonSchemaValidator();
  }

  /**
   * Starts (stdio) or reaches (streamable HTTP) the server and completes the MCP handshake.
   * Throws `McpClientError`: `InvalidConfig`, `Disabled`, `StartupTimeout`, `ConnectFailed`, `Aborted`.
   */
  static async connect(name: string, server: McpServerConfig, options: McpClientOptions = {}): Promise<McpClient> {
    const config = parseServerConfig(name, server);
    if (config.enabled === false) throw new McpClientError('Disabled', name, 'disabled in config (enabled = false)');
    const launch = resolveServerLaunch(name, config, options.env ?? process.env);
    const stderr = new StderrTail();
    const mcp = await loadMcpSdk();
    const transport = openTransport(mcp, launch, stderr);
    const { onElicitation } = options;
    const sdk = new mcp.Client(options.clientInfo ?? { name: 'skein', version: '0.0.0' }, { capabilities: onElicitation === undefined ? {} : { elicitation: { form: {}, url: {} } } });
    if (onElicitation !== undefined) {
      sdk.setRequestHandler(mcp.ElicitRequestSchema, async (request, extra) => {
        const result = await onElicitation(request.params as McpElicitation, extra.signal);
        return result.content === undefined ? { action: result.action } : { action: result.action, content: { ...result.content } as Record<string, string | number | boolean | string[]> };
      });
    }
    const client = new McpClient(name, sdk, mcp, stderr, options.requestTimeoutMs ?? secondsToMs(config.tool_timeout_sec) ?? DEFAULT_REQUEST_TIMEOUT_MS);
    sdk.onclose = () => client.#onTransportClosed();
    const startupMs = options.startupTimeoutMs ?? secondsToMs(config.startup_timeout_sec) ?? DEFAULT_STARTUP_TIMEOUT_MS;
    const deadline = new CallDeadline(startupMs, options.signal, client.#owner.signal);
    try {
      await sdk.connect(transport, { signal: deadline.signal, timeout: NO_SDK_TIMEOUT });
      return client;
    } catch (error) {
      const failure = client.#startupError(error, deadline, launch);
      await client.close();
      throw failure;
    } finally {
      deadline.dispose();
    }
  }

  /** Whether calls can still be made (not closed, and the server has not gone away). */
  get isOpen(): boolean {
    return this.#state === 'open';
  }

  /** Calls `listener` once if the server goes away on its own (not on `close()`). Returns an unsubscribe. */
  onDisconnect(listener: () => void): () => void {
    this.#disconnectListeners.add(listener);
    return () => this.#disconnectListeners.delete(listener);
  }

  /** One page of `resources/list`, from the start or after `cursor`. */
  async listResources(options: McpCallOptions & { readonly cursor?: string } = {}): Promise<McpResourcePage> {
    const params = options.cursor === undefined ? undefined : { cursor: options.cursor };
    const result = await this.#call('resources/list', options, (signal) => this.sdk.listResources(params, { signal, timeout: NO_SDK_TIMEOUT }));
    const resources: McpResource[] = result.resources.map((resource) => ({ ...resource }));
    return result.nextCursor === undefined ? { resources } : { resources, nextCursor: result.nextCursor };
  }

  /**
   * Every page of `resources/list` in order, at most `maxPages` of them. Each page has its own timeout.
   * A cursor the server already gave ends the paging with `RepeatedCursor`.
   */
  resourcePages(options: McpPagingOptions = {}): AsyncGenerator<McpResourcePage, void, undefined> {
    return this.#pages('resources/list', options, (page) => this.listResources(page));
  }

  /** One page of `tools/list`, from the start or after `cursor`. */
  async listTools(options: McpCallOptions & { readonly cursor?: string } = {}): Promise<McpToolPage> {
    const params = options.cursor === undefined ? undefined : { cursor: options.cursor };
    const result = await this.#call('tools/list', options, (signal) => this.sdk.listTools(params, { signal, timeout: NO_SDK_TIMEOUT }));
    const tools: McpTool[] = result.tools.map((tool) => ({ ...tool, inputSchema: tool.inputSchema }));
    return result.nextCursor === undefined ? { tools } : { tools, nextCursor: result.nextCursor };
  }

  /** Every tool the server lists, over all pages (at most `maxPages`; a repeated cursor is `RepeatedCursor`). */
  async tools(options: McpPagingOptions = {}): Promise<McpTool[]> {
    const tools: McpTool[] = [];
    for await (const page of this.#pages('tools/list', options, (page) => this.listTools(page))) tools.push(...page.tools);
    return tools;
  }

  /**
   * Calls a tool (`tools/call`). A failure the tool reports itself comes back as `isError: true`;
   * a JSON-RPC error, a timeout or a lost server is an `McpClientError`. Progress notifications of
   * the call go to `onProgress` and do not extend its timeout.
   */
  async callTool(name: string, args: McpJsonObject, options: McpToolCallOptions = {}): Promise<McpToolResult> {
    const { onProgress } = options;
    const result = await this.#call(`tools/call ${name}`, options, (signal) =>
      this.sdk.callTool({ name, arguments: { ...args } }, undefined, { signal, timeout: NO_SDK_TIMEOUT, ...(onProgress === undefined ? {} : { onprogress: (progress) => onProgress({ ...progress }) }) }),
    );
    // The SDK's default schema also accepts the legacy `toolResult` form; only `content` is current.
    if (!Array.isArray(result.content)) throw new McpClientError('InvalidResponse', this.serverName, `tools/call ${name} answered without a content list`);
    return {
      content: result.content.map((block) => ({ ...block }) as McpContentBlock),
      ...(result.structuredContent === undefined ? {} : { structuredContent: result.structuredContent as McpJsonObject }),
      ...(result.isError === undefined ? {} : { isError: result.isError as boolean }),
      ...(result._meta === undefined ? {} : { _meta: result._meta }),
    };
  }

  /** One page of `resources/templates/list`, from the start or after `cursor`. */
  async listResourceTemplates(options: McpCallOptions & { readonly cursor?: string } = {}): Promise<McpResourceTemplatePage> {
    const params = options.cursor === undefined ? undefined : { cursor: options.cursor };
    const result = await this.#call('resources/templates/list', options, (signal) => this.sdk.listResourceTemplates(params, { signal, timeout: NO_SDK_TIMEOUT }));
    const resourceTemplates = result.resourceTemplates.map((template) => ({ ...template }));
    return result.nextCursor === undefined ? { resourceTemplates } : { resourceTemplates, nextCursor: result.nextCursor };
  }

  /** What the server said about itself in the handshake. */
  describe(): McpServerDescription {
    return {
      serverInfo: this.sdk.getServerVersion(),
      capabilities: this.sdk.getServerCapabilities(),
      instructions: this.sdk.getInstructions(),
    };
  }

  /**
   * Why `args` do not fit the tool's input schema, or undefined when they do. A schema the validator
   * cannot compile is left to the server to judge.
   */
  argumentProblem(tool: McpTool, args: unknown): string | undefined {
    let validate = this.#validators.get(tool.name);
    if (validate === undefined) {
      try {
        const check = this.#ajv.getValidator(tool.inputSchema);
        validate = (input) => {
          const result = check(input);
          return result.valid ? undefined : result.errorMessage;
        };
      } catch {
        validate = () => undefined;
      }
      this.#validators.set(tool.name, validate);
    }
    return validate(args);
  }

  /** The last bytes the (stdio) server wrote to stderr, trimmed; empty when none. */
  stderrTail(): string {
    return this.stderr.text();
  }

  /** The contents of one resource (`resources/read`): text, or base64 blobs. */
  async readResource(uri: string, options: McpCallOptions = {}): Promise<readonly McpResourceContents[]> {
    const result = await this.#call(`resources/read ${uri}`, options, (signal) => this.sdk.readResource({ uri }, { signal, timeout: NO_SDK_TIMEOUT }));
    return result.contents.map((contents): McpResourceContents => ({ ...contents }));
  }

  /** Ends the connection (a stdio server is stopped). Later calls fail with `Closed`. Idempotent. */
  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#owner.abort();
    this.#disconnectListeners.clear();
    await this.sdk.close();
  }

  async *#pages<P extends { readonly nextCursor?: string | undefined }>(what: string, options: McpPagingOptions, page: (options: McpCallOptions & { readonly cursor?: string }) => Promise<P>): AsyncGenerator<P, void, undefined> {
    const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
    const seen = new Set<string>();
    let cursor = options.cursor;
    for (let index = 0; index < maxPages; index += 1) {
      const result = await page({ ...callOptions(options), ...(cursor === undefined ? {} : { cursor }) });
      yield result;
      if (result.nextCursor === undefined) return;
      if (seen.has(result.nextCursor) || result.nextCursor === options.cursor) {
        throw new McpClientError('RepeatedCursor', this.serverName, `${what} repeated the cursor '${result.nextCursor}', so paging cannot advance`);
      }
      seen.add(result.nextCursor);
      cursor = result.nextCursor;
    }
  }

  async #call<T>(what: string, options: McpCallOptions, request: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.#state !== 'open') throw this.#notOpen(what);
    const deadline = new CallDeadline(options.timeoutMs ?? this.requestTimeoutMs, options.signal, this.#owner.signal);
    try {
      return await request(deadline.signal);
    } catch (error) {
      throw this.#requestError(error, deadline, what);
    } finally {
      deadline.dispose();
    }
  }

  #requestError(error: unknown, deadline: CallDeadline, what: string): McpClientError {
    const name = this.serverName;
    switch (deadline.cause) {
      case 'timeout':
        return new McpClientError('RequestTimeout', name, `${what} got no answer within ${deadline.timeoutMs} ms`, { cause: error });
      case 'aborted':
        return new McpClientError('Aborted', name, `${what} was aborted`, { cause: error });
      case 'closed':
        return new McpClientError('Closed', name, `${what} was cut short: the client was closed`, { cause: error });
      case undefined:
        break;
    }
    if (this.#state !== 'open') return this.#notOpen(what, error);
    const { McpError, ErrorCode, StreamableHTTPError } = this.mcp;
    if (error instanceof McpError && error.code !== Number(ErrorCode.ConnectionClosed)) {
      return new McpClientError('ServerError', name, `${what} failed (JSON-RPC error ${error.code}): ${serverMessage(error)}`, { cause: error, rpcCode: error.code });
    }
    if (error instanceof StreamableHTTPError) {
      return new McpClientError('ServerError', name, `${what} failed: HTTP ${error.code ?? '?'} ${error.message}`, { cause: error });
    }
    if (error instanceof $ZodError) {
      return new McpClientError('InvalidResponse', name, `${what} answered with an invalid result: ${z.prettifyError(error)}`, { cause: error });
    }
    return new McpClientError('Disconnected', name, `${what} failed: ${messageOf(error)}`, { cause: error });
  }

  #startupError(error: unknown, deadline: CallDeadline, launch: ServerLaunch): McpClientError {
    const name = this.serverName;
    const target = launch.transport === 'stdio' ? `\`${launch.command}\`` : launch.url.href;
    switch (deadline.cause) {
      case 'timeout':
        return new McpClientError('StartupTimeout', name, `${target} did not finish the MCP handshake within ${deadline.timeoutMs} ms; raise startup_timeout_sec if it is slow to start`, { cause: error, stderrTail: this.stderr.text() });
      case 'aborted':
        return new McpClientError('Aborted', name, 'the start was aborted', { cause: error });
      case 'closed':
        return new McpClientError('Closed', name, 'the client was closed while starting', { cause: error });
      case undefined:
        break;
    }
    // The SDK closes the transport itself when the handshake fails, so the client's state cannot tell
    // an exit from a refusal; the pending `initialize` failing with ConnectionClosed can.
    const { McpError, ErrorCode, StreamableHTTPError } = this.mcp;
    if (error instanceof McpError && error.code === Number(ErrorCode.ConnectionClosed)) {
      const gone = launch.transport === 'stdio' ? 'exited' : 'closed the connection';
      return new McpClientError('ConnectFailed', name, `${target} ${gone} before the MCP handshake finished`, { cause: error, stderrTail: this.stderr.text() });
    }
    if (error instanceof StreamableHTTPError) {
      return new McpClientError('ConnectFailed', name, `${target} answered HTTP ${error.code ?? '?'}: ${error.message}`, { cause: error });
    }
    const verb = launch.transport === 'stdio' ? 'cannot start' : 'cannot reach';
    return new McpClientError('ConnectFailed', name, `${verb} ${target}: ${messageOf(error)}`, { cause: error, stderrTail: this.stderr.text() });
  }

  #notOpen(what: string, cause?: unknown): McpClientError {
    return this.#state === 'closed'
      ? new McpClientError('Closed', this.serverName, `${what}: the client is closed`, { cause })
      : new McpClientError('Disconnected', this.serverName, `${what}: the server has gone away`, { cause, stderrTail: this.stderr.text() });
  }

  #onTransportClosed(): void {
    if (this.#state !== 'open') return;
    this.#state = 'disconnected';
    for (const listener of this.#disconnectListeners) listener();
    this.#disconnectListeners.clear();
  }
}

function openTransport({ StdioClientTransport, StreamableHTTPClientTransport }: McpSdk, launch: ServerLaunch, stderr: StderrTail): Transport {
  if (launch.transport === 'http') return new StreamableHTTPClientTransport(launch.url, { requestInit: { headers: launch.headers } });
  const transport = new StdioClientTransport({
    command: launch.command,
    args: [...launch.args],
    env: launch.env,
    ...(launch.cwd === undefined ? {} : { cwd: launch.cwd }),
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => stderr.append(chunk));
  return transport;
}

function callOptions(options: McpCallOptions): McpCallOptions {
  return { ...(options.signal === undefined ? {} : { signal: options.signal }), ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }) };
}

function secondsToMs(seconds: number | undefined): number | undefined {
  return seconds === undefined ? undefined : Math.round(seconds * 1000);
}

// The SDK prefixes `MCP error <code>: ` on both ends, so a server built on it arrives prefixed twice.
function serverMessage(error: McpError): string {
  return error.message.replace(/^(MCP error -?\d+: )+/, '');
}

function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}
