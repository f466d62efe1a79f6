// Hooks that belong to an executor: a project on a remote environment declares them in its own
// `.codex/hooks.json` (found through that environment's file system, from its project root down to
// its cwd), and their commands run there, through the environment's process runner, not on this
// machine. They need the user's trust like any hook. This machine's projects are config layers.
import { LOCAL_ENVIRONMENT_ID, type Config } from '@skein/config';
import type { ToolEnvironment } from '@skein/extension-api';
import { MAX_HOOK_OUTPUT_BYTES, type CommandHookExit, type CommandHookRun, type HookLayer } from '@skein/hooks';
import { foldersFromRoot, readIfFile } from '../context/agents-md-discovery.js';
import { captureCommand, type CaptureTarget } from './command-capture.js';
import { commandEnvironment, environmentIdOf, type EnvironmentSelection, type EnvironmentState } from './thread-environment.js';

/** How an executor's hooks are found and run. */
export interface EnvironmentHookHost {
  /** The remote environments' project hook files, as hook layers. */
  layers(config: Config): Promise<HookLayer[]>;
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
// piped into its command's stdin by the executor's own shell.
const RUN_WITH_INPUT = 'printf "%s" "$SKEIN_HOOK_INPUT" | /bin/sh -c "$SKEIN_HOOK_COMMAND"';
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
    target(environmentId, config) {
      const environment = (running() ?? stateOf().selection).ready.find((candidate) => environmentIdOf(candidate) === environmentId);
      const tool = environments(config).find((candidate) => candidate.id === environmentId);
      if (environment === undefined || tool === undefined) return undefined;
      return { processes: tool.processes, cwd: tool.cwd, sandbox: null, now, ...commandEnvironment(environment, config.shellEnvironmentPolicy) };
    },
  });
}

/** The host over a thread's environments. */
export function environmentHookHost(source: EnvironmentHookSource): EnvironmentHookHost {
  return {
    async layers(config) {
      const remote = source.environments(config).filter((environment) => environment.id !== LOCAL_ENVIRONMENT_ID);
      const found = await Promise.all(remote.map((environment) => projectHookFiles(environment, config.projectRootMarkers)));
      return found.flat();
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
async function projectHookFiles(environment: ToolEnvironment, rootMarkers: readonly string[]): Promise<HookLayer[]> {
  const place = { environmentId: environment.id, fileSystem: environment.fileSystem, cwd: environment.cwd };
  const convention = environment.cwd.convention;
  const layers: HookLayer[] = [];
  for (const folder of await foldersFromRoot(place, rootMarkers)) {
    const codexDir = folder.join('.codex');
    const file = codexDir.join('hooks.json');
    const text = await readIfFile(environment.fileSystem, file);
    if (text === undefined) continue;
    layers.push({ source: 'project', file: codexDir.join('config.toml').toNativePath(convention), table: {}, environment: { id: environment.id, hooksJson: { path: file.toNativePath(convention), text } } });
  }
  return layers;
}
