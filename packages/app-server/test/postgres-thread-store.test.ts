// Several app-servers on one PostgreSQL thread store (issue #44): real server processes, a real
// database, the mock model. A thread started on one host is resumed on another once the first is
// killed and its lease lapsed; two hosts never write one thread; concurrent turns on both hosts
// lose nothing; a database that goes away fails the turn it broke, and the next turn works.
import {
  TcpRelay,
  assistantMessage,
  completed,
  createTestDatabase,
  mockProviderConfigToml,
  postgresSkipReason,
  sse,
  startMockResponsesServer,
  type AppServerTestClient,
  type MockResponsesServer,
  type TestDatabase,
} from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, spawnStdioClient, type TestHome } from './support/app-server-harness.js';

const text = (value: string) => [{ type: 'text', text: value, text_elements: [] }];
const LEASE_SECS = 2;

type Host = ReturnType<typeof spawnStdioClient>;

/** A request's refusal, or undefined when it was answered. */
const refusalOf = (request: Promise<unknown>): Promise<(Error & { rpcCode?: number }) | undefined> => request.then(() => undefined, (error: Error & { rpcCode?: number }) => error);

describe.skipIf(postgresSkipReason() !== undefined)('app-servers sharing a PostgreSQL thread store', () => {
  let database: TestDatabase;
  let model: MockResponsesServer;
  const homes: TestHome[] = [];
  const clients: Host[] = [];

  beforeEach(async () => {
    database = await createTestDatabase();
    model = await startMockResponsesServer();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
    try {
      await model.close();
    } finally {
      for (const home of homes.splice(0)) home.cleanup();
      await database.drop();
    }
  });

  /** A host: its own home (its own machine's), the shared database at `url`. */
  async function host(hostId: string, url = database.url): Promise<Host> {
    const home = makeHome(
      `sandbox_mode = "danger-full-access"\napproval_policy = "never"\n${mockProviderConfigToml(model.url)}\n[skein.thread_store]\nkind = "postgres"\nhost_id = "${hostId}"\nlease_secs = ${LEASE_SECS}\n`,
    );
    homes.push(home);
    const client = spawnStdioClient({ ...home, env: { ...home.env, SKEIN_DATABASE_URL: url } });
    clients.push(client);
    await client.initialize();
    return client;
  }

  async function turn(client: AppServerTestClient, threadId: string, prompt: string): Promise<{ status: string; error: { message: string } | null }> {
    const started = (await client.request('turn/start', { threadId, input: text(prompt) })) as { turn: { id: string } };
    const done = (await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === started.turn.id, 30_000)) as { turn: { status: string; error: { message: string } | null } };
    return done.turn;
  }

  const userTexts = (input: unknown): string[] =>
    (input as { type: string; role?: string; content?: { text?: string }[] }[])
      .filter((item) => item.type === 'message' && item.role !== 'developer')
      .map((item) => item.content?.map((part) => part.text ?? '').join('') ?? '')
      .filter((value) => !value.startsWith('<'));

  it('resumes on host B, after its lease lapsed, a thread whose host A was killed', async () => {
    model.expect([sse(assistantMessage('The port is 8080.'), completed()), sse(assistantMessage('It was 8080.'), completed())]);
    const a = await host('host-a');
    const { thread } = (await a.request('thread/start', { cwd: homes[0]!.workspace })) as { thread: { id: string; path: string | null } };
    expect(thread.path).toBeNull();
    expect((await turn(a, thread.id, 'Which port does the server use?')).status).toBe('completed');
    const exited = new Promise((resolve) => a.process.once('exit', resolve));
    a.process.kill('SIGKILL');
    await exited;

    const b = await host('host-b');
    // A's lease still runs: B is told who holds the thread.
    const refused = await refusalOf(b.request('thread/resume', { threadId: thread.id }));
    expect(refused?.rpcCode).toBe(-32600);
    expect(refused?.message).toContain('being written by host host-a');
    // Once A's lease lapsed (A renews it no more), B takes the thread over.
    await expect.poll(async () => b.request('thread/resume', { threadId: thread.id }).then(() => 'resumed', (error: Error) => error.message), { timeout: (LEASE_SECS + 5) * 1000, interval: 250 }).toBe('resumed');
    expect((await turn(b, thread.id, 'And what was it again?')).status).toBe('completed');
    // The request B sent carries A's turn whole.
    expect(userTexts(model.requests[1]!.body!.input)).toEqual(['Which port does the server use?', 'The port is 8080.', 'And what was it again?']);
    const listed = (await b.request('thread/list', {})) as { data: { id: string; preview: string }[] };
    expect(listed.data.map((listedThread) => [listedThread.id, listedThread.preview])).toEqual([[thread.id, 'Which port does the server use?']]);
  });

  it('gives a thread to exactly one of two hosts racing to resume it', async () => {
    const a = await host('host-a');
    const { thread } = (await a.request('thread/start', { cwd: homes[0]!.workspace })) as { thread: { id: string } };
    // Materialized by a turn, then let go by A (its subscription ends, so the thread unloads).
    model.expect([sse(assistantMessage('ok'), completed())]);
    await turn(a, thread.id, 'hello');
    await a.close();
    const [b, c] = await Promise.all([host('host-b'), host('host-c')]);
    const outcomes = await Promise.allSettled([b.request('thread/resume', { threadId: thread.id }), c.request('thread/resume', { threadId: thread.id })]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refusal = outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult;
    const reason = refusal.reason as Error & { rpcCode?: number };
    expect(reason.rpcCode).toBe(-32600);
    expect(reason.message).toMatch(/being written by host host-[bc]/);
  });

  it('runs turns on 20 threads over two hosts at once and keeps every one whole', async () => {
    model.expect(Array.from({ length: 20 }, (_, index) => sse(assistantMessage(`answer ${index}`), completed())));
    const hosts = await Promise.all([host('host-a'), host('host-b')]);
    const threads = await Promise.all(
      Array.from({ length: 20 }, async (_, index) => {
        const client = hosts[index % 2]!;
        const { thread } = (await client.request('thread/start', { cwd: homes[index % 2]!.workspace })) as { thread: { id: string } };
        return { client, threadId: thread.id, prompt: `question ${index}` };
      }),
    );
    const outcomes = await Promise.all(threads.map(({ client, threadId, prompt }) => turn(client, threadId, prompt)));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(Array(20).fill('completed'));
    // Each host sees all 20, each with its turn whole (read by the other host).
    const listed = (await hosts[0].request('thread/list', { limit: 50 })) as { data: { id: string }[] };
    expect(new Set(listed.data.map((listedThread) => listedThread.id))).toEqual(new Set(threads.map((entry) => entry.threadId)));
    for (const [index, { threadId, prompt }] of threads.entries()) {
      const reader = hosts[(index + 1) % 2]!;
      const read = (await reader.request('thread/read', { threadId, includeTurns: true })) as { thread: { preview: string; turns: { status: string; items: { type: string }[] }[] } };
      expect(read.thread.preview).toBe(prompt);
      expect(read.thread.turns.map((recorded) => [recorded.status, recorded.items.map((item) => item.type)])).toEqual([['completed', ['userMessage', 'agentMessage']]]);
    }
  });

  it('fails the turn the database broke, writes nothing half, and runs the next turn once it is back', async () => {
    const target = new URL(database.url);
    const relay = await TcpRelay.start({ host: target.hostname, port: Number(target.port) });
    const relayed = new URL(database.url);
    relayed.port = String(relay.port);
    try {
      model.expect([sse(assistantMessage('first answer'), completed()), sse(assistantMessage('third answer'), completed())]);
      const a = await host('host-a', relayed.toString());
      const { thread } = (await a.request('thread/start', { cwd: homes[0]!.workspace })) as { thread: { id: string } };
      expect((await turn(a, thread.id, 'first')).status).toBe('completed');

      await relay.cut();
      const broken = await turn(a, thread.id, 'second');
      expect(broken.status).toBe('failed');
      expect(broken.error?.message).toMatch(/database/);
      // The model was never asked: what it would have been sent was not kept.
      expect(model.requests).toHaveLength(1);

      await relay.restore();
      expect((await turn(a, thread.id, 'third')).status).toBe('completed');
      expect(userTexts(model.requests[1]!.body!.input)).toEqual(['first', 'first answer', 'second', 'third']);
      // Another host reads the whole thread back: every turn, in order, none half.
      const b = await host('host-b');
      const read = (await b.request('thread/read', { threadId: thread.id, includeTurns: true })) as { thread: { turns: { status: string }[] } };
      expect(read.thread.turns.map((recorded) => recorded.status)).toEqual(['completed', 'failed', 'completed']);
    } finally {
      await relay.cut();
    }
  });
});
