// What the thread hub is made with: the host's options and what it needs from the server.
import type { Config, EnvironmentsConfig, LoadedConfig } from '@skein/config';
import type { ThreadEnvironment } from '@skein/core';
import type { ContextFragmentDefinition } from '@skein/extension-api';
import type { ThreadStore } from '@skein/rollout';
import type { ThreadExtensions } from '../extensions/host-extensions.js';
import type { ClientConnection } from '../method.js';
import type { ThreadHost } from './live-thread.js';

/** What the hub needs besides the server. */
export interface ThreadHubOptions {
  /**
   * Opens the rollout store. Called on the first thread request, not at start-up: opening reconciles
   * the index with every rollout file, which a client that only reads config should not wait for.
   */
  openStore(): Promise<ThreadStore>;
  /** Where threads' commands and edits run (this machine, sandboxed). */
  readonly environment: ThreadEnvironment;
  /** `$CODEX_HOME/environments.toml`, when there is one: the executors registered at start. */
  readonly environmentsConfig?: EnvironmentsConfig | undefined;
  /** The extensions of a thread with this config; problems not reported yet go to the client as `configWarning`. */
  extensions(config: Config): Promise<ThreadExtensions>;
  /** The fragments stored threads are read with, to tell context from user turns (the startup extensions' and the built-ins). */
  readonly contextFragments: readonly ContextFragmentDefinition[];
  /** `--dangerously-bypass-hook-trust`: run configured lifecycle hooks nobody trusted. */
  readonly bypassHookTrust?: boolean | undefined;
  /** The environment for provider credentials. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The API key saved in auth.json, asked at each request, for OpenAI's provider when `env` names none. */
  readonly savedApiKey?: (() => string | undefined) | undefined;
  readonly host: { readonly shell: string; readonly timezone: string };
  readonly cliVersion: string;
  /** Releases what these options hold (the environment's processes) once every thread is unloaded. */
  readonly release?: (() => Promise<void> | void) | undefined;
}

/** What the hub needs from the server. */
export interface ThreadHubServer extends ThreadHost {
  /** Config for a thread in `cwd` with extra `-c` style overrides on top of the server's own. */
  loadConfig(cwd: string, overrides: readonly string[]): Promise<LoadedConfig>;
  /** The server's working directory: where threads start when the client names no cwd, and what a relative one is relative to. */
  readonly defaultCwd: string;
  subscribe(threadId: string, connection: ClientConnection): boolean;
  unsubscribe(threadId: string, connection: ClientConnection): boolean;
  /** Sends a notification to every connected client. */
  broadcastToAll(method: string, params: unknown): void;
  /** The `user-agent` a client's threads send the model (the one its initialize response reported). */
  userAgentOf(connection: ClientConnection): string;
  /** The machine's installation id, sent with every model request. */
  readonly installationId: string | undefined;
  /** Called as a thread starts to unload, before its turn is interrupted (its realtime conversation ends). */
  threadUnloading?(threadId: string): void;
}
