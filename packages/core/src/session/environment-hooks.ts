// Hooks that belong to an executor: a project on a remote environment declares them in its own
// `.codex/hooks.json` (found through that environment's file system, from its project root down to
// its cwd), and their commands run there, through the environment's process runner, not on this
// machine. They need the user's trust like any hook. This machine's projects are config layers.
import { LOCAL_ENVIRONMENT_ID, type Config } from '@skein/config';
import type { ToolEnvironment } from '@skein/extension-api';
import { MAX_HOOK_OUTPUT_BYTES, type CommandHookExit, type CommandHookRun, type HookError, type HookLayer } from '@skein/hooks';
import { FileSystemError, type PathUri } from '@skein/protocol';
import { foldersFromRoot } from '../context/agents-md-discovery.js';
import { captureCommand, type CaptureTarget } from './command-capture.js';
import { commandEnvironment, environmentIdOf, type EnvironmentSelection, type EnvironmentState } from './thread-environment.js';

/** What the executors' projects declare, and what could not be read there (as `hooks/list` errors). */
export interface EnvironmentHookFiles {
  readonly layers: readonly HookLayer[];
  readonly problems: readonly HookError[];
}

/** How an executor's hooks are found and run. */
export interface EnvironmentHookHost {
  /** The remote environments' project hook files, as hook layers. */
  layers(config: Config): Promise<EnvironmentHookFiles>;
  /** Runs a command hook on the environment `environmentId`. */
  run(environmentId: string, run: CommandHookRun, config: Config): Promise<CommandHookExit>;
}

/** What the host reads of the thread's environments. */
export interface EnvironmentHookSource {
  /** The thread's ready environments as tools see them under `config`. */
  environments(config: Config): readonly ToolEnvironment[];
  /** Where and with which variables a one-off command runs on `environmentId` (undefined once it is gone). */
  target(environmentId: string, config: Config): CaptureTarget | undefined;
}

// The event goes to the hook through a variable (the executor's process API has no end-of-input),
// piped into its command's stdin by the executor's own shell; neither variable reaches the hook.
const RUN_WITH_INPUT = 'c=$SKEIN_HOOK_COMMAND; i=$SKEIN_HOOK_INPUT; unset SKEIN_HOOK_COMMAND SKEIN_HOOK_INPUT; printf "%s" "$i" | /bin/sh -c "$c"';
// How long finding an executor's hook files may take before the turn goes on without them.
const DISCOVERY_DEADLINE_MS = 10_000;
// The most a variable carries on Linux (MAX_ARG_STRLEN is 128 KiB), with room to spare.
const MAX_REMOTE_INPUT_BYTES = 120 * 1024;

/**
 * The host over a thread's environment state: the running turn's selection when there is one. A
 * hook runs as the user, unconfined, as hooks on this machine do; the executor's variables are its own.
 */
export function threadEnvironmentHooks(stateOf: () => EnvironmentState, running: () => EnvironmentSelection | undefined, now: () => number): EnvironmentHookHost {
  const environments = (config: Config) => stateOf().toolEnvironments(config, running() ?? stateOf().selection);
  return environmentHookHost({
    environments,
    target: (environmentId, config) => unconfinedTarget(stateOf(), running(), environmentId, config, now),
  });
}

/**
 * Where a host's own command runs on the attached environment `environmentId` (the running turn's
 * selection when there is one): its process runner, its cwd and variables, unconfined (the user's
 * own hooks, checkpoints of the user's files). Undefined when it is not attached and ready.
 */
export function unconfinedTarget(state: EnvironmentState, running: EnvironmentSelection | undefined, environmentId: string, config: Config, now: () => number): CaptureTarget | undefined {
  const selection = running ?? state.selection;
  const environment = selection.ready.find((candidate) => environmentIdOf(candidate) === environmentId);
  const tool = state.toolEnvironments(config, selection).find((candidate) => candidate.id === environmentId);
  if (environment === undefined || tool === undefined) return undefined;
  return { processes: tool.processes, cwd: tool.cwd, sandbox: null, now, ...commandEnvironment(environment, config.shellEnvironmentPolicy) };
}

