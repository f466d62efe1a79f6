// The environment a thread acts on and what it keeps there: command sessions per environment (so
// switching environments does not kill running commands) and the per-call view tools get.
import type { Config } from '@skein/config';
import type { ExecutorFileSystem, ExecutorProcesses } from '@skein/exec-server';
import type { EnvironmentOs, ToolEnvironment } from '@skein/extension-api';
import { PathUri, type PathConvention } from '@skein/protocol';
import { sandboxPolicyFromConfig } from '@skein/sandboxing';
import { UnifiedExecSessions, type UnifiedExecEvent } from '../tools/unified-exec/unified-exec-sessions.js';
import { sandboxContextFor } from './sandbox-context.js';
import { shellEnvironment } from './shell-environment.js';

/** The machine a thread's commands and file edits run on (this one, or a remote exec-server). */
export interface ThreadEnvironment {
  readonly fileSystem: ExecutorFileSystem;
  readonly processes: ExecutorProcesses;
  /** The host environment; commands get it filtered by `[shell_environment_policy]`. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The user's shell, e.g. `/bin/bash`. */
  readonly shell: string;
  /** Names the environment to clients and in approval keys (`local` when absent). */
  readonly id?: string | undefined;
  /** Its operating system (default `linux`). */
  readonly os?: EnvironmentOs | undefined;
  /** The shell's name the model is told, e.g. `bash` (default: the host's). */
  readonly shellName?: string | undefined;
  /**
   * The executor builds commands' variables from its own by `[shell_environment_policy]` (a remote
   * machine's PATH and HOME are its own); `env` is then ignored.
   */
  readonly envOnExecutor?: boolean | undefined;
}

/** What the thread's environments need from the session. */
export interface EnvironmentStateOptions {
  readonly monotonicMs: () => number;
  readonly onCommandEvent: (event: UnifiedExecEvent) => void;
}

/** The thread's current environment and the command sessions of every environment it used. */
export class EnvironmentState {
  #current: ThreadEnvironment | undefined;
  readonly #sessions = new Map<string, UnifiedExecSessions>();
  readonly #options: EnvironmentStateOptions;

  constructor(environment: ThreadEnvironment | undefined, options: EnvironmentStateOptions) {
    this.#current = environment;
    this.#options = options;
  }

  get current(): ThreadEnvironment | undefined {
    return this.#current;
  }

  /** Later turns act on `environment` (or on none). Sessions started elsewhere keep running until the thread ends. */
  use(environment: ThreadEnvironment | undefined): void {
    this.#current = environment;
  }

  /** The current environment as a tool call sees it, under `config`'s cwd and sandbox. */
  toolEnvironment(config: Config): ToolEnvironment | undefined {
    const environment = this.#current;
    if (environment === undefined) return undefined;
    const os = environment.os ?? 'linux';
    const pathConvention: PathConvention = os === 'windows' ? 'windows' : 'posix';
    return {
      id: environment.id ?? 'local',
      fileSystem: environment.fileSystem,
      processes: environment.processes,
      cwd: PathUri.fromNativePath(config.cwd, pathConvention),
      os,
      pathConvention,
      sandboxPolicy: sandboxPolicyFromConfig(config),
      sandbox: sandboxContextFor(config, config.cwd),
    };
  }

  /** The command sessions on the environment `id`, created on first use with `config`'s shell policy. */
  sessionsFor(id: string, config: Config): UnifiedExecSessions | undefined {
    let sessions = this.#sessions.get(id);
    if (sessions !== undefined) return sessions;
    const environment = this.#current;
    if (environment === undefined || (environment.id ?? 'local') !== id) return undefined;
    const policy = config.shellEnvironmentPolicy;
    sessions = new UnifiedExecSessions({
      processes: environment.processes,
      ...(environment.envOnExecutor === true
        ? {
            env: {},
            envPolicy: {
              inherit: policy.inherit ?? 'all',
              ignoreDefaultExcludes: policy.ignore_default_excludes === true,
              exclude: [...(policy.exclude ?? [])],
              set: { ...policy.set },
              includeOnly: [...(policy.include_only ?? [])],
            },
          }
        : { env: shellEnvironment(policy, environment.env) }),
      defaultShell: environment.shell,
      monotonicMs: this.#options.monotonicMs,
      onEvent: this.#options.onCommandEvent,
    });
    this.#sessions.set(id, sessions);
    return sessions;
  }

  /** Kills every live command session. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.#sessions.values()].map((sessions) => sessions.closeAll()));
  }
}
