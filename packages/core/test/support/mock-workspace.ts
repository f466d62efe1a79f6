// The set-up most core scenario tests share: a mock Responses server and scratch directories for
// each test, closed after it.
import { startMockResponsesServer, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../../src/testing/index.js';

/** What each test of a file gets; read it inside tests (it is replaced before each one). */
export interface MockWorkspace {
  readonly server: MockResponsesServer;
  readonly workspace: TestWorkspace;
}

/** Registers the hooks that give each test of the calling file a fresh mock server and workspace. */
export function useMockWorkspace(): MockWorkspace {
  const current: { server?: MockResponsesServer; workspace?: TestWorkspace } = {};
  beforeEach(async () => {
    current.server = await startMockResponsesServer();
    current.workspace = createTestWorkspace();
  });
  afterEach(async () => {
    await current.workspace?.close();
    await current.server?.close();
  });
  return {
    get server() {
      if (current.server === undefined) throw new Error('the mock server exists only inside a test');
      return current.server;
    },
    get workspace() {
      if (current.workspace === undefined) throw new Error('the workspace exists only inside a test');
      return current.workspace;
    },
  };
}
