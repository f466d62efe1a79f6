// A thread with a real local environment (bubblewrap sandbox when usable) and a scripted client, for
// tests of the built-in tools against the mock model server.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '@skein/config';
import { ExtensionRegistryBuilder, type ExtensionRegistry } from '@skein/extension-api';
import { LocalFileSystem, LocalProcesses, PlatformSandbox, SandboxedFileSystem } from '@skein/exec-server';
import { ThreadStore } from '@skein/rollout';
import type { MockResponsesServer } from '@skein/test-support';
import {
  ThreadManager,
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
      readonly extensions?: ExtensionRegistry;
      readonly turnHooks?: ThreadManagerOptions['turnHooks'];
    },
  ): Promise<{ thread: ThreadHandle; events: CoreEvent[] }>;
  /** Runs the cleanups registered so far, newest first, and removes the scratch directory. */
  cleanup(): Promise<void>;
  /** Registers something to close at cleanup. */
  defer(cleanup: () => Promise<void> | void): void;
}

/** Creates the scratch directories and the thread factory for one test. */
export function toolThreadFixture(server: MockResponsesServer): ToolThreadFixture {
  const scratch = realpathSync(mkdtempSync(path.join(tmpdir(), 'skein-tools-')));
  const [cwd, outside, home] = ['work', 'outside', 'home'].map((name) => path.join(scratch, name)) as [string, string, string];
  for (const dir of [cwd, outside, home]) mkdirSync(dir);
  const cleanups: (() => Promise<void> | void)[] = [];
  const localEnvironment = (): ThreadEnvironment => {
    const processes = new LocalProcesses({ sandbox: new PlatformSandbox() });
    cleanups.push(() => processes.close());
    return {
      fileSystem: new LocalFileSystem({ sandboxed: new SandboxedFileSystem({ fallbackCwd: cwd, hostEnv: process.env }) }),
      processes,
      env: { PATH: process.env.PATH, HOME: home },
      shell: '/bin/bash',
    };
  };
  return {
    scratch,
    cwd,
    outside,
    home,
    localEnvironment,
    defer: (cleanup) => cleanups.push(cleanup),
    async openThread(policy, client, options = {}) {
      const { config } = await loadConfig({
        cwd,
        env: {},
        homeDir: home,
        overrides: [
          `model_providers.mock={ name = "Mock", base_url = "${server.url}", request_max_retries = 0 }`,
          'model_provider=mock',
          `approval_policy=${policy}`,
          `sandbox_mode="${options.sandbox ?? 'workspace-write'}"`,
          // The scratch directory is under /tmp; keep /tmp read-only so "outside" really is.
          'sandbox_workspace_write.exclude_slash_tmp=true',
          'sandbox_workspace_write.exclude_tmpdir_env_var=true',
          ...(options.overrides ?? []),
        ],
      });
      const store = await ThreadStore.open({ home });
      cleanups.push(() => store.close());
      const environment = options.environment === null ? undefined : (options.environment ?? localEnvironment());
      const manager = new ThreadManager({
        store,
        config,
        extensions: options.extensions ?? new ExtensionRegistryBuilder().build(),
        ...(options.turnHooks === undefined ? {} : { turnHooks: options.turnHooks }),
        env: {},
        host: { shell: 'bash', timezone: 'Etc/UTC' },
        originator: 'skein_test',
        source: 'exec',
        cliVersion: '0.0.0',
        ...(environment === undefined ? {} : { environment }),
      });
      const events: CoreEvent[] = [];
      const thread = await manager.start({ onEvent: (event) => events.push(event), clientRequests: client });
      cleanups.push(() => thread.close());
      return { thread, events };
    },
    async cleanup() {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

/** A user turn's input. */
export const say = (text: string) => [{ type: 'text' as const, text, text_elements: [] }];
