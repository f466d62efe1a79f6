// A connected exec-server as a thread's environment: its shell, OS and variables are the executor's,
// as its `initialize` answer reports them, never this host's.
import type { EnvironmentInfo, ExecutorFileSystem, ExecutorProcesses } from '@skein/exec-server';
import type { EnvironmentOs } from '@skein/extension-api';
import type { ThreadEnvironment } from './thread-environment.js';

/** The OS an executor reports (`platformOs`, Rust's `std::env::consts::OS` names), or undefined for one we do not model. */
export function environmentOs(platformOs: string): EnvironmentOs | undefined {
  switch (platformOs) {
    case 'linux':
      return 'linux';
    case 'macos':
      return 'macos';
    case 'windows':
      return 'windows';
    default:
      return undefined;
  }
}

/**
 * The environment `id` on `executor` (a connection, or something that routes to the current one),
 * described by what the executor said about itself.
 */
export function remoteThreadEnvironment(id: string, executor: { readonly fileSystem: ExecutorFileSystem; readonly processes: ExecutorProcesses }, info: EnvironmentInfo): ThreadEnvironment {
  return {
    id,
    fileSystem: executor.fileSystem,
    processes: executor.processes,
    env: {},
    envOnExecutor: true,
    shell: info.shell.path,
    shellName: info.shell.name,
    // Other Unixes run POSIX shells with the same path convention, so they are told apart only by name.
    os: environmentOs(info.platformOs) ?? 'linux',
  };
}
