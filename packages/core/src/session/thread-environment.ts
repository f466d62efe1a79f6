// The environment a thread acts on and what it keeps there: command sessions per environment (so
// switching environments does not kill running commands) and the per-call view tools get.
import type { Config } from '@skein/config';
import type { ExecEnvPolicy, ExecutorFileSystem, ExecutorProcesses } from '@skein/exec-server';
import type { EnvironmentOs, ToolEnvironment } from '@skein/extension-api';
import { PathUri, type PathConvention } from '@skein/protocol';
import { defaultWorkspaceRoots, sandboxPolicyFromConfig } from '@skein/sandboxing';
import type { AttachedEnvironmentContext } from '../context/environment-context.js';
import { BackgroundTerminals } from './background-terminals.js';
import { UnifiedExecSessions, type UnifiedExecEvent } from '../tools/unified-exec/unified-exec-sessions.js';
import { sandboxContextFor, type WriteScope } from './sandbox-context.js';
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
  /**
   * The workspace roots the client named for it (native paths there): what workspace-write lets
   * commands write, in place of its cwd and the configured writable roots.
   */
  readonly workspaceRoots?: readonly string[] | undefined;
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

/**
 * An environment selected while its executor is still connecting (`deferred_executor`): the thread
 * names it to the model as `starting` and uses it once `ready` settles.
 */
export interface StartingEnvironment {
  readonly id: string;
  /** Where turns will work on it, a native path there. */
  readonly cwd: string;
  /** The workspace roots the client named for it (see {@link ThreadEnvironment.workspaceRoots}). */
  readonly workspaceRoots?: readonly string[] | undefined;
  /** The environment once connected; rejects with why it could not be. */
  readonly ready: Promise<ThreadEnvironment>;
}

/** One entry of a thread's selection: ready, or still connecting. */
export type SelectedEnvironment = ThreadEnvironment | StartingEnvironment;

/** Whether `entry` is still connecting. */
export function isStartingEnvironment(entry: SelectedEnvironment): entry is StartingEnvironment {
  return 'ready' in entry;
}

/** What `wait_for_environment` learns of an environment. */
export type EnvironmentWait = { readonly status: 'ready' } | { readonly status: 'failed'; readonly error: string } | { readonly status: 'unknown' };

/** What the thread's environments need from the session. */
export interface EnvironmentStateOptions {
  readonly monotonicMs: () => number;
  readonly onCommandEvent: (event: UnifiedExecEvent) => void;
}

/** A selected environment as the thread holds it: usable, connecting, or failed to connect. */
type Entry =
  | { readonly state: 'ready'; readonly environment: ThreadEnvironment }
  | { readonly state: 'starting'; readonly starting: StartingEnvironment; readonly settled: Promise<void> }
  | { readonly state: 'failed'; readonly id: string; readonly cwd: string; readonly workspaceRoots?: readonly string[] | undefined; readonly error: string };

/** An entry's id. */
function entryId(entry: Entry): string {
  switch (entry.state) {
    case 'ready':
      return environmentIdOf(entry.environment);
    case 'starting':
      return entry.starting.id;
    case 'failed':
      return entry.id;
  }
}

/** The id an environment goes by (`local` when it names none). */
export function environmentIdOf(environment: ThreadEnvironment): string {
  return environment.id ?? 'local';
}

/**
 * One selection of environments (a thread's, from one `use` to the next), in selection order. The
 * primary is the first ready one. An environment still connecting takes its ready form in place
 * once connected, or is kept as failed for the model to be told; a turn holding the selection it
 * started with sees that, and never a selection a later settings update made.
 */
export class EnvironmentSelection {
  readonly #entries: Entry[];

