// LocalProcesses: ExecutorProcesses on this machine. Owns the table of one owner's processes, the
// per-owner bounds, and `close`, which leaves nothing running.
import { DEFAULT_RETAINED_OUTPUT_BYTES, MAX_RETAINED_EXITED_PROCESSES, MAX_RETAINED_OUTPUT_BYTES, MAX_RUNNING_PROCESSES } from '../limits.js';
import {
  ProcessError,
  type ExecutorProcesses,
  type ProcessEvent,
  type ProcessReadResult,
  type ProcessSignal,
  type ReadProcessOptions,
  type StartProcessParams,
  type StartProcessResult,
  type TerminalSize,
  type WriteStatus,
} from '../process-api.js';
import { sandboxConfinesProcess, type FileSystemSandboxContext } from '../sandbox-context.js';
import { FileSystemError, isSystemError, osErrorMessage } from '../file-system-error.js';
import { ManagedProcess } from './managed-process.js';
import { toNativePath } from './native-path.js';
import { resolveProgram } from './resolve-program.js';
import { startPipeChild, startPtyChild, type ChildSpec } from './spawn-child.js';
import type { ChildProcess } from 'node:child_process';
import type { PathUri } from '@skein/protocol/executor';

function nativeCwd(cwd: PathUri): string {
  try {
    return toNativePath(cwd);
  } catch (error) {
    if (error instanceof FileSystemError) throw new ProcessError('InvalidArgument', `cwd: ${error.message}`);
    throw error;
  }
}

/** A command turned into what to spawn under the sandbox. */
export interface SandboxedSpawn {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Reported as the start's `sandboxType` (`linuxSeccomp`, …). */
  readonly sandboxType: string;
  /** Spawns the pipe child when the sandbox needs more than plain `spawn` (extra file descriptors). */
  readonly spawnPipe?: ((spec: ChildSpec) => ChildProcess) | undefined;
  /** Releases sandbox bookkeeping once the process has exited. */
  readonly release?: (() => void) | undefined;
}

/** Confines processes; provided by the sandboxing integration. */
export interface ProcessSandbox {
  /**
   * Wraps `command` (its program already resolved to an absolute path) for `context`.
   * Throws ProcessError 'SandboxUnavailable' when confinement is impossible here.
   */
  prepare(request: {
    readonly context: FileSystemSandboxContext;
    readonly command: readonly string[];
    readonly cwd: string;
    readonly env: Readonly<Record<string, string>>;
    readonly tty: boolean;
  }): Promise<SandboxedSpawn>;
}

/** Options of {@link LocalProcesses}. */
export interface LocalProcessesOptions {
  /** Confines processes whose context asks for it; without one such starts fail with 'SandboxUnavailable'. */
  readonly sandbox?: ProcessSandbox | undefined;
}

/** The processes of one owner (a connection, a session), run on this machine. */
export class LocalProcesses implements ExecutorProcesses {
  private readonly processes = new Map<string, ManagedProcess>();
  private readonly listeners = new Set<(event: ProcessEvent) => void>();
  private closing = false;

  constructor(private readonly options: LocalProcessesOptions = {}) {}

