// The environments this app-server can run threads on: its own machine (`local`), the executors
// `$CODEX_HOME/environments.toml` configures, and the remote exec-servers clients add at run time,
// each with a connection and a status.
import path from 'node:path';
import { defaultEnvironmentIds, type ConfiguredEnvironment, type EnvironmentsConfig } from '@skein/config';
import { remoteThreadEnvironment, type SelectedEnvironment, type StartingEnvironment, type ThreadEnvironment } from '@skein/core';
import { connectExecServer, ExecServerClientError, spawnExecServer, type EnvironmentInfo, type RemoteExecutor } from '@skein/exec-server';
import { AppServerErrorCode, lazySchema, PathUri } from '@skein/protocol';
import * as z from 'zod';
import { AppServerRequestError } from '../app-server-error.js';
import { EnvironmentLink } from './environment-link.js';

/** How long `environment/add` waits for the WebSocket and the `initialize` answer unless told otherwise. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/** The longest connect timeout a client may ask for; a longer wait would hold the request open for minutes. */
export const MAX_CONNECT_TIMEOUT_MS = 120_000;
/** The id of this server's own machine; clients cannot add one by that name. */
export const LOCAL_ENVIRONMENT_ID = 'local';

/** `environment/add`'s params as far as Skein uses them (skills and request ids are accepted, not used yet). */
export const EnvironmentAddParams = lazySchema(() => z.object({
  environmentId: z.string(),
  execServerUrl: z.string(),
  authBearerToken: z.string().nullish(),
  connectTimeoutMs: z.number().int().nonnegative().nullish(),
}));
export type EnvironmentAddParams = z.infer<typeof EnvironmentAddParams>;

/** Why an environment request failed; sent as the JSON-RPC error's `data.reason`. */
export type EnvironmentErrorReason = 'unknownEnvironment' | 'invalidId' | 'reservedId' | 'busy' | 'invalidUrl' | 'insecureToken' | 'unauthorized' | 'unreachable' | 'timeout' | 'disconnected';

/** A JSON-RPC error naming the environment, with `data: { environmentId, reason }` clients can switch on. */
export function environmentError(environmentId: string, reason: EnvironmentErrorReason, message: string): AppServerRequestError {
  const code = reason === 'unreachable' || reason === 'timeout' || reason === 'disconnected' ? AppServerErrorCode.InternalError : AppServerErrorCode.InvalidRequest;
  return new AppServerRequestError(code, message, { environmentId, reason });
}

/** Why `environmentId` failed, without the `environment \`<id>\`: ` its errors start with (said already where it is reported). */
export function reasonOf(environmentId: string, error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(`environment \`${environmentId}\`: `, '');
}

/** `environment/status`'s answer: `pending` while a connection attempt is under way. */
export type EnvironmentStatus = { readonly status: 'ready' | 'pending' } | { readonly status: 'disconnected' | 'unknown'; readonly error: string };

/** The local machine's facts, as `environment/info` reports them. */
export interface LocalEnvironmentFacts {
  readonly environment: ThreadEnvironment;
  /** Where threads start by default, a native path. */
  readonly cwd: string;
}

interface RemoteEnvironment {
  /** Where it is: its URL, or the command a stdio exec-server was started with. */
  readonly url: string;
  readonly executor: RemoteExecutor;
  readonly info: EnvironmentInfo;
  readonly environment: ThreadEnvironment;
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/** Parses `url` as an exec-server WebSocket address, or throws the error naming `environmentId`. */
function execServerUrl(environmentId: string, url: string, withToken: boolean): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw environmentError(environmentId, 'invalidUrl', `environment \`${environmentId}\`: \`${url}\` is not a URL`);
  }
  if (parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:') {
    throw environmentError(environmentId, 'invalidUrl', `environment \`${environmentId}\`: \`${url}\` is not a ws:// or wss:// URL`);
  }
  // A bearer token sent in clear text to another machine could be read on the way.
  if (withToken && parsed.protocol === 'ws:' && !isLoopback(parsed.hostname)) {
    throw environmentError(environmentId, 'insecureToken', `environment \`${environmentId}\`: a bearer token needs wss:// or a loopback address`);
  }
  return parsed;
}

/** Connects within `timeoutMs`; a connection that comes after the deadline is closed at once. */
function connectWithin(environmentId: string, url: string, token: string | undefined, timeoutMs: number): Promise<RemoteExecutor> {
  // The handshake timeout drops a socket an executor never answers, so no connection outlives the request.
  return settleWithin(environmentId, url, connectExecServer({ url, token, handshakeTimeoutMs: timeoutMs }), timeoutMs);
}

