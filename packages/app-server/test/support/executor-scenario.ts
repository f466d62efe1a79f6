// A scenario with remote executors: each test gets a mock Responses server, a home whose config.toml
// points at it, real `skein-exec-server` children and a stdio client of the app-server binary; all
// are stopped after the test.
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { mockProviderConfigToml, startMockResponsesServer, type AppServerTestClient, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach } from 'vitest';
import { makeHome, spawnStdioClient, type TestHome } from './app-server-harness.js';
import { startExecServer, type ExecServerChild } from './exec-servers.js';

/** One test's model, home, executors and client. */
export interface ExecutorScenario {
  readonly model: MockResponsesServer;
  readonly home: TestHome;
  /** Starts an exec-server in a folder `name` beside the workspace (its HOME is that folder), optionally under a wrapper command. */
  startExecutor(name: string, wrap?: (root: string) => readonly string[]): Promise<ExecServerChild>;
  /** Spawns the app-server over stdio and initializes a client with the experimental API. */
  connect(): Promise<AppServerTestClient>;
}

/** Registers the hooks; call the returned function inside a test for its scenario. */
export function useExecutorScenario(): () => ExecutorScenario {
  let scenario: ExecutorScenario | undefined;
  let model: MockResponsesServer | undefined;
  let home: TestHome | undefined;
  const children: ChildProcess[] = [];
  const clients: AppServerTestClient[] = [];
  beforeEach(async () => {
    const started = await startMockResponsesServer();
    const made = makeHome(mockProviderConfigToml(started.url));
    model = started;
    home = made;
    scenario = {
      model: started,
      home: made,
      startExecutor: (name, wrap) => startExecServer(path.dirname(made.workspace), name, children, wrap),
      async connect() {
        const client = spawnStdioClient(made);
        clients.push(client);
        await client.initialize({ capabilities: { experimentalApi: true } });
        return client;
      },
    };
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill();
    await model?.close();
    home?.cleanup();
    scenario = undefined;
  });
  return () => {
    if (scenario === undefined) throw new Error('the executor scenario exists only inside a test');
    return scenario;
  };
}
