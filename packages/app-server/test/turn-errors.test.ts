// A failed model request as clients see it (issue #35): the `error` notification and the failed
// turn carry `codexErrorInfo` as Codex 0.171.0 classifies it (probed against the same mock
// answers), and a thread read back after a restart keeps it. The mock model is the only fake.
import { failed, httpError, mockProviderConfigToml, sse, startMockResponsesServer, type AppServerTestClient, type MockResponsesServer, type ScriptedResponse } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, startInProcess, threadsOn, type InProcessServer, type TestHome } from './support/app-server-harness.js';

let model: MockResponsesServer;
let home: TestHome;
const servers: InProcessServer[] = [];
const clients: AppServerTestClient[] = [];

beforeEach(async () => {
  model = await startMockResponsesServer();
  home = makeHome(mockProviderConfigToml(model.url));
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const server of servers.splice(0)) await server.close();
  try {
    await model.close();
  } finally {
    home.cleanup();
  }
});

async function connect(): Promise<AppServerTestClient> {
  const server = await startInProcess(home, { threads: threadsOn(home) });
  servers.push(server);
  const client = await server.connect('stdio');
  clients.push(client);
  await client.initialize({ capabilities: { experimentalApi: true } });
  return client;
}

// Codex 0.171.0's classification of each answer (request_max_retries = 0, as the mock config sets).
const CASES: [string, ScriptedResponse, unknown][] = [
  ['HTTP 500', httpError(500), 'internalServerError'],
  ['HTTP 401', httpError(401), { httpConnectionFailed: { httpStatusCode: 401 } }],
  ['HTTP 404', httpError(404), { httpConnectionFailed: { httpStatusCode: 404 } }],
  ['HTTP 503', httpError(503), { httpConnectionFailed: { httpStatusCode: 503 } }],
  ['HTTP 400', httpError(400), 'other'],
  ['HTTP 429', httpError(429), { responseTooManyFailedAttempts: { httpStatusCode: 429 } }],
  ['a failed stream', sse(failed('server_error', 'boom')), 'other'],
  ['a rate-limited stream', sse(failed('rate_limit_exceeded', 'slow down')), 'rateLimitExceeded'],
  ['a context overflow', sse(failed('context_length_exceeded', 'too long')), 'contextWindowExceeded'],
];

describe('codexErrorInfo', () => {
  it('classifies each failure as Codex does, live and once the thread is read back after a restart', async () => {
    model.expect(CASES.map(([, response]) => response));
    let client = await connect();
    const { thread } = (await client.request('thread/start', { cwd: home.workspace })) as { thread: { id: string } };
    const live: unknown[] = [];
    for (const [what] of CASES) {
      const { turn } = (await client.request('turn/start', { threadId: thread.id, input: [{ type: 'text', text: what, text_elements: [] }] })) as { turn: { id: string } };
      const done = (await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === turn.id)) as { turn: { status: string; error: { codexErrorInfo: unknown } } };
      const error = client.notificationsOf('error').at(-1) as { turnId: string; error: { codexErrorInfo: unknown } };
      expect({ what, status: done.turn.status, notified: error.turnId === turn.id ? error.error.codexErrorInfo : 'no error notification' }).toEqual({ what, status: 'failed', notified: done.turn.error.codexErrorInfo });
      live.push(done.turn.error.codexErrorInfo);
    }
    expect(live).toEqual(CASES.map(([, , info]) => info));
    expect(client.schemaFailures).toEqual([]);

    await client.close();
    clients.splice(0);
    await servers.pop()?.close();
    client = await connect();
    const { data } = (await client.request('thread/turns/list', { threadId: thread.id, sortDirection: 'asc' })) as { data: { status: string; error: { codexErrorInfo: unknown } | null }[] };
    expect(data.map((turn) => [turn.status, turn.error?.codexErrorInfo])).toEqual(CASES.map(([, , info]) => ['failed', info]));
    expect(client.schemaFailures).toEqual([]);
  });
});
