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
}

/** Registers the hooks; call the returned function inside a test for its scenario. */
export function useModelScenario(): () => ModelScenario {
  let scenario: ModelScenario | undefined;
  let server: InProcessServer | undefined;
  let client: AppServerTestClient | undefined;
  beforeEach(async () => {
    const model = await startMockResponsesServer();
    const home = makeHome(mockProviderConfigToml(model.url));
    scenario = {
      model,
      home,
      configure: ({ before = '', after = '' }) => writeFileSync(path.join(home.home, 'config.toml'), `${before}${mockProviderConfigToml(model.url)}${after}`),
      async connect() {
        server = await startInProcess(home, { threads: threadsOn(home) });
        client = await server.connect('stdio');
        await client.initialize();
        return client;
      },
    };
  });
  afterEach(async () => {
    await client?.close();
    await server?.close();
    client = undefined;
    server = undefined;
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
