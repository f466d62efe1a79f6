// The shared test-thread builder (Skein's TestCodexBuilder): a scratch home and workspace, config
// that points at the mock model, a thread registry over a real rollout store, and an environment —
// this machine (sandboxed), a real exec-server over WebSocket, or none — so scenario tests in any
// package start from the same place. Tests pass the mock model's URL: test-support owns the model,
// this owns the engine.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '@skein/config';
import { ExecServer, LocalFileSystem, LocalProcesses, PlatformSandbox, SandboxedFileSystem, connectExecServer } from '@skein/exec-server';
import { ExtensionRegistryBuilder, type ExtensionRegistry } from '@skein/extension-api';
import { listenWebSocket } from '@skein/json-rpc';
import { FileThreadStore } from '@skein/rollout';
import type { ClientRequests } from '../session/client-requests.js';
import type { ThreadEnvironment } from '../session/thread-environment.js';
import type { ThreadHandle } from '../thread-handle.js';
import { ThreadManager, type ThreadManagerOptions } from '../thread-manager.js';
import type { CoreEvent } from '../turn/core-event.js';

/** Where a test thread's tools act: this machine (sandboxed), an exec-server in this process over WebSocket, none, or one the test made. */
export type TestEnvironmentKind = 'local' | 'remote' | 'none' | ThreadEnvironment;

/** A scratch home, workspace and outside directory, and the cleanups of what was built in them. */
export interface TestWorkspace {
  /** The scratch root (removed by `close`). */
  readonly scratch: string;
  /** `$CODEX_HOME`. */
  readonly home: string;
  /** The threads' cwd. */
  readonly workspace: string;
  /** A directory beside the workspace, not writable under workspace-write. */
  readonly outside: string;
  /** Registers something to close with the workspace (closed newest first). */
  defer(cleanup: () => Promise<void> | void): void;
  /** Closes everything built here and removes the scratch directory. */
  close(): Promise<void>;
}

/** What a test thread is built from; everything but the model's URL and the host environment has a default. */
export interface TestThreadOptions {
  /** The mock model's base URL (`MockResponsesServer.url`). */
  readonly modelUrl: string;
  /** The host environment commands inherit (tests pass `process.env`). */
  readonly hostEnv: Readonly<Record<string, string | undefined>>;
  /** `-c` style overrides after the mock provider's (e.g. `approval_policy="never"`). */
  readonly overrides?: readonly string[];
  /** The environment config is loaded with (e.g. `CODEX_OSS_BASE_URL`); default none. */
  readonly configEnv?: Readonly<Record<string, string>>;
  /** Default `local`. */
  readonly environment?: TestEnvironmentKind;
  readonly extensions?: ExtensionRegistry;
  readonly turnHooks?: ThreadManagerOptions['turnHooks'];
  readonly clientRequests?: ClientRequests | undefined;
  /** The clock threads read (a fake one, for time-dependent context); default the system's. */
  readonly clock?: ThreadManagerOptions['clock'];
  /** Whether an active goal keeps the thread working with turns of its own (as in the app-server). */
  readonly continueGoals?: boolean;
}

/** A started test thread: its registry, and the thread with every event it emitted. */
export interface TestThread {
  readonly config: Config;
  readonly manager: ThreadManager;
  readonly thread: ThreadHandle;
  readonly events: CoreEvent[];
  readonly environment: ThreadEnvironment | undefined;
  /** A registry over the same home, as a new process would build it (for resume across restarts). */
  newManager(): Promise<ThreadManager>;
}

/** The provider entry every test thread uses: the mock model, no retries, no key, and gpt-5.5 (direct tools) unless the test's overrides name another. */
export function mockProviderOverrides(modelUrl: string): string[] {
  return [`model_providers.mock={ name = "Mock", base_url = "${modelUrl}", request_max_retries = 0 }`, 'model_provider=mock', 'model="gpt-5.5"'];
}

