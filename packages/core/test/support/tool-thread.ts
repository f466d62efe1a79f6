// A thread with a real local environment (bubblewrap sandbox when usable) and a scripted client, for
// tests of the built-in tools against the mock model server, built with the shared test-thread
// builder (`src/testing`).
import type { ExtensionRegistry } from '@skein/extension-api';
import { LocalFileSystem, LocalProcesses, PlatformSandbox, SandboxedFileSystem } from '@skein/exec-server';
import type { MockResponsesServer } from '@skein/test-support';
import { createTestWorkspace, startTestThread } from '../../src/testing/index.js';
import {
  type ClientRequests,
  type CommandApprovalDecision,
  type CommandApprovalRequest,
  type CoreEvent,
  type FileChangeApprovalDecision,
  type FileChangeApprovalRequest,
  type ThreadEnvironment,
  type ThreadHandle,
  type ThreadManagerOptions,
  type UserInputAnswers,
  type UserInputRequest,
} from '../../src/index.js';

/** A client that answers each question with the next scripted answer and remembers what it was asked. */
export class ScriptedClient implements ClientRequests {
  readonly commandRequests: CommandApprovalRequest[] = [];
  readonly patchRequests: FileChangeApprovalRequest[] = [];
  readonly inputRequests: UserInputRequest[] = [];
  constructor(
    private readonly script: {
      readonly commands?: CommandApprovalDecision[];
      readonly patches?: FileChangeApprovalDecision[];
      readonly answers?: UserInputAnswers[];
    } = {},
  ) {}
  requestCommandApproval(request: CommandApprovalRequest): Promise<CommandApprovalDecision> {
    this.commandRequests.push(request);
    return next(this.script.commands, `approval request for ${request.command}`);
  }
  requestFileChangeApproval(request: FileChangeApprovalRequest): Promise<FileChangeApprovalDecision> {
    this.patchRequests.push(request);
    return next(this.script.patches, 'patch approval request');
  }
  requestUserInput(request: UserInputRequest): Promise<UserInputAnswers> {
    this.inputRequests.push(request);
    return next(this.script.answers, 'user input request');
  }
}

function next<T>(queue: T[] | undefined, what: string): Promise<T> {
  const answer = queue?.shift();
  return answer === undefined ? Promise.reject(new Error(`unexpected ${what}`)) : Promise.resolve(answer);
}

/** Scratch directories: `cwd` (the workspace), `outside` (not writable under workspace-write), `home`. */
export interface ToolThreadFixture {
  readonly scratch: string;
  readonly cwd: string;
  readonly outside: string;
  readonly home: string;
  /** The machine's environment with the sandbox, closed at cleanup. */
  localEnvironment(): ThreadEnvironment;
  /** Starts a thread under `approval_policy = <policy>` (a TOML value). */
  openThread(
    policy: string,
    client: ClientRequests | undefined,
    options?: {
      readonly sandbox?: string;
      readonly environment?: ThreadEnvironment | null;
      readonly overrides?: readonly string[];
      readonly configEnv?: Readonly<Record<string, string>>;
      readonly extensions?: ExtensionRegistry;
      readonly turnHooks?: ThreadManagerOptions['turnHooks'];
    },
  ): Promise<{ thread: ThreadHandle; events: CoreEvent[] }>;
  /** Runs the cleanups registered so far, newest first, and removes the scratch directory. */
  cleanup(): Promise<void>;
  /** Registers something to close at cleanup. */
  defer(cleanup: () => Promise<void> | void): void;
}

/** The shared test-thread builder (`@skein/core/testing`) with this file's approval and sandbox settings. */
export function toolThreadFixture(server: MockResponsesServer): ToolThreadFixture {
  const workspace = createTestWorkspace();
  const localEnvironment = (): ThreadEnvironment => {
    const processes = new LocalProcesses({ sandbox: new PlatformSandbox() });
    workspace.defer(() => processes.close());
    return {
      fileSystem: new LocalFileSystem({ sandboxed: new SandboxedFileSystem({ fallbackCwd: workspace.workspace, hostEnv: process.env }) }),
      processes,
      env: { PATH: process.env.PATH, HOME: workspace.home },
      shell: '/bin/bash',
    };
  };
  return {
    scratch: workspace.scratch,
    cwd: workspace.workspace,
    outside: workspace.outside,
    home: workspace.home,
    localEnvironment,
    defer: (cleanup) => workspace.defer(cleanup),
    async openThread(policy, client, options = {}) {
      const { thread, events } = await startTestThread(workspace, {
        modelUrl: server.url,
        hostEnv: process.env,
        overrides: [
          `approval_policy=${policy}`,
          `sandbox_mode="${options.sandbox ?? 'workspace-write'}"`,
          // The scratch directory is under /tmp; keep /tmp read-only so "outside" really is.
          'sandbox_workspace_write.exclude_slash_tmp=true',
          'sandbox_workspace_write.exclude_tmpdir_env_var=true',
          ...(options.overrides ?? []),
        ],
        ...(options.configEnv === undefined ? {} : { configEnv: options.configEnv }),
        environment: options.environment === null ? 'none' : (options.environment ?? 'local'),
        clientRequests: client,
        ...(options.extensions === undefined ? {} : { extensions: options.extensions }),
        ...(options.turnHooks === undefined ? {} : { turnHooks: options.turnHooks }),
      });
      return { thread, events };
    },
    cleanup: () => workspace.close(),
  };
}

/** A user turn's input. */
export const say = (text: string) => [{ type: 'text' as const, text, text_elements: [] }];

/** A tool definition without its prose, which is ours rather than Codex's. */
export function withoutDescriptions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDescriptions);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'description').map(([key, inner]) => [key, withoutDescriptions(inner)]));
}
