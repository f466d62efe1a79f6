// A session's checkpoints over its environments: each attached environment is reached through its
// own process runner, unconfined (the user's files, in `.git`, which the sandbox keeps read-only).
import type { Config } from '@skein/config';
import { PathUri } from '@skein/protocol';
import { shellRunner } from '../checkpoints/git-checkpoints.js';
import { memoryCheckpointStore, ThreadCheckpoints, type CheckpointStore } from '../checkpoints/thread-checkpoints.js';
import { captureCommand } from './command-capture.js';
import { unconfinedTarget } from './environment-hooks.js';
import type { EnvironmentSelection, EnvironmentState } from './thread-environment.js';

/** What a session's checkpoints are built from. */
export interface SessionCheckpointsOptions {
  readonly threadId: string;
  /** The thread's durable store; absent, checkpoints are remembered for the session only. */
  readonly store: CheckpointStore | undefined;
  readonly nowMs: () => number;
  readonly monotonicMs: () => number;
  readonly config: () => Config;
  readonly environments: EnvironmentState;
  /** The running turn's selection, when a turn runs. */
  readonly running: () => EnvironmentSelection | undefined;
  readonly warn: (message: string) => void;
}

/** The session's {@link ThreadCheckpoints}. */
export function sessionCheckpoints(options: SessionCheckpointsOptions): ThreadCheckpoints {
  const { environments, config } = options;
  return new ThreadCheckpoints({
    threadId: options.threadId,
    store: options.store ?? memoryCheckpointStore(),
    nowMs: options.nowMs,
    settings: () => config().checkpoints,
    homeDir: () => config().homeDir,
    cwdOf: (environmentId) => environments.cwdOf(environmentId, config()),
    warn: options.warn,
    target(environmentId) {
      const running = options.running();
      // Checkpoints are POSIX shell scripts: a Windows executor has none (docs/checkpoints.md).
      const tool = environments.toolEnvironments(config(), running).find((environment) => environment.id === environmentId);
      if (tool === undefined || tool.os === 'windows') return undefined;
      const target = unconfinedTarget(environments, running, environmentId, config(), options.monotonicMs);
      if (target === undefined) return undefined;
      return {
        runnerAt: (cwd) => shellRunner((argv, capture) => captureCommand(cwd === undefined ? target : { ...target, cwd: PathUri.fromNativePath(cwd, tool.pathConvention) }, argv, capture)),
      };
    },
  });
}