  async start(params: StartProcessParams): Promise<StartProcessResult> {
    if (this.closing) throw new ProcessError('Closed', 'the process table is closed');
    if (params.envPolicy != null) throw new ProcessError('InvalidArgument', 'local processes take a complete `env`, not an `envPolicy`');
    const [program, ...args] = params.argv;
    if (program === undefined) throw new ProcessError('InvalidArgument', 'argv must not be empty');
    if (this.processes.has(params.processId)) {
      throw new ProcessError('ProcessExists', `process ${params.processId} already exists`);
    }
    const cap = params.outputByteCap ?? DEFAULT_RETAINED_OUTPUT_BYTES;
    if (!Number.isInteger(cap) || cap < 1 || cap > MAX_RETAINED_OUTPUT_BYTES) {
      throw new ProcessError('InvalidArgument', `outputByteCap must be an integer from 1 to ${MAX_RETAINED_OUTPUT_BYTES}`);
    }
    if (params.tty && params.arg0 != null && params.arg0 !== program) {
      throw new ProcessError('InvalidArgument', 'arg0 cannot be set for a tty process (the terminal library has no argv[0] override)');
    }
    const running = [...this.processes.values()].filter((process) => process.running).length;
    if (running >= MAX_RUNNING_PROCESSES) {
      throw new ProcessError('TooManyProcesses', `at most ${MAX_RUNNING_PROCESSES} processes may run at once; wait for one to exit or terminate one`);
    }

    const cwd = nativeCwd(params.cwd);
    const resolved = await resolveProgram(program, cwd, params.env);
    let spec: ChildSpec = {
      file: resolved,
      args,
      argv0: params.arg0 ?? program,
      cwd,
      env: params.env,
      tty: params.tty,
      pipeStdin: params.pipeStdin ?? false,
      size: params.size,
    };
    let sandboxType = 'none';
    let spawnPipe: SandboxedSpawn['spawnPipe'];
    let release: SandboxedSpawn['release'];
    const confined = sandboxConfinesProcess(params.sandbox);
    if (confined) {
      if (params.arg0 != null && params.arg0 !== program) {
        throw new ProcessError('InvalidArgument', 'arg0 cannot be set for a sandboxed process (the sandbox launcher sets argv[0])');
      }
      if (this.options.sandbox === undefined) {
        throw new ProcessError('SandboxUnavailable', 'this executor has no sandbox, so it refuses to run a confined process unconfined');
      }
      const wrapped = await this.options.sandbox.prepare({
        context: params.sandbox,
        command: [resolved, ...args],
        cwd,
        env: params.env,
        tty: params.tty,
      });
      spec = { ...spec, file: wrapped.file, args: wrapped.args, env: wrapped.env, argv0: undefined };
      sandboxType = wrapped.sandboxType;
      spawnPipe = wrapped.spawnPipe;
      release = wrapped.release;
    }

    if (this.processes.has(params.processId)) {
      // Another start took the id while this one was resolving its program.
      release?.();
      throw new ProcessError('ProcessExists', `process ${params.processId} already exists`);
    }
    const managed = new ManagedProcess(params.processId, cap, confined, (event) => this.publish(event));
    this.processes.set(params.processId, managed);
    try {
      managed.attach(params.tty ? await startPtyChild(spec, managed.events) : await startPipeChild(spec, managed.events, spawnPipe));
    } catch (error) {
      this.processes.delete(params.processId);
      release?.();
      if (isSystemError(error)) throw new ProcessError('SpawnFailed', `${osErrorMessage(error.code)}: ${program}`, error.code);
      throw error;
    }
    if (release !== undefined) void managed.finished.then(release);
    this.forgetOldExited();
    return { processId: params.processId, sandboxType };
  }

  async read(processId: string, options?: ReadProcessOptions): Promise<ProcessReadResult> {
    return this.get(processId).read(options);
  }

  // The methods below do their work synchronously; `async` turns a throw into a rejection.
  // eslint-disable-next-line @typescript-eslint/require-await
  async write(processId: string, chunk: Uint8Array): Promise<WriteStatus> {
    const process = this.processes.get(processId);
    if (process === undefined) return 'unknownProcess';
    const status = process.write(chunk);
    if (status === 'full') {
      throw new ProcessError('StdinFull', `process ${processId} has not read the input already sent; wait before writing more`);
    }
    return status;
  }

  /**
   * Ends the process's stdin (a PTY gets end-of-file). A local addition to ExecutorProcesses (the
   * exec-server protocol has no such call); an unknown handle is 'UnknownProcess'.
   */
  // eslint-disable-next-line @typescript-eslint/require-await
  async closeStdin(processId: string): Promise<void> {
    if (!this.get(processId).closeStdin()) throw new ProcessError('UnknownProcess', `process ${processId} is still starting`);
  }

  // eslint-disable-next-line @typescript-eslint/require-await
  async signal(processId: string, signal: ProcessSignal): Promise<void> {
    this.processes.get(processId)?.signal(signal);
  }

  // eslint-disable-next-line @typescript-eslint/require-await
  async terminate(processId: string): Promise<{ running: boolean }> {
    return { running: this.processes.get(processId)?.terminate() ?? false };
  }

  // eslint-disable-next-line @typescript-eslint/require-await
  async resize(processId: string, size: TerminalSize): Promise<void> {
    if (!this.get(processId).resize(size)) {
      throw new ProcessError('NotATerminal', `process ${processId} was not started with a tty`);
    }
  }

  subscribe(listener: (event: ProcessEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.closing = true;
    const running = [...this.processes.values()].filter((process) => process.running);
    for (const process of running) process.terminate();
    await Promise.all(running.map((process) => process.finished));
  }

  private get(processId: string): ManagedProcess {
    const process = this.processes.get(processId);
    if (process === undefined) throw new ProcessError('UnknownProcess', `unknown process id ${processId}`);
    return process;
  }

  private publish(event: ProcessEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  /** Forgets the oldest exited processes beyond the retention bound (Map order is start order). */
  private forgetOldExited(): void {
    let excess = [...this.processes.values()].filter((process) => !process.running).length - MAX_RETAINED_EXITED_PROCESSES;
    for (const [processId, process] of this.processes) {
      if (excess <= 0) return;
      if (!process.running) {
        this.processes.delete(processId);
        excess -= 1;
      }
    }
  }
}