/** `attempt` within `timeoutMs`, its failure as the error naming the environment; a late connection is closed. */
async function settleWithin(environmentId: string, url: string, attempt: Promise<RemoteExecutor>, timeoutMs: number): Promise<RemoteExecutor> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(environmentError(environmentId, 'timeout', `environment \`${environmentId}\`: no answer from ${url} within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([attempt, deadline]);
  } catch (error) {
    attempt.then((late) => late.close(), () => undefined).catch(() => undefined);
    if (error instanceof AppServerRequestError) throw error;
    if (error instanceof ExecServerClientError && error.code === 'Unauthorized') {
      throw environmentError(environmentId, 'unauthorized', `environment \`${environmentId}\`: the exec-server at ${url} refused the bearer token`);
    }
    // A refused connection says where it tried already ("cannot connect to <url>: …").
    const message = error instanceof Error ? error.message : String(error);
    const detail = message.startsWith(`cannot connect to ${url}: `) ? message : `could not connect to ${url}: ${message}`;
    throw environmentError(environmentId, 'unreachable', `environment \`${environmentId}\`: ${detail}`);
  } finally {
    clearTimeout(timer);
  }
}

/** An executor environments.toml names: connected when first needed (or at start-up), again after it went away. */
interface ConfiguredExecutor {
  readonly spec: ConfiguredEnvironment;
  /** The connection attempt under way. */
  attempt: Promise<void> | undefined;
  /** Why the last attempt failed. */
  error: string | undefined;
}

/** What `status` says of a configured executor that could not be reached (Codex's prefix). */
const CONNECT_FAILED = 'exec-server connection attempt failed: ';

/** The server's environments by id. Owns the remote connections and closes them. */
export class EnvironmentManager {
  readonly #remotes = new Map<string, RemoteEnvironment>();
  /** Ids being added, so two concurrent adds of one id cannot both win. */
  readonly #adding = new Set<string>();
  readonly #disconnectListeners: ((environmentId: string) => void)[] = [];
  readonly #connectListeners: ((environmentId: string) => void)[] = [];
  /** What threads hold of each remote id ever registered: routes to its current connection. */
  readonly #links = new Map<string, EnvironmentLink>();
  readonly #configured = new Map<string, ConfiguredExecutor>();
  /** What a thread started without `environments` attaches, the primary first. */
  #defaultIds: readonly string[] = [LOCAL_ENVIRONMENT_ID];
  /** The variables a `program` executor starts with (the server's own), under its `env`. */
  #spawnEnv: Readonly<Record<string, string | undefined>> = {};
  /** False with environments.toml's `include_local = false`: then this machine is no environment of the server. */
  #includeLocal = true;
  #closed = false;

  constructor(private readonly local: LocalEnvironmentFacts) {}

  /** Calls `listener` when a registered executor's connection closes (not when a re-add replaced it). */
  onDisconnected(listener: (environmentId: string) => void): void {
    this.#disconnectListeners.push(listener);
  }

  /**
   * Calls `listener` when an id is connected again after its connection closed (re-added, or a
   * configured executor reconnected); not for the first connection, nor for a re-add that
   * replaced an open one.
   */
  onConnected(listener: (environmentId: string) => void): void {
    this.#connectListeners.push(listener);
  }

