// AppServer: the app-server service independent of transport. It owns the connections, the method
// table, the thread subscription sets and what every handler shares (config, filesystem).
import { EventLoopDelay } from './event-loop-delay.js';
import { HostMcp } from './mcp/host-mcp.js';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type LoadConfigOptions, type LoadedConfig } from '@skein/config';
import { LocalFileSystem, type ExecutorFileSystem } from '@skein/exec-server';
import { sandboxStartupWarning } from '@skein/sandboxing';
import type { SkillsService } from '@skein/ext-skills';
import type { PluginService } from '@skein/plugins';
import type { HostSkills } from './skills/host-skills.js';
import { RealtimeConversations } from './realtime/realtime-conversations.js';
import type { JsonRpcService, MessageChannel } from '@skein/json-rpc';
import { CODEX_VERSION, type InitializeParams, type InitializeResponse, type RequestId } from '@skein/protocol';
import { AppServerConnection } from './app-server-connection.js';
import {
  DEFAULT_CONCURRENT_REQUESTS,
  MAX_OUTBOUND_BUFFERED_BYTES,
  MAX_PENDING_SERVER_REQUESTS,
  MAX_QUEUED_REQUESTS,
  MAX_REQUEST_BYTES,
} from './limits.js';
import type { ClientConnection, MethodContext, MethodTable } from './method.js';
import { methodTable } from './methods/default-methods.js';
import { AppServerRequestError } from './app-server-error.js';
import { StandaloneProcesses } from './processes/connection-processes.js';
import { ThreadHub, type ThreadHubOptions, type ThreadHubServer } from './threads/thread-hub.js';
import { ThreadServerRequests } from './threads/thread-server-requests.js';
import { SharedParams } from './shared-params.js';
import { ThreadSubscriptions } from './thread-subscriptions.js';
import { platformInfo } from './platform-info.js';
import { localUserAgentHost, userAgent, type UserAgentHost } from '@skein/core';
import { loadThreadConfig, resolveThreadCwd } from './threads/thread-cwd.js';
import { SavedApiKey } from './saved-api-key.js';

/** How an AppServer runs. Only `config` is required; limits default to `limits.ts`. */
export interface AppServerOptions {
  /** The config loaded at startup; its warnings become `configWarning` notifications. */
  readonly config: LoadedConfig;
  /** How to reload config for another directory (`config/read {cwd}`): the startup load's options. */
  readonly configLoad?: Omit<LoadConfigOptions, 'cwd'> | undefined;
  /** The filesystem `fs/*` works on (default: this machine, unsandboxed, as Codex). */
  readonly fileSystem?: ExecutorFileSystem | undefined;
  /** Methods added to (or replacing) the built-in ones. */
  readonly methods?: MethodTable | undefined;
  /**
   * The version in the user agent (default: the Codex version Skein speaks, which version-gated
   * Codex clients check).
   */
  readonly version?: string | undefined;
  /** When set, each client gets `remoteControl/status/changed {status:"disabled"}` after initialize, as Codex sends. */
  readonly installationId?: string | undefined;
  /** The machine's name in `remoteControl/status/changed` (default: the hostname). */
  readonly serverName?: string | undefined;
  readonly maxQueuedRequests?: number | undefined;
  readonly concurrentRequests?: number | undefined;
  readonly maxRequestBytes?: number | undefined;
  readonly maxPendingServerRequests?: number | undefined;
  readonly maxOutboundBufferedBytes?: number | undefined;
  /** Milliseconds since the epoch, for `emittedAtMs` (default `Date.now`). */
  readonly now?: (() => number) | undefined;
  readonly userAgentHost?: UserAgentHost | undefined;
  readonly platform?: NodeJS.Platform | undefined;
  /** Diagnostics (ignored input, handler crashes); default: nowhere. */
  readonly log?: ((line: string) => void) | undefined;
  /** Where threads live and run; without it the thread and turn methods answer that threads are unavailable. */
  readonly threads?: ThreadHubOptions | undefined;
  /** The skills the `skills/*` methods report (the skills extension's); without it they list none. Closed with the server. */
  readonly skills?: HostSkills | undefined;
  /** The home's saved API key (auth.json); default: none loaded. */
  readonly savedApiKey?: SavedApiKey | undefined;
  /**
   * The threads' realtime conversations; pass the one whose `extension` the threads load, so their
   * models hear when a conversation starts and ends. Default: a registry of the server's own.
   */
  readonly realtime?: RealtimeConversations | undefined;
}

