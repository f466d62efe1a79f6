// The environments this app-server can run threads on: its own machine (`local`) and the remote
// exec-servers clients add at run time, each with a connection and a status.
import path from 'node:path';
import { remoteThreadEnvironment, type ThreadEnvironment } from '@skein/core';
import { connectExecServer, ExecServerClientError, type EnvironmentInfo, type RemoteExecutor } from '@skein/exec-server';
import { AppServerErrorCode, PathUri } from '@skein/protocol';
import * as z from 'zod';
import { AppServerRequestError } from '../app-server-error.js';

/** How long `environment/add` waits for the WebSocket and the `initialize` answer unless told otherwise. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/** The longest connect timeout a client may ask for; a longer wait would hold the request open for minutes. */
export const MAX_CONNECT_TIMEOUT_MS = 120_000;
/** The id of this server's own machine; clients cannot add one by that name. */
export const LOCAL_ENVIRONMENT_ID = 'local';

/** `environment/add`'s params as far as Skein uses them (skills and request ids are accepted, not used yet). */
export const EnvironmentAddParams = z.object({
  environmentId: z.string(),
  execServerUrl: z.string(),
  authBearerToken: z.string().nullish(),
  connectTimeoutMs: z.number().int().nonnegative().nullish(),
});
export type EnvironmentAddParams = z.infer<typeof EnvironmentAddParams>;

/** Why an environment request failed; sent as the JSON-RPC error's `data.reason`. */
export type EnvironmentErrorReason = 'unknownEnvironment' | 'invalidId' | 'reservedId' | 'busy' | 'invalidUrl' | 'insecureToken' | 'unauthorized' | 'unreachable' | 'timeout' | 'disconnected';

/** A JSON-RPC error naming the environment, with `data: { environmentId, reason }` clients can switch on. */
export function environmentError(environmentId: string, reason: EnvironmentErrorReason, message: string): AppServerRequestError {
  const code = reason === 'unreachable' || reason === 'timeout' || reason === 'disconnected' ? AppServerErrorCode.InternalError : AppServerErrorCode.InvalidRequest;
  return new AppServerRequestError(code, message, { environmentId, reason });
}

/** `environment/status`'s answer. */
export type EnvironmentStatus = { readonly status: 'ready' } | { readonly status: 'disconnected' | 'unknown'; readonly error: string };

/** The local machine's facts, as `environment/info` reports them. */
export interface LocalEnvironmentFacts {
  readonly environment: ThreadEnvironment;
  /** Where threads start by default, a native path. */
  readonly cwd: string;
}

interface RemoteEnvironment {
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
async function connectWithin(environmentId: string, url: string, token: string | undefined, timeoutMs: number): Promise<RemoteExecutor> {
  // The handshake timeout drops a socket an executor never answers, so no connection outlives the request.
  const attempt = connectExecServer({ url, token, handshakeTimeoutMs: timeoutMs });
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
    const detail = error instanceof Error ? error.message : String(error);
    throw environmentError(environmentId, 'unreachable', `environment \`${environmentId}\`: could not connect to ${url}: ${detail}`);
  } finally {
    clearTimeout(timer);
  }
}

/** The server's environments by id. Owns the remote connections and closes them. */
export class EnvironmentManager {
  readonly #remotes = new Map<string, RemoteEnvironment>();
  /** Ids being added, so two concurrent adds of one id cannot both win. */
  readonly #adding = new Set<string>();
  readonly #disconnectListeners: ((environmentId: string) => void)[] = [];

  constructor(private readonly local: LocalEnvironmentFacts) {}

  /** Calls `listener` when a registered executor's connection closes (not when a re-add replaced it). */
  onDisconnected(listener: (environmentId: string) => void): void {
    this.#disconnectListeners.push(listener);
  }

  /**
   * Connects to the exec-server and registers it as `environmentId`, replacing (and closing) an
   * earlier one of that id only once the new one answered; any failure leaves the table as it was.
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
      const info = executor.client.environment;
      if (info === undefined) {
        await executor.close();
        throw environmentError(id, 'unreachable', `environment \`${id}\`: the exec-server at ${url} did not describe itself`);
      }
      const previous = this.#remotes.get(id);
      const remote: RemoteEnvironment = { url, executor, info, environment: remoteThreadEnvironment(id, executor, info) };
      this.#remotes.set(id, remote);
      executor.client.onClosed(() => {
        if (this.#remotes.get(id) !== remote) return;
        for (const listener of this.#disconnectListeners) listener(id);
      });
      await previous?.executor.close();
    } finally {
      this.#adding.delete(id);
    }
  }

  /** `environment/status`: observed without connecting or reconnecting. */
  status(environmentId: string): EnvironmentStatus {
    if (environmentId === LOCAL_ENVIRONMENT_ID) return { status: 'ready' };
    const remote = this.#remotes.get(environmentId);
    if (remote === undefined) return { status: 'unknown', error: `unknown environment id \`${environmentId}\`` };
    if (remote.executor.client.closed) return { status: 'disconnected', error: `the connection to the exec-server at ${remote.url} closed` };
    return { status: 'ready' };
  }

  /** `environment/info`: the environment's shell and default cwd (a `file://` URI). */
  info(environmentId: string): { readonly shell: { readonly name: string; readonly path: string }; readonly cwd: string | null } {
    if (environmentId === LOCAL_ENVIRONMENT_ID) {
      const shell = this.local.environment.shell;
      return { shell: { name: path.basename(shell), path: shell }, cwd: PathUri.fromNativePath(this.local.cwd, process.platform === 'win32' ? 'windows' : 'posix').toString() };
    }
    const { info } = this.#ready(environmentId);
    return { shell: info.shell, cwd: info.cwd ?? null };
  }

  /** The environment a thread may act on, or the error naming why it cannot. */
  resolve(environmentId: string): ThreadEnvironment {
    if (environmentId === LOCAL_ENVIRONMENT_ID) return this.local.environment;
    return this.#ready(environmentId).environment;
  }

  /** True when `environmentId` names an environment of this server, connected or not. */
  has(environmentId: string): boolean {
    return environmentId === LOCAL_ENVIRONMENT_ID || this.#remotes.has(environmentId);
  }

  #ready(environmentId: string): RemoteEnvironment {
    const remote = this.#remotes.get(environmentId);
    if (remote === undefined) throw environmentError(environmentId, 'unknownEnvironment', `unknown environment id \`${environmentId}\``);
    if (remote.executor.client.closed) throw environmentError(environmentId, 'disconnected', `environment \`${environmentId}\`: the connection to the exec-server at ${remote.url} closed`);
    return remote;
  }

  /** Closes every remote connection (server shutdown). */
  async closeAll(): Promise<void> {
    const remotes = [...this.#remotes.values()];
    this.#remotes.clear();
    await Promise.all(remotes.map((remote) => remote.executor.close()));
  }
}
