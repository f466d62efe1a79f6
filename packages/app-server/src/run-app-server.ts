// The app-server program: its flags, config from the usual layers and the server built from it;
// @skein/json-rpc's program skeleton does the listening. Used by this package's bin and by `skein app-server`.
import { BYPASS_HOOK_TRUST_WARNING } from '@skein/hooks';
import { parseArgs } from 'node:util';
import { CONFIG_FLAG_OPTIONS, ConfigError, loadConfig, loadEnvironmentsToml, type LoadConfigOptions } from '@skein/config';
import { SavedApiKey } from './saved-api-key.js';
import { ExtensionLoadError, extensionFlagSources, localHostFacts, localThreadEnvironment, readInstallationId, type ModuleImporter } from '@skein/core';
import { CODEX_VERSION } from '@skein/protocol';
import {
  TRANSPORT_FLAG_OPTIONS,
  readTransportFlags,
  runJsonRpcProgram,
  type JsonRpcProgramIo,
  type TransportFlags,
  type WebSocketListener,
} from '@skein/json-rpc';
import { AppServer } from './app-server.js';
import { HostExtensions } from './extensions/host-extensions.js';
import { hostSkills } from './skills/host-skills.js';
import { loadThreadConfig } from './threads/thread-cwd.js';
import { openThreadStore, ThreadStoreConfigError } from './threads/open-thread-store.js';
import { recentGitInfo } from './threads/recent-git-info.js';
import { RealtimeConversations } from './realtime/realtime-conversations.js';

/** The app-server's settings, as its flags spell them. */
export interface AppServerSettings extends TransportFlags {
  /** `-c key=value` overrides, in order. */
  readonly configOverrides?: readonly string[] | undefined;
  readonly enable?: readonly string[] | undefined;
  readonly disable?: readonly string[] | undefined;
  readonly profile?: string | undefined;
  readonly strictConfig?: boolean | undefined;
  /** `--dangerously-bypass-hook-trust`: run configured lifecycle hooks nobody trusted (automation that vets its hooks itself). */
  readonly bypassHookTrust?: boolean | undefined;
  /** `--extension <spec>`: extensions every thread loads, besides those config names; resolved from the cwd. */
  readonly extensions?: readonly string[] | undefined;
  /** Requests one connection may have waiting or running (default `MAX_QUEUED_REQUESTS`). */
  readonly maxQueuedRequests?: number | undefined;
  /** The server's version, in the user agent. */
  readonly version?: string | undefined;
}

/** Where the program runs: the transport's streams and stop signal, the environment, and a hook for tests. */
export interface AppServerIo extends JsonRpcProgramIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Called with the listener once a WebSocket server is up (tests use its URL). */
  readonly onListening?: ((listener: WebSocketListener) => void) | undefined;
  /** How extension modules are imported (see `LoadExtensionsOptions.importModule`). */
  readonly importModule?: ModuleImporter | undefined;
}

/** A bad command line or setting; the message says what to change. */
export class AppServerSettingsError extends Error {
  override readonly name = 'AppServerSettingsError';
  readonly code = 'InvalidSettings';
}

const USAGE = `Usage: skein-app-server [--listen stdio:// | ws://IP:PORT] [--ws-auth capability-token (--ws-token-file PATH | --ws-token-sha256 HEX) | --ws-auth signed-bearer-token --ws-shared-secret-file PATH [--ws-issuer ISS] [--ws-audience AUD] [--ws-max-clock-skew-seconds N]]
                        [-c key=value]… [--enable FEATURE]… [--disable FEATURE]… [-p PROFILE] [--strict-config]
                        [--extension SPEC]… [--dangerously-bypass-hook-trust]`;

/** Parses the flags `codex app-server` takes (the subset Skein implements). */
export function parseAppServerArgs(argv: readonly string[]): AppServerSettings & { readonly help: boolean } {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        ...TRANSPORT_FLAG_OPTIONS,
        stdio: { type: 'boolean' },
        ...CONFIG_FLAG_OPTIONS,
        extension: { type: 'string', multiple: true },
        'dangerously-bypass-hook-trust': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new AppServerSettingsError(`${(error as Error).message}\n${USAGE}`);
  }
  return {
    help: values.help ?? false,
    ...readTransportFlags(values),
    listen: values.stdio === true ? 'stdio://' : values.listen,
    configOverrides: values.config,
    enable: values.enable,
    disable: values.disable,
    profile: values.profile,
    strictConfig: values['strict-config'],
    bypassHookTrust: values['dangerously-bypass-hook-trust'],
    extensions: values.extension,
  };
}