/** Makes the scratch directories a test's threads live in. */
export function createTestWorkspace(): TestWorkspace {
  const scratch = realpathSync(mkdtempSync(path.join(tmpdir(), 'skein-test-thread-')));
  const [home, workspace, outside] = ['home', 'work', 'outside'].map((name) => path.join(scratch, name)) as [string, string, string];
  for (const dir of [home, workspace, outside]) mkdirSync(dir);
  const cleanups: (() => Promise<void> | void)[] = [];
  return {
    scratch,
    home,
    workspace,
    outside,
    defer: (cleanup) => cleanups.push(cleanup),
    async close() {
      try {
        for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
    },
  };
}

/** Starts a thread in `workspace`: config for the mock model, a registry over a real store, the environment asked for. */
export async function startTestThread(workspace: TestWorkspace, options: TestThreadOptions): Promise<TestThread> {
  const { config } = await loadConfig({ cwd: workspace.workspace, env: options.configEnv ?? {}, homeDir: workspace.home, overrides: [...mockProviderOverrides(options.modelUrl), ...(options.overrides ?? [])] });
  const environment = await testEnvironment(options.environment ?? 'local', workspace, options.hostEnv);
  const extensions = options.extensions ?? new ExtensionRegistryBuilder().build();
  const newManager = async () => {
    // The store must know the extensions' fragments, as a host's does, to tell them from user turns.
    const store = await FileThreadStore.open({ home: workspace.home, contextFragments: extensions.contextFragments });
    workspace.defer(() => store.close());
    const manager = new ThreadManager({
      store,
      config,
      extensions,
      env: {},
      host: { shell: 'bash', timezone: 'Etc/UTC' },
      originator: 'skein_test',
      source: 'exec',
      // Started by a user, as `skein exec`'s threads are.
      threadSource: 'user',
      cliVersion: '0.0.0',
      ...(environment === undefined ? {} : { environment }),
      ...(options.turnHooks === undefined ? {} : { turnHooks: options.turnHooks }),
      ...(options.clock === undefined ? {} : { clock: options.clock }),
      ...(options.continueGoals === undefined ? {} : { continueGoals: options.continueGoals }),
    });
    workspace.defer(() => manager.closeAll());
    return manager;
  };
  const manager = await newManager();
  const events: CoreEvent[] = [];
  const thread = await manager.start({ onEvent: (event) => events.push(event), clientRequests: options.clientRequests });
  return { config, manager, thread, events, environment, newManager };
}

async function testEnvironment(kind: TestEnvironmentKind, workspace: TestWorkspace, hostEnv: Readonly<Record<string, string | undefined>>): Promise<ThreadEnvironment | undefined> {
  if (typeof kind === 'object') return kind;
  // Commands see only what a test needs: the host's PATH and a home of their own.
  const env = { PATH: hostEnv.PATH, HOME: workspace.home };
  const fileSystem = () => new LocalFileSystem({ sandboxed: new SandboxedFileSystem({ fallbackCwd: workspace.workspace, hostEnv }) });
  switch (kind) {
    case 'none':
      return undefined;
    case 'local': {
      const processes = new LocalProcesses({ sandbox: new PlatformSandbox() });
      workspace.defer(() => processes.close());
      return { fileSystem: fileSystem(), processes, env, shell: '/bin/bash' };
    }
    case 'remote': {
      const sandbox = new PlatformSandbox();
      const server = new ExecServer({ fileSystem: fileSystem(), createProcesses: () => new LocalProcesses({ sandbox }), cwd: workspace.workspace, hostEnv });
      const listener = await listenWebSocket({ host: '127.0.0.1', port: 0, server });
      workspace.defer(() => listener.close());
      const remote = await connectExecServer({ url: listener.url });
      workspace.defer(() => remote.close());
      return { id: 'remote', fileSystem: remote.fileSystem, processes: remote.processes, env, shell: '/bin/bash' };
    }
  }
}
