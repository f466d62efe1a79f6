// The environment a thread acts on and what it keeps there: command sessions per environment (so
// switching environments does not kill running commands) and the per-call view tools get.
import type { Config } from '@skein/config';
import type { ExecutorFileSystem, ExecutorProcesses } from '@skein/exec-server';
import type { EnvironmentOs, ToolEnvironment } from '@skein/extension-api';
import { PathUri, type PathConvention } from '@skein/protocol';
import { sandboxPolicyFromConfig } from '@skein/sandboxing';
import { BackgroundTerminals } from './background-terminals.js';
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
  /** Where turns work on it, a native path there; the primary environment works in the thread's cwd instead. */
  readonly cwd?: string | undefined;
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

/** The id an environment goes by (`local` when it names none). */
export function environmentIdOf(environment: ThreadEnvironment): string {
  return environment.id ?? 'local';
}

/** The thread's attached environments (the first is the primary) and the command sessions of every environment it used. */
export class EnvironmentState {
  #attached: readonly ThreadEnvironment[];
  readonly #sessions = new Map<string, UnifiedExecSessions>();
  readonly #options: EnvironmentStateOptions;
  /** The commands left running on any environment the thread used. */
  readonly backgroundTerminals = new BackgroundTerminals(() => this.#sessions);

  constructor(environments: ThreadEnvironment | readonly ThreadEnvironment[] | undefined, options: EnvironmentStateOptions) {
    this.#attached = attachedList(environments);
    this.#options = options;
  }

  /** The primary environment. */
  get current(): ThreadEnvironment | undefined {
    return this.#attached[0];
  }

  /** Every attached environment, the primary first. */
  get attached(): readonly ThreadEnvironment[] {
    return this.#attached;
  }

  /**
   * Later turns act on `environments` (the first is the primary; none for an empty list). Sessions
   * started elsewhere keep running until the thread ends.
   */
  use(environments: ThreadEnvironment | readonly ThreadEnvironment[] | undefined): void {
    this.#attached = attachedList(environments);
  }

  /** The native cwd turns use on the attached environment `id` (the primary's is `config`'s). */
  cwdOf(id: string, config: Config): string {
    const environment = this.#attached.find((candidate) => environmentIdOf(candidate) === id);
    return environment === undefined || environment === this.#attached[0] ? config.cwd : (environment.cwd ?? config.cwd);
  }

  /** The primary environment as a tool call sees it, under `config`'s cwd and sandbox. */
  toolEnvironment(config: Config): ToolEnvironment | undefined {
    return this.toolEnvironments(config)[0];
  }

  /** Every attached environment as tool calls see it: the primary in `config`'s cwd, the others in their own. */
  toolEnvironments(config: Config): ToolEnvironment[] {
    return this.#attached.map((environment, index) => {
      const os = environment.os ?? 'linux';
      const pathConvention: PathConvention = os === 'windows' ? 'windows' : 'posix';
      const cwd = index === 0 ? config.cwd : (environment.cwd ?? config.cwd);
      return {
        id: environmentIdOf(environment),
        fileSystem: environment.fileSystem,
        processes: environment.processes,
        cwd: PathUri.fromNativePath(cwd, pathConvention),
        os,
        pathConvention,
        sandboxPolicy: sandboxPolicyFromConfig(config),
        sandbox: sandboxContextFor(config, cwd),
      };
    });
  }

  /** The command sessions on the environment `id`, created on first use with `config`'s shell policy. */
  sessionsFor(id: string, config: Config): UnifiedExecSessions | undefined {
    let sessions = this.#sessions.get(id);
    if (sessions !== undefined) return sessions;
    const environment = this.#attached.find((candidate) => environmentIdOf(candidate) === id);
    if (environment === undefined) return undefined;
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

  /** The command sessions on the attached environment `id`; throws when the thread no longer has it. */
  attachedSessions(id: string, config: Config): UnifiedExecSessions {
    const sessions = this.sessionsFor(id, config);
    if (sessions === undefined) throw new Error(`environment '${id}' is no longer the thread's`);
    return sessions;
  }

  /** Kills every live command session. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.#sessions.values()].map((sessions) => sessions.closeAll()));
  }
}

/** Duplicate ids: the first wins. */
function attachedList(environments: ThreadEnvironment | readonly ThreadEnvironment[] | undefined): readonly ThreadEnvironment[] {
  if (environments === undefined) return [];
  const list: readonly ThreadEnvironment[] = Array.isArray(environments) ? environments : [environments as ThreadEnvironment];
  const seen = new Set<string>();
  return list.filter((environment) => {
    const id = environmentIdOf(environment);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