/** Loads config and builds the server the program runs. */
export async function createAppServer(settings: AppServerSettings, io: Pick<AppServerIo, 'cwd' | 'env' | 'stderr' | 'importModule'>): Promise<AppServer> {
  const configLoad: Omit<LoadConfigOptions, 'cwd'> = {
    env: io.env,
    overrides: settings.configOverrides ?? [],
    enable: settings.enable ?? [],
    disable: settings.disable ?? [],
    profile: settings.profile,
    strict: settings.strictConfig ?? false,
  };
  const config = await loadConfig({ ...configLoad, cwd: io.cwd });
  // Skills are installed by default; their settings are the config a thread in that directory loads.
  const skills = hostSkills(config.config, async (cwd) => (await loadThreadConfig((at) => loadConfig({ ...configLoad, strict: false, cwd: at }), cwd)).config);
  // The threads' models hear of their realtime conversations through a built-in extension.
  const realtime = new RealtimeConversations();
  const extensions = new HostExtensions(extensionFlagSources(settings.extensions ?? [], io.cwd), { strict: configLoad.strict ?? false, builtIn: [...skills.extensions, realtime.extension], importModule: io.importModule });
  // Loaded now, so a strict server refuses to start and every client hears of a failure when it connects.
  const { registry, unreported } = await extensions.forConfig(config.config);
  const warnings = [
    ...config.warnings,
    ...unreported.map((problem) => ({ code: 'ExtensionNotLoaded' as const, origin: problem.source.origin, key: 'skein.extensions', message: problem.message })),
  ];
  // A bad environments.toml refuses to start, as Codex; an executor it names that cannot be reached does not.
  const environmentsConfig = await loadEnvironmentsToml(config.config.homeDir);
  if (settings.bypassHookTrust === true) io.stderr.write(`warning: ${BYPASS_HOOK_TRUST_WARNING}\n`);
  const environment = localThreadEnvironment({ cwd: io.cwd, env: io.env });
  // Threads started in one folder together share one git lookup (see recent-git-info.ts).
  const gitInfo = recentGitInfo();
  // The store tells the extensions' fragments from user turns when it reads a thread.
  const openStore = () =>
    openThreadStore(config.config.threadStore, { home: config.config.homeDir, env: io.env, contextFragments: registry.contextFragments, gitInfo, onWarning: (message) => io.stderr.write(`warning: ${message}\n`) });
  // A database store opens now: a missing URL or an unreachable database stops the start, not the first request.
  const sharedStore = config.config.threadStore.kind === 'postgres' ? await openStore() : undefined;
  return new AppServer({
    realtime,
    config: { ...config, warnings },
    configLoad,
    version: settings.version,
    threads: {
      openStore: sharedStore === undefined ? openStore : () => Promise.resolve(sharedStore),
      environment,
      environmentsConfig,
      extensions: (threadConfig) => extensions.forConfig(threadConfig),
      contextFragments: registry.contextFragments,
      env: io.env,
      host: localHostFacts(io.env),
      cliVersion: settings.version ?? CODEX_VERSION,
      release: () => environment.close(),
      bypassHookTrust: settings.bypassHookTrust,
    },
    installationId: await readInstallationId(config.config.homeDir),
    // A key saved by `codex login --with-api-key` (or skein's); a damaged auth.json is a warning.
    savedApiKey: await SavedApiKey.load(config.config.homeDir, (message) => io.stderr.write(`warning: ${message}\n`)),
    maxQueuedRequests: settings.maxQueuedRequests,
    skills,
    log: (line) => io.stderr.write(`skein app-server: ${line}\n`),
  });
}

/**
 * Runs the app-server until it is told to stop: over stdio, until the client's input ends; over
 * WebSocket, printing where it listens on stderr (as Codex), until shutdown. Resolves to the exit code.
 */
export function runAppServer(settings: AppServerSettings, io: AppServerIo): Promise<number> {
  return runJsonRpcProgram({
    flags: settings,
    defaultListen: 'stdio://',
    io,
    settingsError: AppServerSettingsError,
    usageErrors: [ConfigError, ExtensionLoadError, ThreadStoreConfigError],
    createServer: () => createAppServer(settings, io),
    onListening: (listener) => {
      const http = listener.url.replace(/^ws:/, 'http:');
      io.stderr.write(`skein app-server (WebSockets)\n  listening on: ${listener.url}\n  readyz: ${http}/readyz\n  healthz: ${http}/healthz\n`);
      io.onListening?.(listener);
    },
  });
}
