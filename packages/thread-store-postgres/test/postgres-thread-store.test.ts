// The PostgreSQL store on a real database: what the file store does (write, read back, list, search,
// fork, archive, delete), leases between hosts, and a database that goes away mid-turn.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { RolloutError } from '@skein/rollout';
import { PostgresThreadStore, SCHEMA_VERSION } from '../src/index.js';
import { TcpRelay, createTestDatabase, postgresSkipReason, type TestDatabase } from '@skein/test-support';
import { newThreadMeta, userTurn } from './support/rollout-items.js';

describe.skipIf(postgresSkipReason() !== undefined)('PostgresThreadStore', () => {
  let database: TestDatabase;
  const stores: PostgresThreadStore[] = [];
  const open = async (hostId: string, url = database.url, leaseMs = 1000): Promise<PostgresThreadStore> => {
    const store = await PostgresThreadStore.open({ url, hostId, leaseMs, gitInfo: () => Promise.resolve(undefined) });
    stores.push(store);
    return store;
  };
  const sql = async (text: string, values: unknown[] = []): Promise<pg.QueryResult> => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      return await client.query(text, values);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });
  afterAll(async () => {
    await database.drop();
  });

  it('migrates once, even when two hosts open the store together', async () => {
    await Promise.all([open('a'), open('b')]);
    const { rows } = await sql('SELECT version FROM skein_schema_migrations ORDER BY version');
    expect(rows.map((row: { version: number }) => row.version)).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, index) => index + 1));
  });

  it('writes a thread, reads it back, lists, searches and forks it', async () => {
    const store = await open('a');
    const writer = await store.createThread({ meta: newThreadMeta });
    await writer.append(...userTurn('turn-1', 'Where is the config parsed?', 'In config/src/load.ts.'));
    await writer.append(...userTurn('turn-2', 'And the defaults?', 'In defaults.ts.'));
    await writer.close();

    const loaded = await store.loadThread(writer.threadId);
    expect(loaded.path).toBeNull();
    expect(loaded.meta.id).toBe(writer.threadId);
    expect(loaded.turns.map((turn) => turn.turnId)).toEqual(['turn-1', 'turn-2']);
    expect(loaded.problems).toEqual([]);

    const found = await store.find(writer.threadId);
    expect(found).toMatchObject({ id: writer.threadId, path: null, title: 'Where is the config parsed?', model: 'gpt-5.5', source: 'exec', archived: false });
    expect((await store.list()).data.map((thread) => thread.id)).toContain(writer.threadId);

    const hits = await store.search({ term: 'DEFAULTS' });
    expect(hits.data.map((hit) => [hit.summary.id, hit.message])).toEqual([[writer.threadId, 'And the defaults?']]);

    const fork = await store.forkThread(writer.threadId, { upTo: { turnId: 'turn-1' } });
    const forked = await store.loadThread(fork.id);
    expect(forked.meta.forked_from_id).toBe(writer.threadId);
    expect(forked.turns.map((turn) => turn.turnId)).toEqual(['turn-1']);
    expect(fork.title).toBe('Where is the config parsed?');
    expect((await store.search({ term: 'defaults', threadIds: [fork.id] })).data).toEqual([]);
  });

  it('pages with cursors, filters, archives and deletes', async () => {
    const store = await open('a');
    const ids: string[] = [];
    for (let n = 0; n < 5; n += 1) {
      const writer = await store.createThread({ meta: { ...newThreadMeta, cwd: n % 2 === 0 ? '/even' : '/odd' } });
      await writer.append(...userTurn(`t${n}`, `question ${n}`, `answer ${n}`));
      await writer.close();
      ids.push(writer.threadId);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await store.list({ cursor, limit: 2, cwd: '/even' });
      seen.push(...page.data.map((thread) => thread.id));
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(seen).toEqual([ids[4], ids[2], ids[0]]);

    await store.archive(ids[0] as string);
    expect((await store.list({ archived: true })).data.map((thread) => thread.id)).toEqual([ids[0]]);
    await store.unarchive(ids[0] as string);
    await store.delete(ids[1] as string);
    expect(await store.find(ids[1] as string)).toBeUndefined();
    expect((await sql('SELECT count(*)::int AS n FROM skein_rollout_lines WHERE thread_id = $1', [ids[1]])).rows[0]).toEqual({ n: 0 });
    await expect(store.loadThread(ids[1] as string)).rejects.toMatchObject({ code: 'ThreadNotFound' });
    await expect(store.list({ limit: 0 })).rejects.toMatchObject({ code: 'InvalidArgument' });
  });

  it('lets one host at a time write a thread, and another take it over once the lease lapsed', async () => {
    const a = await open('host-a');
    const b = await open('host-b');
    const writer = await a.createThread({ meta: newThreadMeta });
    await writer.append(...userTurn('turn-1', 'first', 'one'));

    await expect(b.openForResume(writer.threadId)).rejects.toThrow(/being written by host host-a/);
    await expect(b.delete(writer.threadId)).rejects.toMatchObject({ code: 'WriterBusy' });
    // Held past the lease by renewal (the lease is 1 s).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await expect(b.openForResume(writer.threadId)).rejects.toMatchObject({ code: 'WriterBusy' });

    // Host A stalls (its lease runs out unrenewed); host B takes the thread over and continues it.
    // A's idle renewal still runs here and may land between the expiry and B's take (a busy machine
    // makes that likely), extending the lease again: the stall is simulated until B gets in.
    const takeOver = async (attempts: number): Promise<Awaited<ReturnType<typeof b.openForResume>>> => {
      await sql("UPDATE skein_thread_leases SET expires_at = now() - interval '1 second' WHERE thread_id = $1", [writer.threadId]);
      try {
        return await b.openForResume(writer.threadId);
      } catch (error) {
        if (attempts <= 1 || (error as { code?: unknown }).code !== 'WriterBusy') throw error;
        return takeOver(attempts - 1);
      }
    };
    const resumed = await takeOver(10);
    expect(resumed.loaded.turns.map((turn) => turn.turnId)).toEqual(['turn-1']);
    await resumed.writer.append(...userTurn('turn-2', 'second', 'two'));

    // A wakes up: it can never append again.
    await expect(writer.append(...userTurn('turn-x', 'late', 'lost'))).rejects.toMatchObject({ code: 'LeaseLost' });
    await expect(writer.append(...userTurn('turn-y', 'later', 'lost'))).rejects.toMatchObject({ code: 'LeaseLost' });
    await resumed.writer.close();
    await writer.close();
    expect((await a.loadThread(writer.threadId)).turns.map((turn) => turn.turnId)).toEqual(['turn-1', 'turn-2']);
  });

  it('gives a thread to exactly one of two hosts racing to resume it', async () => {
    const a = await open('host-a');
    const b = await open('host-b');
    const writer = await a.createThread({ meta: newThreadMeta });
    await writer.close();
    const results = await Promise.allSettled([a.openForResume(writer.threadId), b.openForResume(writer.threadId)]);
    const won = results.filter((result) => result.status === 'fulfilled');
    const lost = results.filter((result) => result.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect((lost[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'WriterBusy' });
    await (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof a.openForResume>>>).value.writer.close();
  });

  it('fails a turn whose database went away, writes nothing half, and keeps its lines for the next turn', async () => {
    const target = new URL(database.url);
    const relay = await TcpRelay.start({ host: target.hostname, port: Number(target.port) });
    const relayed = new URL(database.url);
    relayed.port = String(relay.port);
    const store = await open('host-a', relayed.toString(), 30_000);
    const writer = await store.createThread({ meta: newThreadMeta });
    await writer.append(...userTurn('turn-1', 'first', 'one'));

    await relay.cut();
    const failed = await writer.append(...userTurn('turn-2', 'second', 'two')).then(() => undefined, (error: unknown) => error);
    expect(failed).toBeInstanceOf(RolloutError);
    expect(failed).toMatchObject({ code: 'StoreUnavailable' });
    expect((failed as Error).message).toMatch(/pending lines are kept/);
    // Nothing of the failed batch reached the database.
    expect((await sql('SELECT count(*)::int AS n FROM skein_rollout_lines WHERE thread_id = $1', [writer.threadId])).rows[0]).toEqual({ n: 6 });

    await relay.restore();
    await writer.append(...userTurn('turn-3', 'third', 'three'));
    await writer.close();
    await relay.cut();
    const loaded = await (await open('host-b')).loadThread(writer.threadId);
    expect(loaded.turns.map((turn) => turn.turnId)).toEqual(['turn-1', 'turn-2', 'turn-3']);
    const { rows } = await sql('SELECT seq FROM skein_rollout_lines WHERE thread_id = $1 ORDER BY seq', [writer.threadId]);
    expect(rows.map((row: { seq: string }) => Number(row.seq))).toEqual(Array.from({ length: 16 }, (_, index) => index));
  });

  it('refuses a database newer than this code', async () => {
    await open('a');
    await sql("INSERT INTO skein_schema_migrations (version, name) VALUES (999, 'from the future')");
    try {
      await expect(PostgresThreadStore.open({ url: database.url })).rejects.toMatchObject({ code: 'SchemaTooNew' });
    } finally {
      await sql('DELETE FROM skein_schema_migrations WHERE version = 999');
    }
  });
});