  /**
   * Registers the executors of environments.toml and starts connecting to each in the background; one
   * that cannot be reached is reported by `environment/status` and skipped by threads, and does not
   * stop the server. `env` is what a `program` executor inherits.
   */
  configure(config: EnvironmentsConfig, env: Readonly<Record<string, string | undefined>>): void {
    this.#spawnEnv = env;
    this.#defaultIds = defaultEnvironmentIds(config);
    this.#includeLocal = config.includeLocal;
    for (const spec of config.environments) this.#configured.set(spec.id, { spec, attempt: undefined, error: undefined });
    for (const id of this.#configured.keys()) void this.#connectConfigured(id);
  }

  /**
   * Connects to the exec-server and registers it as `environmentId`, replacing (and closing) an
   * earlier one of that id only once the new one answered; any failure leaves the table as it was.
   * A configured executor of that id is replaced for good.
   */
  async add(params: EnvironmentAddParams): Promise<void> {
    const id = params.environmentId;
    if (id === '') throw environmentError(id, 'invalidId', 'environmentId must not be empty');
    if (id === LOCAL_ENVIRONMENT_ID) throw environmentError(id, 'reservedId', `environment id \`${LOCAL_ENVIRONMENT_ID}\` names this server's own machine and cannot be added`);
    const token = params.authBearerToken ?? undefined;
    const url = execServerUrl(id, params.execServerUrl, token !== undefined).toString();
    if (this.#adding.has(id)) throw environmentError(id, 'busy', `environment \`${id}\` is already being added`);
    this.#adding.add(id);
    try {
      const timeoutMs = Math.min(params.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, MAX_CONNECT_TIMEOUT_MS);
      const executor = await connectWithin(id, url, token, timeoutMs);
      // From now on the client's executor is the one of that id (an executor that did not describe itself is refused below).
      if (executor.client.environment !== undefined) this.#configured.delete(id);
      await this.#register(id, url, executor);
    } finally {
      this.#adding.delete(id);
    }
  }

  /**
   * `environment/status`: observed without connecting or reconnecting for an executor a client
   * added; a configured one that is not connected is tried first (as Codex connects lazily). An id
   * whose connection attempt is under way (an `environment/add`, or a configured executor's
   * start-up or retry begun elsewhere) is `pending` until it settles.
   */
  async status(environmentId: string): Promise<EnvironmentStatus> {
    if (this.#isLocal(environmentId)) return { status: 'ready' };
    const remote = this.#remotes.get(environmentId);
    const connected = remote !== undefined && !remote.executor.client.closed;
    if (!connected && this.#adding.has(environmentId)) return { status: 'pending' };
    const configured = this.#configured.get(environmentId);
    if (configured !== undefined && !connected) {
      if (configured.attempt !== undefined) return { status: 'pending' };
      await this.#connectConfigured(environmentId);
      if (configured.error !== undefined) return { status: 'disconnected', error: configured.error };
    }
    return this.#observed(environmentId);
  }

  /** The status of an id as the table has it now, without connecting. */
  #observed(environmentId: string): EnvironmentStatus {
    const remote = this.#remotes.get(environmentId);
    if (remote === undefined) return { status: 'unknown', error: `unknown environment id \`${environmentId}\`` };
    if (remote.executor.client.closed) return { status: 'disconnected', error: `the connection to the exec-server at ${remote.url} closed` };
    return { status: 'ready' };
  }

  /** `environment/info`: the environment's shell and default cwd (a `file://` URI). */
  async info(environmentId: string): Promise<{ readonly shell: { readonly name: string; readonly path: string }; readonly cwd: string | null }> {
    if (this.#isLocal(environmentId)) {
      const shell = this.local.environment.shell;
      return { shell: { name: path.basename(shell), path: shell }, cwd: PathUri.fromNativePath(this.local.cwd, process.platform === 'win32' ? 'windows' : 'posix').toString() };
    }
    if (this.#configured.has(environmentId)) await this.#connectConfigured(environmentId);
    const { info } = this.#ready(environmentId);
    return { shell: info.shell, cwd: info.cwd ?? null };
  }

  /**
   * A configured executor not connected yet, as a thread selects it: `ready` settles once the
   * connection attempt under way (or one started now) does, rejecting with why it failed.
   * Undefined for any other id.
   */
  starting(environmentId: string, cwd: string): StartingEnvironment | undefined {
    const configured = this.#configured.get(environmentId);
    if (configured === undefined || this.#isLocal(environmentId) || this.#closed) return undefined;
    const remote = this.#remotes.get(environmentId);
    if (remote !== undefined && !remote.executor.client.closed) return undefined;
    const ready = this.#connectConfigured(environmentId).then(() => {
      if (configured.error !== undefined) throw new Error(configured.error);
      return this.resolve(environmentId);
    });
    // A thread that drops the selection before it settles must not leave the rejection unhandled.
    ready.catch(() => undefined);
    return { id: environmentId, cwd, ready };
  }

  /** The environment a thread may act on, or the error naming why it cannot. */
  resolve(environmentId: string): ThreadEnvironment {
    if (this.#isLocal(environmentId)) return this.local.environment;
    return this.#ready(environmentId).environment;
  }

  /**
   * What a thread started without `environments` attaches, the primary first: every configured
   * environment (this machine first unless the default is another or `include_local = false`), each
   * working in `cwd`. A configured executor still connecting is selected as starting (see
   * `settleSelection`); one that could not be reached is left out and named in `skipped`.
   */
  defaults(cwd: string): { readonly environments: readonly SelectedEnvironment[]; readonly skipped: readonly string[] } {
    const environments: SelectedEnvironment[] = [];
    const skipped: string[] = [];
    for (const id of this.#defaultIds) {
      const starting = this.starting(id, cwd);
      if (starting !== undefined) {
        environments.push(starting);
        continue;
      }
      try {
        environments.push({ ...this.resolve(id), cwd });
      } catch (error) {
        skipped.push(`environment \`${id}\` was skipped: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return { environments, skipped };
  }

  /** True when `environmentId` names an environment of this server, connected or not. */
  has(environmentId: string): boolean {
    return this.#isLocal(environmentId) || this.#remotes.has(environmentId) || this.#configured.has(environmentId);
  }

  /** True for `local` while this machine is one of the server's environments. */
  #isLocal(environmentId: string): boolean {
    return environmentId === LOCAL_ENVIRONMENT_ID && this.#includeLocal;
  }

  #ready(environmentId: string): RemoteEnvironment {
    const remote = this.#remotes.get(environmentId);
    const configured = this.#configured.get(environmentId);
    if (remote === undefined && configured !== undefined) {
      const why = configured.error ?? (configured.attempt === undefined ? 'not connected' : 'still connecting');
      throw environmentError(environmentId, 'disconnected', `environment \`${environmentId}\`: ${why}`);
    }
    if (remote === undefined) throw environmentError(environmentId, 'unknownEnvironment', `unknown environment id \`${environmentId}\``);
    if (remote.executor.client.closed) throw environmentError(environmentId, 'disconnected', `environment \`${environmentId}\`: the connection to the exec-server at ${remote.url} closed`);
    return remote;
  }

  /**
   * Registers a connected executor as `id`, closing the one it replaces. Threads holding the id's
   * environment act on the new connection from their next call; when the previous connection had
   * closed, they are told the environment is connected again.
   */
  async #register(id: string, url: string, executor: RemoteExecutor): Promise<void> {
    const info = executor.client.environment;
    if (info === undefined) {
      await executor.close();
      throw environmentError(id, 'unreachable', `environment \`${id}\`: the exec-server at ${url} did not describe itself`);
    }
    const previous = this.#remotes.get(id);
    let link = this.#links.get(id);
    if (link === undefined) {
      link = new EnvironmentLink(id, () => this.#connectConfigured(id));
      this.#links.set(id, link);
    }
    link.attach(executor, url);
    const remote: RemoteEnvironment = { url, executor, info, environment: remoteThreadEnvironment(id, link, info) };
    this.#remotes.set(id, remote);
    executor.client.onClosed(() => {
      if (this.#remotes.get(id) !== remote) return;
      for (const listener of this.#disconnectListeners) listener(id);
    });
    const reconnected = previous !== undefined && previous.executor.client.closed;
    await previous?.executor.close();
    if (reconnected && !executor.client.closed) for (const listener of this.#connectListeners) listener(id);
  }

  /**
   * Connects the configured executor `id` unless it is connected: joins the attempt under way, or
   * starts one. Never rejects; a failure is kept as the executor's `error`.
   */
  #connectConfigured(id: string): Promise<void> {
    const configured = this.#configured.get(id);
    if (configured === undefined || this.#closed) return Promise.resolve();
    const remote = this.#remotes.get(id);
    if (remote !== undefined && !remote.executor.client.closed) return Promise.resolve();
    configured.attempt ??= this.#connect(configured).then(
      () => {
        configured.error = undefined;
      },
      (error: unknown) => {
        // The status is the environment's already: its id need not be repeated.
        const message = reasonOf(id, error);
        configured.error = `${CONNECT_FAILED}${message}`;
      },
    ).finally(() => {
      configured.attempt = undefined;
    });
    return configured.attempt;
  }

  async #connect(configured: ConfiguredExecutor): Promise<void> {
    const { spec } = configured;
    const timeoutMs = Math.min((spec.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS) + (spec.initializeTimeoutMs ?? 0), MAX_CONNECT_TIMEOUT_MS);
    let address: string;
    let executor: RemoteExecutor;
    if (spec.transport.type === 'websocket') {
      const { authBearerToken } = spec.transport;
      address = execServerUrl(spec.id, spec.transport.url, authBearerToken !== undefined).toString();
      executor = await connectWithin(spec.id, address, authBearerToken, timeoutMs);
    } else {
      const { program, args, env, cwd } = spec.transport;
      address = [program, ...args].join(' ');
      executor = await settleWithin(spec.id, `\`${address}\``, spawnExecServer({ command: [program, ...args], cwd, env: { ...this.#spawnEnv, ...env } }), timeoutMs);
    }
    // Shut down, or replaced by `environment/add`, while connecting.
    if (this.#closed || this.#configured.get(spec.id) !== configured) {
      await executor.close();
      return;
    }
    await this.#register(spec.id, address, executor);
  }

  /**
   * Closes every remote connection (server shutdown). Connection attempts under way are not waited
   * for: one that succeeds later closes its connection at once.
   */
  async closeAll(): Promise<void> {
    this.#closed = true;
    const remotes = [...this.#remotes.values()];
    this.#remotes.clear();
    await Promise.all(remotes.map((remote) => remote.executor.close()));
  }
}
