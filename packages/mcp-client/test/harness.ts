// What the scenario tests share: clients and HTTP fixtures closed after each test, and the typed
// error a promise rejected with.
import { afterEach } from 'vitest';
import { McpClientError, McpClient } from '../src/index.js';
import { startHttpFixture } from './http-fixture.js';
import type { HttpFixture } from './http-fixture.js';

/** Call at a test file's top level: what `connect` and `http` open is closed after each test. */
export function closedAfterEach(): {
  connect: (...args: Parameters<typeof McpClient.connect>) => Promise<McpClient>;
  http: (behaviour?: Parameters<typeof startHttpFixture>[0]) => Promise<HttpFixture>;
} {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((thing) => thing.close()));
  });
  const track = <T extends { close(): Promise<void> }>(thing: T): T => {
    open.push(thing);
    return thing;
  };
  return {
    connect: async (...args) => track(await McpClient.connect(...args)),
    http: async (behaviour) => track(await startHttpFixture(behaviour)),
  };
}

/** The McpClientError `promise` rejects with; anything else fails the test. */
export async function failure(promise: Promise<unknown>): Promise<McpClientError> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  if (!(error instanceof McpClientError)) throw new Error(`expected an McpClientError, got ${String(error)}`);
  return error;
}
