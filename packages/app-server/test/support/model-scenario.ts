// A scenario against the mock model: each test gets a mock Responses server and a home whose
// config.toml points at it, and may open an in-process app-server with an initialized client; all
// are closed after the test.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { mockProviderConfigToml, startMockResponsesServer, type AppServerTestClient, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach } from 'vitest';
import { makeHome, startInProcess, threadsOn, type InProcessServer, type TestHome } from './app-server-harness.js';

/** One test's model, home, and (once opened) server and client. */
export interface ModelScenario {
  readonly model: MockResponsesServer;
  readonly home: TestHome;
  /** Rewrites config.toml: `before` (top-level keys) and `after` (tables) around the mock provider's entry. */
  configure(parts: { readonly before?: string; readonly after?: string }): void;
  /** Starts an in-process server over the home and connects an initialized stdio client. */
  connect(): Promise<AppServerTestClient>;
  /** Starts another in-process server over the home (a restart), closed after the test. */
  startServer(): Promise<InProcessServer>;
  /** Connects an initialized stdio client to `server`, closed after the test. */
  connectTo(server: InProcessServer): Promise<AppServerTestClient>;
  /** Starts a read-only thread in the workspace that never asks for approval, and waits for `thread/started`. */
  startThread(client: AppServerTestClient, params?: Record<string, unknown>): Promise<string>;
}

/** Registers the hooks; call the returned function inside a test for its scenario. */
export function useModelScenario(): () => ModelScenario {
  let scenario: ModelScenario | undefined;
  const servers: InProcessServer[] = [];
  const clients: AppServerTestClient[] = [];
  beforeEach(async () => {
    const model = await startMockResponsesServer();
    const home = makeHome(mockProviderConfigToml(model.url));
    const startServer = async () => {
      const server = await startInProcess(home, { threads: threadsOn(home) });
      servers.push(server);
      return server;
    };
    const connectTo = async (server: InProcessServer) => {
      const client = await server.connect('stdio');
      clients.push(client);
      await client.initialize();
      return client;
    };
    scenario = {
      model,
      home,
      configure: ({ before = '', after = '' }) => writeFileSync(path.join(home.home, 'config.toml'), `${before}${mockProviderConfigToml(model.url)}${after}`),
      startServer,
      connectTo,
      connect: async () => connectTo(await startServer()),
      async startThread(client, params = {}) {
        const { thread } = (await client.request('thread/start', { cwd: home.workspace, approvalPolicy: 'never', sandbox: 'read-only', ...params })) as { thread: { id: string } };
        await client.waitFor('thread/started', (started) => (started as { thread: { id: string } }).thread.id === thread.id);
        return thread.id;
      },
    };
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
    for (const server of servers.splice(0)) await server.close();
    const ended = scenario;
    scenario = undefined;
    if (ended === undefined) return;
    try {
      await ended.model.close();
    } finally {
      ended.home.cleanup();
    }
  });
  return () => {
    if (scenario === undefined) throw new Error('the model scenario exists only inside a test');
    return scenario;
  };
}