/** `env` without `CODEX_API_KEY`, the key only `exec` takes. */
function withoutExecApiKey(env: Readonly<Record<string, string | undefined>>): Readonly<Record<string, string | undefined>> {
  if (env.CODEX_API_KEY === undefined) return env;
  const { CODEX_API_KEY: _execOnly, ...rest } = env;
  return rest;
}

function positive(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}

/** The service; attach transports with `serveStdio(server, …)` or `listenWebSocket({ server, … })`. */
export class AppServer implements JsonRpcService<AppServerConnection> {
  /** The runtime feature states clients set (`experimentalFeature/enablement/set`), for every later load. */
  readonly #featureEnablement = new Map<string, boolean>();
  /** Config changes (writes, enablement) one at a time, each followed by its reload. */
  #configChanges: Promise<unknown> = Promise.resolve();
  #config: LoadedConfig;
  /** Whether this machine can confine the default policy's commands, asked once (see sendStartupNotifications). */
  #sandboxWarning: Promise<string | undefined> | undefined;
  /** Where config, sessions and state live (`initialize`'s `codexHome`). */
  readonly codexHome: string;
  /** The API key this home has saved; `account/login/*` change it, model requests read it. */
  readonly savedApiKey: SavedApiKey;
  /** The filesystem `fs/*` works on. */
  readonly fileSystem: ExecutorFileSystem;
  /** The skills extension's service, when the host installed it. */
  readonly skills: SkillsService | undefined;
  /** The home's plugins and marketplaces, when the host installed the skills extension. */
  readonly plugins: PluginService | undefined;
  /** The loaded threads' realtime conversations (`thread/realtime/*`). */
  readonly realtime: RealtimeConversations;
  /** Which connections follow which threads; the thread methods fill it. */
  readonly subscriptions = new ThreadSubscriptions();
  /** `command/exec` and `process/spawn` processes, per connection; killed when their connection closes. */
  readonly standaloneProcesses = new StandaloneProcesses();
  /** MCP connections for requests that name no thread. */
  readonly mcp: HostMcp;
  readonly maxRequestBytes: number;
  /** The server's version, in the user agent. */
  readonly version: string;
  readonly #methods: MethodTable;
  readonly #threads: ThreadHub | undefined;
  readonly #connections = new Set<AppServerConnection>();
  readonly #options: AppServerOptions;
  readonly #limits: { maxQueuedRequests: number; concurrentRequests: number; maxPendingServerRequests: number; maxOutboundBufferedBytes: number };
  readonly #now: () => number;
  readonly #userAgentHost: UserAgentHost;
  readonly #log: (line: string) => void;
  #nextConnectionId = 1;
  #nextServerRequestId = 0;
  /** The event loop's delay, for `server/diagnostics`. */
  readonly eventLoopDelay = new EventLoopDelay();
  /** Approvals and questions of loaded threads, pending until a subscriber answers. */
  readonly #threadRequests = new ThreadServerRequests(() => this.#nextServerRequestId++);

