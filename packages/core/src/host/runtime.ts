// The host API's entry: a runtime is one home directory's threads in this process — the store,
// the settings, the extensions, where commands run — and the threads it opened. It is the
// embedding twin of `skein app-server`: the same ThreadManager underneath, no transport on top.
import { homedir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig, readSavedApiKey, resolveHomeDir, type Config } from '@skein/config';
import { connectExecServer } from '@skein/exec-server';
import { ExtensionRegistryError, type Extension } from '@skein/extension-api';
import { CODEX_VERSION, ThreadId } from '@skein/protocol';
import { RolloutError, FileThreadStore, type ThreadStore, type ThreadListQuery, type ThreadPage } from '@skein/rollout';
import { loadExtensions, type ExtensionSource } from '../extensions/load-extensions.js';
import { readInstallationId } from '../installation-id.js';
import { userAgent, localUserAgentHost } from '../model-client/user-agent.js';
import { localHostFacts, localThreadEnvironment } from '../session/local-environment.js';
import { remoteThreadEnvironment } from '../session/remote-environment.js';
import type { ClientRequests } from '../session/client-requests.js';
import type { ThreadEnvironment } from '../session/thread-environment.js';
import type { ThreadHandle } from '../thread-handle.js';
import { ThreadManager, ThreadManagerError } from '../thread-manager.js';
import type { CoreEvent } from '../turn/core-event.js';
import { settingsOverrides, type SettingsTable } from './config-overrides.js';
import { HostError } from './host-error.js';
import { HostThreadImpl, type HostThread } from './host-thread.js';
import type { TurnEvent } from './turn-event.js';

/** The host API's version; a breaking change to anything `@skein/core/host` exports bumps its major. */
export const HOST_API_VERSION = '1.1.0';

/** Where a runtime's threads run their commands and edits. */
export type EnvironmentChoice =
  /** This machine, confined by each thread's sandbox settings (the default). */
  | 'local'
  /** Nowhere: the model is offered no tools that touch files or run commands. */
  | 'none'
  /** A Skein or Codex exec-server (`ws://` or `wss://`), connected once for the runtime. */
  | { readonly execServerUrl: string };

/** Options of {@link createRuntime}. */
export interface RuntimeOptions {
  /** The home directory (threads, config.toml, auth.json); default `$SKEIN_HOME`, else `$CODEX_HOME`, else `~/.codex`, as the CLI's. */
  readonly home?: string;
  /** Where threads work unless they say otherwise; default `process.cwd()`. */
  readonly cwd?: string;
  /** The environment providers read their keys from and commands inherit; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Settings above config.toml for every thread, as config.toml holds them (model, providers, sandbox…). */
  readonly settings?: SettingsTable;
  /** Extensions for every thread: objects made with `defineExtension`, or package names and paths (resolved from `cwd`). */
  readonly extensions?: readonly (Extension | string)[];
  /** Where commands and edits run; default `'local'`. */
  readonly environment?: EnvironmentChoice;
  /** A store the host opened itself (it stays open after `close`): a `PostgresThreadStore` shared with other hosts, say. Default: the files at `home`. */
  readonly store?: ThreadStore;
  /** Names this host in model requests and rollouts; default `skein_host`. */
  readonly originator?: string;
  /** Told what the runtime could not honour but ran without: config and extension warnings. */
  readonly onWarning?: (message: string) => void;
}

/** How a thread's approvals and questions reach the host's user; every callback may be aborted with its turn. */
export type ThreadHandlers = Partial<ClientRequests>;

/** Options of {@link SkeinRuntime.startThread}, and of resume and fork. */
export interface ThreadOptions {
  /** The thread's working directory; default the runtime's. */
  readonly cwd?: string;
  /** Settings for this thread above the runtime's (`{ model: 'gpt-5.5' }`). */
  readonly settings?: SettingsTable;
  /**
   * Answers approval requests and the model's questions. Without handlers no one is asked: requests
   * are declined, as the approval policy says for a session nobody watches.
   */
  readonly handlers?: ThreadHandlers;
  /** Receives the thread's events that belong to no turn (a background command still printing). */
  readonly onOtherEvent?: (event: TurnEvent) => void;
}

/** Options of {@link SkeinRuntime.startThread}. */
export interface StartOptions extends ThreadOptions {
  /** Persist nothing: no rollout file, so the thread cannot be resumed. */
  readonly ephemeral?: boolean;
}

/** Options of {@link SkeinRuntime.forkThread}: which turns the copy keeps (all by default). */
export interface ForkOptions extends ThreadOptions {
  /** Keep the turns up to and including this one. */
  readonly lastTurnId?: string;
}