/** The host over a thread's environments. */
export function environmentHookHost(source: EnvironmentHookSource): EnvironmentHookHost {
  // The walk up to each environment's project root, kept per environment and cwd: hooks are read every turn.
  const folders = new Map<string, Promise<PathUri[]>>();
  return {
    async layers(config) {
      const remote = source.environments(config).filter((environment) => environment.id !== LOCAL_ENVIRONMENT_ID);
      if (remote.length === 0) return { layers: [], problems: [] };
      const found = await Promise.all(remote.map((environment) => withinDeadline(environment, projectHookFiles(environment, config.projectRootMarkers, folders))));
      return { layers: found.flatMap((files) => files.layers), problems: found.flatMap((files) => files.problems) };
    },
    async run(environmentId, run, config) {
      const target = source.target(environmentId, config);
      if (target === undefined) return { kind: 'failed', message: `the environment '${environmentId}' this hook belongs to is not attached` };
      if (Buffer.byteLength(run.input) > MAX_REMOTE_INPUT_BYTES) return { kind: 'failed', message: `the event is too large (over ${MAX_REMOTE_INPUT_BYTES} bytes) to pass to a hook on '${environmentId}'` };
      try {
        const capture = await captureCommand(target, ['/bin/sh', '-c', RUN_WITH_INPUT], {
          env: { SKEIN_HOOK_INPUT: run.input, SKEIN_HOOK_COMMAND: run.command },
          maxOutputBytes: MAX_HOOK_OUTPUT_BYTES,
          timeoutMs: run.timeoutMs,
          signal: run.signal,
        });
        if (capture.failure !== null) return { kind: 'failed', message: `could not run the hook on '${environmentId}': ${capture.failure}` };
        if (capture.timedOut) return { kind: 'failed', message: `the hook did not finish within ${Math.round(run.timeoutMs / 1000)} s` };
        if (capture.truncated) return { kind: 'failed', message: `the hook printed more than ${MAX_HOOK_OUTPUT_BYTES} bytes` };
        if (capture.exitCode === null) return { kind: 'failed', message: `the hook on '${environmentId}' ended without an exit code` };
        return { kind: 'exited', code: capture.exitCode, stdout: capture.stdout, stderr: capture.stderr };
      } catch (error) {
        return { kind: 'failed', message: run.signal?.aborted === true ? 'the hook was interrupted' : `could not run the hook on '${environmentId}': ${error instanceof Error ? error.message : String(error)}` };
      }
    },
  };
}

/** Each `.codex/hooks.json` from the environment's project root down to its cwd, as a project layer run there. */
async function projectHookFiles(environment: ToolEnvironment, rootMarkers: readonly string[], folders: Map<string, Promise<PathUri[]>>): Promise<EnvironmentHookFiles> {
  const convention = environment.cwd.convention;
  const place = { environmentId: environment.id, fileSystem: environment.fileSystem, cwd: environment.cwd };
  const key = `${environment.id}\0${environment.cwd.toNativePath(convention)}`;
  let walked = folders.get(key);
  if (walked === undefined) folders.set(key, (walked = foldersFromRoot(place, rootMarkers)));
  const read = await Promise.all(
    (await walked).map(async (folder): Promise<EnvironmentHookFiles> => {
      const codexDir = folder.join('.codex');
      const file = codexDir.join('hooks.json');
      const path = file.toNativePath(convention);
      try {
        const text = await environment.fileSystem.readFileText(file);
        // Hook commands run with /bin/sh; a Windows executor has none.
        if (environment.os === 'windows') return { layers: [], problems: [{ path, message: `hooks on the Windows executor '${environment.id}' are not run: they need a POSIX shell` }] };
        return { layers: [{ source: 'project', file: codexDir.join('config.toml').toNativePath(convention), table: {}, environment: { id: environment.id, hooksJson: { path, text } } }], problems: [] };
      } catch (error) {
        if (error instanceof FileSystemError && (error.code === 'NotFound' || error.code === 'NotADirectory')) return { layers: [], problems: [] };
        return { layers: [], problems: [{ path, message: `could not read on '${environment.id}': ${error instanceof Error ? error.message : String(error)}` }] };
      }
    }),
  );
  return { layers: read.flatMap((files) => files.layers), problems: read.flatMap((files) => files.problems) };
}

/** The environment's files, or a problem saying it did not answer in time (the turn does not wait longer). */
async function withinDeadline(environment: ToolEnvironment, files: Promise<EnvironmentHookFiles>): Promise<EnvironmentHookFiles> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<EnvironmentHookFiles>((resolve) => {
    timer = setTimeout(() => resolve({ layers: [], problems: [{ path: environment.cwd.toNativePath(environment.cwd.convention), message: `the executor '${environment.id}' did not list its project's hooks within ${DISCOVERY_DEADLINE_MS / 1000} s; they do not run this turn` }] }), DISCOVERY_DEADLINE_MS);
  });
  try {
    return await Promise.race([files, late]);
  } finally {
    clearTimeout(timer);
  }
}