  constructor(environments: SelectedEnvironment | readonly SelectedEnvironment[] | undefined) {
    this.#entries = selectionList(environments).map((environment): Entry => {
      if (!isStartingEnvironment(environment)) return { state: 'ready', environment };
      const entry: Entry = {
        state: 'starting',
        starting: environment,
        settled: environment.ready.then(
          (ready) => this.#settle(entry, { state: 'ready', environment: { ...ready, id: environment.id, cwd: environment.cwd, workspaceRoots: environment.workspaceRoots } }),
          (error: unknown) =>
            this.#settle(entry, { state: 'failed', id: environment.id, cwd: environment.cwd, workspaceRoots: environment.workspaceRoots, error: error instanceof Error ? error.message : String(error) }),
        ),
      };
      return entry;
    });
  }

  #settle(entry: Entry, settled: Entry): void {
    const index = this.#entries.indexOf(entry);
    if (index >= 0) this.#entries[index] = settled;
  }

  /** Every ready environment, the primary first. */
  get ready(): readonly ThreadEnvironment[] {
    return this.#entries.flatMap((entry) => (entry.state === 'ready' ? [entry.environment] : []));
  }

  /** The ids of every selected environment, ready or not. */
  get ids(): readonly string[] {
    return this.#entries.map(entryId);
  }

  /** Whether any environment is ready or still connecting. */
  get usable(): boolean {
    return this.#entries.some((entry) => entry.state !== 'failed');
  }

  /** Whether the selection's first entry is `environment` (it works in the thread's cwd). */
  isFirst(environment: ThreadEnvironment): boolean {
    const first = this.#entries[0];
    return first?.state === 'ready' && first.environment === environment;
  }

  /** Where the selected environment `id` works: the thread's `primaryCwd` for the first entry, else its own. */
  cwdOf(id: string, primaryCwd: string): string {
    const index = this.#entries.findIndex((entry) => entryId(entry) === id);
    const entry = this.#entries[index];
    if (entry === undefined || index === 0) return primaryCwd;
    return (entry.state === 'ready' ? entry.environment.cwd : entry.state === 'starting' ? entry.starting.cwd : entry.cwd) ?? primaryCwd;
  }

  /** The workspace roots the client named for the selected environment `id` (the first entry's are the thread's); undefined for the defaults. */
  namedRootsOf(id: string): readonly string[] | undefined {
    const entry = this.#entries.find((candidate) => entryId(candidate) === id);
    if (entry === undefined) return undefined;
    return entry.state === 'ready' ? entry.environment.workspaceRoots : entry.state === 'starting' ? entry.starting.workspaceRoots : entry.workspaceRoots;
  }

  /**
   * The same selection with `roots` as the first entry's workspace roots (a client naming roots
   * without naming environments); its entries keep their state, a failed one stays failed.
   */
  withPrimaryRoots(roots: readonly string[]): EnvironmentSelection {
    return new EnvironmentSelection(
      this.#entries.map((entry, index): SelectedEnvironment => {
        const workspaceRoots = index === 0 ? roots : undefined;
        switch (entry.state) {
          case 'ready':
            return workspaceRoots === undefined ? entry.environment : { ...entry.environment, workspaceRoots };
          case 'starting':
            return workspaceRoots === undefined ? entry.starting : { ...entry.starting, workspaceRoots };
          case 'failed': {
            const ready = Promise.reject(new Error(entry.error));
            // Observed by the new selection, which keeps the entry failed.
            ready.catch(() => undefined);
            return { id: entry.id, cwd: entry.cwd, workspaceRoots: workspaceRoots ?? entry.workspaceRoots, ready };
          }
        }
      }),
    );
  }

  /** The workspace roots the client named for the thread's cwd (the first entry's); undefined for the defaults. */
  get namedPrimaryRoots(): readonly string[] | undefined {
    const first = this.#entries[0];
    return first === undefined ? undefined : this.namedRootsOf(entryId(first));
  }

  /** Whether the selected environment `id` exists but cannot be used (still connecting, or failed to). */
  isUnusable(id: string): boolean {
    return this.#entries.some((entry) => entry.state !== 'ready' && entryId(entry) === id);
  }

  /** Waits for the selected environment `id` to finish connecting (or for `signal`); at once when it has. */
  async waitFor(id: string, signal: AbortSignal): Promise<EnvironmentWait> {
    const entry = this.#entries.find((candidate) => entryId(candidate) === id);
    if (entry === undefined) return { status: 'unknown' };
    if (entry.state === 'starting') {
      signal.throwIfAborted();
      let stop: (() => void) | undefined;
      const aborted = new Promise<never>((_, reject) => {
        stop = () => reject(signal.reason instanceof Error ? signal.reason : new Error('the wait was interrupted'));
        signal.addEventListener('abort', stop, { once: true });
      });
      try {
        await Promise.race([entry.settled, aborted]);
      } finally {
        if (stop !== undefined) signal.removeEventListener('abort', stop);
      }
      return this.waitFor(id, signal);
    }
    return entry.state === 'ready' ? { status: 'ready' } : { status: 'failed', error: entry.error };
  }

  /**
   * Every selected environment as the model is told it; `primaryCwd` is where the first entry
   * works (the thread's cwd), `shellOf` names a ready one's shell.
   */
  described(primaryCwd: string, shellOf: (environment: ThreadEnvironment) => string): AttachedEnvironmentContext[] {
    return this.#entries.map((entry, index): AttachedEnvironmentContext => {
      const id = entryId(entry);
      const cwd = index === 0 ? primaryCwd : this.cwdOf(id, primaryCwd);
      if (entry.state === 'ready') return { id, cwd, status: 'ready', shell: shellOf(entry.environment) };
      return entry.state === 'starting' ? { id, cwd, status: 'starting' } : { id, cwd, status: 'failed', error: entry.error };
    });
  }
}