/** One home directory's threads, in this process. */
export interface SkeinRuntime {
  /** Starts a new thread. */
  startThread(options?: StartOptions): Promise<HostThread>;
  /** Loads a stored thread and continues it; throws `AlreadyOpen` when it is open here. */
  resumeThread(threadId: string, options?: ThreadOptions): Promise<HostThread>;
  /** Copies a stored thread (all of it, or up to a turn) into a new one and opens the copy. */
  forkThread(threadId: string, options?: ForkOptions): Promise<HostThread>;
  /** Stored threads, newest first, a page at a time. */
  listThreads(query?: ThreadListQuery): Promise<ThreadPage>;
  /** The threads open in this runtime. */
  loadedThreads(): readonly HostThread[];
  /** Closes every open thread, the environment and the store the runtime opened. */
  close(): Promise<void>;
}

/** Opens a runtime: reads the settings, loads the extensions, opens the store, connects the environment. */
export async function createRuntime(options: RuntimeOptions = {}): Promise<SkeinRuntime> {
  // The host API is where a process's own environment enters: a host that passes none means its own.
  // eslint-disable-next-line no-restricted-properties -- see above
  const env = options.env ?? process.env;
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const home = options.home ?? homeFrom(env);
  const warn = options.onWarning ?? (() => undefined);
  const runtimeOverrides = settingsOverrides(options.settings);
  const loadSettings = async (thread: ThreadOptions): Promise<Config> => {
    const overrides = [...runtimeOverrides, ...settingsOverrides(thread.settings)];
    try {
      const { config, warnings } = await loadConfig({ cwd: path.resolve(cwd, thread.cwd ?? '.'), env, homeDir: home, overrides });
      for (const warning of warnings) warn(warning.message);
      return config;
    } catch (error) {
      // A value config refuses (`sandbox_mode: 'bogus'`), in the settings or in a config.toml.
      throw asSettingsError(error);
    }
  };
  const config = await loadSettings({});
  const runtimeSpecs = new Set(config.extensions.map(specKey));
  const configFor = async (thread: ThreadOptions): Promise<Config> => {
    const threadConfig = await loadSettings(thread);
    // Extensions load once, for the runtime: a thread's own folder or settings cannot add one.
    for (const source of threadConfig.extensions) {
      if (!runtimeSpecs.has(specKey(source))) warn(`extension '${source.spec}' (from ${source.origin}) is not loaded: a runtime loads its extensions once, from its own settings and cwd`);
    }
    return threadConfig;
  };
  const ownSources: ExtensionSource[] = specsOf(options.extensions).map((spec) => ({ spec, baseDir: cwd, origin: "createRuntime's extensions" }));
  const extensions = await loadExtensions([...config.extensions, ...ownSources], { builtIn: objectsOf(options.extensions) }).catch((error: unknown) => {
    if (error instanceof ExtensionRegistryError) throw new HostError('InvalidExtension', error.message, { cause: error });
    throw error;
  });
  for (const problem of extensions.problems) warn(problem.message);
  const environment = await environmentFor(options.environment ?? 'local', cwd, env);
  const store = options.store ?? (await FileThreadStore.open({ home, contextFragments: extensions.registry.contextFragments }).catch(async (error: unknown) => {
    await environment?.close();
    throw error;
  }));
  const originator = options.originator ?? 'skein_host';
  const savedApiKey = await readSavedApiKey(home).catch((error: unknown) => {
    warn(`auth.json: ${(error as Error).message}`);
    return undefined;
  });
  const manager = new ThreadManager({
    store,
    config,
    extensions: extensions.registry,
    env,
    savedApiKey: () => savedApiKey,
    host: localHostFacts(env),
    originator,
    userAgent: userAgent({ name: originator, version: CODEX_VERSION }, CODEX_VERSION, localUserAgentHost(env)),
    source: 'exec',
    cliVersion: CODEX_VERSION,
    installationId: await readInstallationId(home),
    ...(environment === undefined ? {} : { environment: environment.thread }),
  });
  return new Runtime(manager, configFor, options.store === undefined ? store : undefined, environment);
}

/** The CLI's home for `env`; a relative `SKEIN_HOME` or `CODEX_HOME` is a settings error. */
function homeFrom(env: Readonly<Record<string, string | undefined>>): string {
  try {
    return resolveHomeDir(env, homedir());
  } catch (error) {
    throw asSettingsError(error);
  }
}

/** Config's refusals as the host API's `InvalidSettings` (the ConfigError kept as cause); anything else unchanged. */
function asSettingsError(error: unknown): unknown {
  return error instanceof ConfigError ? new HostError('InvalidSettings', error.message, { cause: error }) : error;
}

/** A config-named extension by who named it and how: a file's path, or `-c` (whose base is the thread's cwd). */
const specKey = (source: ExtensionSource): string => `${source.origin}\0${source.spec}`;
const specsOf = (extensions: RuntimeOptions['extensions']): string[] => (extensions ?? []).filter((entry): entry is string => typeof entry === 'string');
const objectsOf = (extensions: RuntimeOptions['extensions']): Extension[] => (extensions ?? []).filter((entry): entry is Extension => typeof entry !== 'string');

interface OpenEnvironment {
  readonly thread: ThreadEnvironment;
  close(): Promise<void>;
}

