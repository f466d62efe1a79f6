// PlatformSandbox: confines processes through @skein/sandboxing (bubblewrap + seccomp on Linux,
// Seatbelt on macOS). PTY children cannot take extra fds, so their seccomp program rides in argv.
import { inlineExtraFds, prepareSandboxedSpawn, releaseSandboxSpawn, spawnSandboxed } from '@skein/sandboxing';
import { ProcessError } from '../process-api.js';
import { toSandboxRequest } from './sandbox-request.js';
import type { ProcessSandbox, SandboxedSpawn } from './local-processes.js';
import { SandboxUnavailableError } from '@skein/sandboxing';
import { FileSystemError } from '../file-system-error.js';

/** The `sandboxType` Codex reports for each platform's sandbox. */
const SANDBOX_TYPE: Partial<Record<NodeJS.Platform, string>> = { linux: 'linuxSeccomp', darwin: 'macosSeatbelt' };

/** Confines processes with this platform's sandbox. */
export class PlatformSandbox implements ProcessSandbox {
  async prepare(request: Parameters<ProcessSandbox['prepare']>[0]): Promise<SandboxedSpawn> {
    let spec;
    try {
      spec = await prepareSandboxedSpawn(toSandboxRequest(request.context, { fallbackCwd: request.cwd, env: request.env }), request.command);
    } catch (error) {
      if (error instanceof SandboxUnavailableError) throw new ProcessError('SandboxUnavailable', error.message);
      if (error instanceof FileSystemError) throw new ProcessError('InvalidArgument', `sandbox: ${error.message}`);
      throw error;
    }
    const [file, ...args] = (request.tty ? inlineExtraFds(spec) : spec).argv;
    if (file === undefined) throw new ProcessError('SandboxUnavailable', 'the sandbox produced an empty command');
    const prepared = spec;
    return {
      file,
      args,
      env: { ...request.env, ...spec.env },
      sandboxType: spec.sandboxed ? (SANDBOX_TYPE[process.platform] ?? 'none') : 'none',
      spawnPipe: request.tty
        ? undefined
        : (child) =>
            spawnSandboxed(prepared, {
              cwd: child.cwd,
              env: child.env,
              stdio: [child.pipeStdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
              detached: true,
            }),
      // spawnSandboxed releases its bookkeeping itself; the PTY path has to do it on exit.
      release: request.tty ? () => releaseSandboxSpawn(prepared) : undefined,
    };
  }
}