/** The thread's environment selection and the command sessions of every environment it used. */
export class EnvironmentState {
  #selection: EnvironmentSelection;
  readonly #sessions = new Map<string, UnifiedExecSessions>();
  readonly #options: EnvironmentStateOptions;
  /** The commands left running on any environment the thread used. */
  readonly backgroundTerminals = new BackgroundTerminals(() => this.#sessions);

  constructor(environments: SelectedEnvironment | readonly SelectedEnvironment[] | undefined, options: EnvironmentStateOptions) {
    this.#selection = new EnvironmentSelection(environments);
    this.#options = options;
  }

  /** The selection later turns start with. */
  get selection(): EnvironmentSelection {
    return this.#selection;
  }

  /** The primary environment: the first ready one. */
  get current(): ThreadEnvironment | undefined {
    return this.attached[0];
  }

  /** Every ready environment, the primary first. */
  get attached(): readonly ThreadEnvironment[] {
    return this.#selection.ready;
  }

  /**
   * Later turns act on `environments` (in selection order; none for an empty list); a running turn
   * keeps the selection it started with. Sessions started elsewhere keep running until the thread ends.
   */
  use(environments: SelectedEnvironment | readonly SelectedEnvironment[] | undefined): void {
    this.#selection = new EnvironmentSelection(environments);
  }

  /** Later turns work over `roots` on the primary environment; a running turn keeps its own. */
  useWorkspaceRoots(roots: readonly string[]): void {
    this.#selection = this.#selection.withPrimaryRoots(roots);
  }

  /** The native cwd turns use on the attached environment `id` (the primary's is `config`'s). */
  cwdOf(id: string, config: Config): string {
    return this.#selection.cwdOf(id, config.cwd);
  }

  /** The workspace roots of the selected environment `id`: those the client named, else its cwd and `config`'s writable roots. */
  workspaceRootsOf(id: string, config: Config): readonly string[] {
    return this.#selection.namedRootsOf(id) ?? defaultWorkspaceRoots(config, this.cwdOf(id, config));
  }

  /** Where writes on the environment `id` of `selection` (the thread's now, unless a turn passes its own) are checked (see `isWritable`); undefined when it is not ready there. */
  writeScope(id: string, config: Config, selection: EnvironmentSelection = this.#selection): WriteScope | undefined {
    const environment = selection.ready.find((candidate) => environmentIdOf(candidate) === id);
    if (environment === undefined) return undefined;
    const cwd = selection.cwdOf(id, config.cwd);
    const roots = selection.namedRootsOf(id) ?? defaultWorkspaceRoots(config, cwd);
    return { cwd, roots, convention: environment.os === 'windows' ? 'windows' : 'posix', env: environment.env };
  }

  /** The primary environment as a tool call sees it, under `config`'s cwd and sandbox. */
  toolEnvironment(config: Config): ToolEnvironment | undefined {
    return this.toolEnvironments(config)[0];
  }

  /**
   * Every ready environment of `selection` (the thread's now, unless a turn passes its own) as tool
   * calls see it, the primary first: the selection's first in `config`'s cwd, the others in their own.
   */
  toolEnvironments(config: Config, selection: EnvironmentSelection = this.#selection): ToolEnvironment[] {
    return selection.ready.map((environment) => {
      const os = environment.os ?? 'linux';
      const pathConvention: PathConvention = os === 'windows' ? 'windows' : 'posix';
      const cwd = selection.isFirst(environment) ? config.cwd : (environment.cwd ?? config.cwd);
      const roots = environment.workspaceRoots ?? defaultWorkspaceRoots(config, cwd);
      return {
        id: environmentIdOf(environment),
        fileSystem: environment.fileSystem,
        processes: environment.processes,
        cwd: PathUri.fromNativePath(cwd, pathConvention),
        os,
        pathConvention,
        sandboxPolicy: sandboxPolicyFromConfig(config),
        sandbox: sandboxContextFor(config, cwd, roots, pathConvention),
      };
    });
  }

  /** The command sessions on the environment `id`, created on first use with `config`'s shell policy. */
  sessionsFor(id: string, config: Config): UnifiedExecSessions | undefined {
    let sessions = this.#sessions.get(id);
    if (sessions !== undefined) return sessions;
    const environment = this.attached.find((candidate) => environmentIdOf(candidate) === id);
    if (environment === undefined) return undefined;
    const policy = config.shellEnvironmentPolicy;
    sessions = new UnifiedExecSessions({
      processes: environment.processes,
      ...commandEnvironment(environment, policy),
      defaultShell: environment.shell,
      shellSnapshots: config.features.isEnabled('shell_snapshot'),
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

/**
 * The variables commands on `environment` start with under `[shell_environment_policy]`: built
 * here from the host's, or on the executor from its own (`envOnExecutor`).
 */
export function commandEnvironment(environment: ThreadEnvironment, policy: Config['shellEnvironmentPolicy']): { readonly env: Record<string, string>; readonly envPolicy?: ExecEnvPolicy } {
  if (environment.envOnExecutor !== true) return { env: shellEnvironment(policy, environment.env) };
  return {
    env: {},
    envPolicy: {
      inherit: policy.inherit ?? 'all',
      ignoreDefaultExcludes: policy.ignore_default_excludes === true,
      exclude: [...(policy.exclude ?? [])],
      set: { ...policy.set },
      includeOnly: [...(policy.include_only ?? [])],
    },
  };
}

/** The first entry of a selection, where the thread's cwd is. */
export function firstSelected(environments: SelectedEnvironment | readonly SelectedEnvironment[] | undefined): SelectedEnvironment | undefined {
  return selectionList(environments)[0];
}

/** `environments` with `roots` as the first entry's workspace roots, unless it names its own. */
export function withPrimaryWorkspaceRoots(environments: SelectedEnvironment | readonly SelectedEnvironment[] | undefined, roots: readonly string[] | undefined): SelectedEnvironment[] {
  return selectionList(environments).map((environment, index) => (index === 0 && roots !== undefined && environment.workspaceRoots === undefined ? { ...environment, workspaceRoots: roots } : environment));
}

/** Duplicate ids: the first wins. */
function selectionList(environments: SelectedEnvironment | readonly SelectedEnvironment[] | undefined): readonly SelectedEnvironment[] {
  if (environments === undefined) return [];
  const list: readonly SelectedEnvironment[] = Array.isArray(environments) ? environments : [environments as SelectedEnvironment];
  const seen = new Set<string>();
  return list.filter((environment) => {
    const id = isStartingEnvironment(environment) ? environment.id : environmentIdOf(environment);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