async function environmentFor(choice: EnvironmentChoice, cwd: string, env: Readonly<Record<string, string | undefined>>): Promise<OpenEnvironment | undefined> {
  if (choice === 'none') return undefined;
  if (choice === 'local') {
    const local = localThreadEnvironment({ cwd, env });
    return { thread: local, close: () => local.close() };
  }
  const url = choice.execServerUrl;
  if (!/^wss?:\/\//.test(url)) throw new HostError('EnvironmentUnreachable', `execServerUrl '${url}' must be a ws:// or wss:// address`);
  try {
    const executor = await connectExecServer({ url, clientName: 'skein_host', handshakeTimeoutMs: 10_000 });
    const info = executor.client.environment;
    if (info === undefined) {
      await executor.close();
      throw new Error('it did not describe its environment');
    }
    return { thread: remoteThreadEnvironment('remote', executor, info), close: () => executor.close() };
  } catch (error) {
    throw new HostError('EnvironmentUnreachable', `could not use the exec-server at ${url}: ${(error as Error).message}`);
  }
}

class Runtime implements SkeinRuntime {
  readonly #threads = new Set<HostThreadImpl>();
  #closed = false;

  constructor(
    private readonly manager: ThreadManager,
    private readonly configFor: (thread: ThreadOptions) => Promise<Config>,
    private readonly ownStore: ThreadStore | undefined,
    private readonly environment: OpenEnvironment | undefined,
  ) {}

  async startThread(options: StartOptions = {}): Promise<HostThread> {
    return await this.#open(options, (config, common) => this.manager.start({ ...common, config, ephemeral: options.ephemeral === true }));
  }

  async resumeThread(threadId: string, options: ThreadOptions = {}): Promise<HostThread> {
    const id = parseThreadId(threadId);
    return await this.#open(options, (config, common) => this.manager.resume(id, { ...common, config }));
  }

  async forkThread(threadId: string, options: ForkOptions = {}): Promise<HostThread> {
    const id = parseThreadId(threadId);
    const upTo = options.lastTurnId === undefined ? {} : { upTo: { turnId: options.lastTurnId } };
    return await this.#open(options, (config, common) => this.manager.fork(id, { ...common, config, ...upTo }));
  }

  async listThreads(query: ThreadListQuery = {}): Promise<ThreadPage> {
    this.#assertOpen();
    return await this.manager.list(query);
  }

  loadedThreads(): readonly HostThread[] {
    return [...this.#threads];
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all([...this.#threads].map((thread) => thread.close()));
    // Sub-agent threads the model spawned are the manager's, not the host's.
    await this.manager.closeAll();
    await this.environment?.close();
    await this.ownStore?.close();
  }

  async #open(
    options: ThreadOptions,
    open: (config: Config, common: { readonly onEvent: (event: CoreEvent) => void; readonly clientRequests: ClientRequests | undefined }) => Promise<ThreadHandle>,
  ): Promise<HostThread> {
    this.#assertOpen();
    const config = await this.configFor(options);
    // eslint-disable-next-line no-restricted-properties -- the host API stamps its own events with the wall clock, as the app-server does
    const thread = new HostThreadImpl(() => Date.now(), options.onOtherEvent, (closed) => this.#threads.delete(closed));
    try {
      const handle = await open(config, { onEvent: thread.onEvent, clientRequests: clientRequestsOf(options.handlers) });
      this.#threads.add(thread.attach(handle));
      return thread;
    } catch (error) {
      throw hostErrorOf(error);
    }
  }

  #assertOpen(): void {
    if (this.#closed) throw new HostError('Closed', 'the runtime was closed');
  }
}

/** The store's and registry's refusals a host can act on, as HostErrors; anything else unchanged. */
function hostErrorOf(error: unknown): unknown {
  if (error instanceof ThreadManagerError && error.code === 'AlreadyLoaded') return new HostError('AlreadyOpen', error.message);
  if (error instanceof RolloutError) {
    if (error.code === 'ThreadNotFound') return new HostError('ThreadNotFound', error.message);
    if (error.code === 'TurnNotFound') return new HostError('TurnNotFound', error.message);
    if (error.code === 'WriterBusy') return new HostError('ThreadBusy', error.message);
  }
  return error;
}

function parseThreadId(threadId: string): string {
  const parsed = ThreadId.safeParse(threadId);
  if (!parsed.success) throw new HostError('InvalidThreadId', `'${threadId}' is not a thread id (a UUID)`);
  return parsed.data;
}

/** The host's handlers as core's ClientRequests: an unanswered kind of question is declined. */
function clientRequestsOf(handlers: ThreadHandlers | undefined): ClientRequests | undefined {
  if (handlers === undefined) return undefined;
  return {
    requestCommandApproval: handlers.requestCommandApproval ?? (() => Promise.resolve('decline')),
    requestFileChangeApproval: handlers.requestFileChangeApproval ?? (() => Promise.resolve('decline')),
    requestUserInput: handlers.requestUserInput ?? (() => Promise.resolve({})),
    ...(handlers.requestMcpElicitation === undefined ? {} : { requestMcpElicitation: handlers.requestMcpElicitation }),
  };
}
