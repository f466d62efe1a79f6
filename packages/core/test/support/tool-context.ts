// A ToolContext for unit tests of one tool: a real filesystem as the environment, approvals that let
// everything run (or a scripted answer), and a dispatch that refuses (no router behind it).
import type { Authorization, ToolApprovals, ToolContext, ToolEnvironment } from '@skein/extension-api';
import type { ExecutorFileSystem, ExecutorProcesses, FileSystemSandboxContext } from '@skein/exec-server';
import type { PathUri } from '@skein/protocol';

/** The parts of a context a test sets; the rest gets defaults. */
export interface TestToolContextOptions {
  readonly callId?: string;
  readonly turnId?: string;
  readonly signal?: AbortSignal;
  readonly fs?: ExecutorFileSystem;
  readonly processes?: ExecutorProcesses;
  readonly cwd?: PathUri;
  readonly sandbox?: FileSystemSandboxContext | null;
  /** Replaces the approval layer (default: everything runs, confined). */
  readonly approvals?: Partial<ToolApprovals>;
  /** Without a filesystem or cwd there is no environment. */
  readonly noEnvironment?: boolean;
}

const runConfined: Authorization = { type: 'run', sandboxed: true };

/** A context for calling `handle` directly. */
export function testToolContext(options: TestToolContextOptions = {}): ToolContext {
  const environment: ToolEnvironment | undefined =
    options.noEnvironment === true || options.fs === undefined || options.cwd === undefined
      ? undefined
      : {
          id: 'local',
          fileSystem: options.fs,
          processes: options.processes ?? unavailableProcesses,
          cwd: options.cwd,
          os: 'linux',
          pathConvention: options.cwd.convention,
          sandboxPolicy: { type: 'danger-full-access' },
          sandbox: options.sandbox ?? null,
        };
  return {
    callId: options.callId ?? 'call-1',
    turnId: options.turnId ?? 'turn-1',
    signal: options.signal ?? new AbortController().signal,
    environment,
    approvals: {
      command: () => Promise.resolve(runConfined),
      retryWithoutSandbox: () => Promise.resolve(undefined),
      patch: () => Promise.resolve(runConfined),
      ...options.approvals,
    },
    dispatch: (name) => Promise.reject(new Error(`no router in this test; cannot dispatch ${name}`)),
    progress: () => undefined,
  };
}

/** Processes for tests whose tool never starts one. */
const unavailableProcesses = new Proxy({} as ExecutorProcesses, {
  get: (_, property) => () => Promise.reject(new Error(`this test has no processes (called ${String(property)})`)),
});