  constructor(options: AppServerOptions) {
    this.#options = options;
    this.#config = options.config;
    this.codexHome = options.config.config.homeDir;
    this.savedApiKey = options.savedApiKey ?? SavedApiKey.none(this.codexHome);
    this.fileSystem = options.fileSystem ?? new LocalFileSystem();
    this.skills = options.skills?.service;
    this.plugins = options.skills?.plugins;
    this.realtime = options.realtime ?? new RealtimeConversations();
    // A thread's `disabledPluginIds` hide its plugins' skills from its own turns.
    options.skills?.useThreadPlugins((threadId) => (this.#threads?.isLoaded(threadId) === true ? this.#threads.loaded(threadId).disabledPluginIds : []));
    // A skill folder changed (or the extra roots did): clients list skills again.
    options.skills?.service.onChange(() => this.broadcastToAll('skills/changed', {}));
    this.#methods = methodTable(options.methods);
    this.version = options.version ?? CODEX_VERSION;
    this.maxRequestBytes = positive('maxRequestBytes', options.maxRequestBytes ?? MAX_REQUEST_BYTES);
    this.#limits = {
      maxQueuedRequests: positive('maxQueuedRequests', options.maxQueuedRequests ?? MAX_QUEUED_REQUESTS),
      concurrentRequests: positive('concurrentRequests', options.concurrentRequests ?? DEFAULT_CONCURRENT_REQUESTS),
      maxPendingServerRequests: positive('maxPendingServerRequests', options.maxPendingServerRequests ?? MAX_PENDING_SERVER_REQUESTS),
      maxOutboundBufferedBytes: positive('maxOutboundBufferedBytes', options.maxOutboundBufferedBytes ?? MAX_OUTBOUND_BUFFERED_BYTES),
    };
    this.#now = options.now ?? Date.now;
    this.#userAgentHost = options.userAgentHost ?? localUserAgentHost(process.env);
    this.#log = options.log ?? (() => undefined);
    this.mcp = new HostMcp(() => this.#config.config, withoutExecApiKey(options.threads?.env ?? {}), (message) => this.#log(message));
    // Codex's app-server signs in from auth.json only: CODEX_API_KEY is `codex exec`'s (probed), so model requests do not see it.
    this.#threads =
      options.threads === undefined
        ? undefined
        : new ThreadHub({ ...options.threads, env: withoutExecApiKey(options.threads.env), savedApiKey: () => this.savedApiKey.get() }, this.#threadHost());
  }

  /** The config of the server's working directory: the startup load, reloaded after each config change. */
  get config(): LoadedConfig {
    return this.#config;
  }

  /**
   * Runs `change` (a config.toml write, a runtime feature switch) after every earlier one, then
   * reloads `config` so later reads see it; threads load config when they start, so they see it too.
   */
  changeConfig<T>(change: () => Promise<T> | T): Promise<T> {
    const run = this.#configChanges.then(async () => {
      const result = await change();
      this.#config = await this.loadConfig(this.#config.config.cwd);
      return result;
    });
    this.#configChanges = run.catch(() => undefined);
    return run;
  }

  /** The runtime feature states clients set, by feature name. */
  get featureEnablement(): ReadonlyMap<string, boolean> {
    return this.#featureEnablement;
  }

  /** Sets runtime feature states (applied by the next `changeConfig` reload and every later load). */
  setFeatureEnablement(entries: Readonly<Record<string, boolean>>): void {
    for (const [name, enabled] of Object.entries(entries)) this.#featureEnablement.set(name, enabled);
  }

  /** The loaded threads, and the store and environment behind them. */
  get threads(): ThreadHub {
    if (this.#threads === undefined) throw AppServerRequestError.invalidRequest('threads are not available in this server');
    return this.#threads;
  }

  /** The connected clients. */
  get connections(): readonly AppServerConnection[] {
    return [...this.#connections];
  }

  /**
   * A client's `cwd`, absolute: a relative one is taken from the server's working directory (where
   * the startup config was loaded), as Codex resolves `"."` and friends.
   */
  resolveCwd(cwd: string): string {
    return resolveThreadCwd(this.config.config.cwd, cwd);
  }

  /**
   * Config as a thread started in `cwd` would see it (same home, overrides and flags as at
   * startup), with a client's `-c` style `overrides` on top.
   */
  loadConfig(cwd: string, overrides: readonly string[] = []): Promise<LoadedConfig> {
    const base = this.#options.configLoad;
    const featureDefaults = this.#featureEnablement.size === 0 ? {} : { featureDefaults: Object.fromEntries(this.#featureEnablement) };
    return loadThreadConfig((at) => loadConfig({ env: {}, ...base, ...featureDefaults, homeDir: this.codexHome, cwd: at, overrides: [...(base?.overrides ?? []), ...overrides] }), cwd);
  }

  /** Sends a notification to every client subscribed to `threadId`; returns how many got it. */
  broadcast(threadId: string, method: string, params: unknown): number {
    return this.subscriptions.broadcast(threadId, method, params);
  }

  /** Sends `client` the thread's approvals and questions that still wait for an answer, under their ids. */
  replayThreadRequests(threadId: string, client: ClientConnection): void {
    if (client instanceof AppServerConnection && this.#connections.has(client)) this.#threadRequests.replay(threadId, client);
  }

  /** Sends a notification to every initialized client. */
  broadcastToAll(method: string, params: unknown): void {
    const shared = new SharedParams(params);
    for (const connection of this.#connections) connection.notify(method, params, shared);
  }

  connect(channel: MessageChannel): AppServerConnection {
    const connection = new AppServerConnection(channel, {
      id: this.#nextConnectionId++,
      methods: this.#methods,
      ...this.#limits,
      now: this.#now,
      nextServerRequestId: () => this.#nextServerRequestId++,
      routeAnswer: (client, id, answer) => this.#threadRequests.answer(client, id, answer),
      initializeResult: (params) => this.initializeResult(params),
      afterInitialize: (client) => this.sendStartupNotifications(client),
      context: (client, method, requestId) => this.context(client, method, requestId),
      log: this.#log,
    });
    this.#connections.add(connection);
    return connection;
  }

  disconnect(connection: AppServerConnection): Promise<void> {
    this.#connections.delete(connection);
    const held = this.subscriptions.removeSubscriber(connection);
    this.#threadRequests.forget(connection);
    for (const threadId of held) this.#threads?.releaseIfUnheld(threadId);
    connection.dispose();
    return Promise.resolve();
  }

  /** Disconnects every client and unloads every thread (their commands end). */
  async close(): Promise<void> {
    this.realtime.stopAll();
    await Promise.all([...this.#connections].map((connection) => this.disconnect(connection)));
    await this.standaloneProcesses.close();
    await Promise.all([this.#threads?.closeAll(), this.mcp.close()]);
    await this.#options.skills?.close();
    this.eventLoopDelay.stop();
  }

  #threadConnections(threadId: string): AppServerConnection[] {
    return this.subscriptions.subscribers(threadId).filter((subscriber): subscriber is AppServerConnection => subscriber instanceof AppServerConnection);
  }

  #threadHost(): ThreadHubServer {
    return {
      broadcast: (threadId, method, params) => void this.broadcast(threadId, method, params),
      subscribers: (threadId) => this.#threadConnections(threadId),
      ask: (threadId, method, params, options) => this.#threadRequests.ask(threadId, method, params, this.#threadConnections(threadId), options),
      subscribe: (threadId, connection) => this.subscriptions.subscribe(threadId, connection),
      unsubscribe: (threadId, connection) => this.subscriptions.unsubscribe(threadId, connection),
      broadcastToAll: (method, params) => this.broadcastToAll(method, params),
      userAgentOf: (connection) => userAgent(connection.initializeParams.clientInfo, this.version, this.#userAgentHost),
      installationId: this.#options.installationId,
      loadConfig: (cwd, overrides) => this.loadConfig(cwd, overrides),
      defaultCwd: this.config.config.cwd,
      now: () => this.#now(),
      newItemId: () => randomUUID(),
      threadUnloading: (threadId) => this.realtime.stop(threadId),
    };
  }

  private context(connection: AppServerConnection, method: string, requestId: RequestId): MethodContext {
    return { method, requestId, connection, server: this };
  }

  private initializeResult(params: InitializeParams): InitializeResponse {
    return {
      userAgent: userAgent(params.clientInfo, this.version, this.#userAgentHost),
      codexHome: this.codexHome,
      ...platformInfo(this.#options.platform ?? process.platform),
    };
  }

  private sendStartupNotifications(connection: AppServerConnection): void {
    for (const warning of this.config.warnings) {
      connection.notify('configWarning', { summary: warning.message, details: null, path: path.isAbsolute(warning.origin) ? warning.origin : null });
    }
    // A server that runs threads says once, as each client arrives, when its default sandbox cannot run here.
    if (this.#options.threads !== undefined) {
      const { config } = this.config;
      // Probed as the default environment's commands are: with its PATH, and only when it is this machine.
      const { environment } = this.#options.threads;
      const local = environment.id === undefined || environment.id === 'local';
      const pending = (this.#sandboxWarning ??= sandboxStartupWarning(local && config.sandboxMode !== 'danger-full-access', { env: environment.env, cwd: config.cwd }));
      void pending.then((warning) => {
        if (warning !== undefined) connection.notify('configWarning', { summary: warning, details: null, path: null });
      });
    }
    if (this.#options.installationId !== undefined) {
      connection.notify('remoteControl/status/changed', {
        status: 'disabled',
        serverName: this.#options.serverName ?? os.hostname(),
        installationId: this.#options.installationId,
        environmentId: null,
      });
    }
  }
}
