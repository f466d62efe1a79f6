// `threadSection/*` and `thread/section/move` (issue #35), as Codex 0.171.0 answers them (probed):
// the built-in Pinned section, Codex's -32602 / -32600 refusals, `thread/section/changed` to every
// client after a move, `thread/list {sectionId, sortKey}` and the Thread objects' `section` /
// `sectionEnteredAt`; all of it kept across a restart. In process on a real rollout store; every
// message is schema-checked by the test client.
import type { AppServerTestClient } from '@skein/test-support';
import { describe, expect, it } from 'vitest';
import type { InProcessServer } from './support/app-server-harness.js';
import { useModelScenario } from './support/model-scenario.js';

const scenario = useModelScenario();
const startServer = (): Promise<InProcessServer> => scenario().startServer();
const connect = (server: InProcessServer): Promise<AppServerTestClient> => scenario().connectTo(server);
const startThread = (client: AppServerTestClient, params: Record<string, unknown> = {}): Promise<string> => scenario().startThread(client, params);

type Section = { id: string; name: string; appearance: { icon: string | null; color: string | null } | null };
type Thread = { id: string; section: Section | null; sectionEnteredAt: number | null };
type ThreadPage = { data: Thread[]; nextCursor: string | null; readStates: Record<string, unknown> };

const PINNED = { id: '01984de2-8f74-7c91-a3b2-5c5e937cf318', name: 'Pinned', appearance: null };
const UNKNOWN = '01a22c4e-0203-7f51-a38a-d99c4dbdd200';

const create = async (client: AppServerTestClient, params: Record<string, unknown>) => ((await client.request('threadSection/create', params)) as { section: Section }).section;
const sections = async (client: AppServerTestClient, params: Record<string, unknown> = {}) => (await client.request('threadSection/list', params)) as { data: Section[]; nextCursor: string | null };
const move = (client: AppServerTestClient, params: Record<string, unknown>) => client.request('thread/section/move', params);
const list = async (client: AppServerTestClient, params: Record<string, unknown>) => (await client.request('thread/list', params)) as ThreadPage;
const ids = (page: ThreadPage) => page.data.map((thread) => thread.id);

describe('thread sections', () => {
  it('lists the built-in Pinned section first, creates, renames and deletes sections as Codex does', async () => {
    const client = await connect(await startServer());
    expect(await sections(client)).toEqual({ data: [PINNED], nextCursor: null });

    const work = await create(client, { name: ' Work ', appearance: { color: 'red', icon: 'star' } });
    expect(work).toEqual({ id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7/) as unknown, name: 'Work', appearance: { icon: 'star', color: 'red' } });
    const bare = await create(client, { name: 'Work', appearance: {} });
    expect(bare.appearance).toEqual({ icon: null, color: null });
    expect((await sections(client)).data).toEqual([PINNED, work, bare]);
    // Paged by the last id of the page; a zero limit still answers one.
    expect(await sections(client, { limit: 0 })).toEqual({ data: [PINNED], nextCursor: PINNED.id });
    expect(await sections(client, { cursor: PINNED.id, limit: 1 })).toEqual({ data: [work], nextCursor: work.id });
    expect(await sections(client, { cursor: work.id })).toEqual({ data: [bare], nextCursor: null });

    // An omitted appearance is kept; null clears it.
    expect(await client.request('threadSection/update', { sectionId: work.id, name: 'Play' })).toEqual({ section: { ...work, name: 'Play' } });
    expect(await client.request('threadSection/update', { sectionId: work.id, name: 'Play', appearance: null })).toEqual({ section: { ...work, name: 'Play', appearance: null } });
    expect(await client.request('threadSection/delete', { sectionId: bare.id })).toEqual({});
    expect((await sections(client)).data).toEqual([PINNED, { ...work, name: 'Play', appearance: null }]);
    expect(client.schemaFailures).toEqual([]);
  });

  it('refuses section edits with Codex’s -32602s', async () => {
    const client = await connect(await startServer());
    const work = await create(client, { name: 'Work' });
    const refusals: [string, Record<string, unknown>, string][] = [
      ['threadSection/create', { name: '  ' }, 'section name must not be empty'],
      ['threadSection/update', { sectionId: 'nope', name: '' }, 'section name must not be empty'],
      ['threadSection/update', { sectionId: 'nope', name: 'x' }, 'thread section not found: nope'],
      ['threadSection/update', { sectionId: PINNED.id, name: 'Mine' }, 'the built-in pinned section cannot be renamed'],
      ['threadSection/delete', { sectionId: PINNED.id }, 'the built-in pinned section cannot be deleted'],
      ['threadSection/delete', { sectionId: 'nope' }, 'thread section not found: nope'],
    ];
    for (const [method, params, message] of refusals) expect(await client.requestReply(method, params)).toEqual({ error: { code: -32602, message } });
    expect((await sections(client)).data).toEqual([PINNED, work]);
  });

  it('files threads in a section in place order, shows it on the threads, and tells every client after each move', async () => {
    const server = await startServer();
    const client = await connect(server);
    const observer = await connect(server);
    const [a, b, c] = [await startThread(client), await startThread(client), await startThread(client)];
    const work = await create(client, { name: 'Work', appearance: { icon: 'star' } });

    expect(await move(client, { threadId: a, sectionId: work.id })).toEqual({});
    await move(client, { threadId: b, sectionId: work.id });
    await move(client, { threadId: c, sectionId: work.id, beforeThreadId: a });
    // The client that made no request, subscribed to none of these threads, hears of each move.
    await observer.waitFor('thread/section/changed', (params) => (params as { threadId: string }).threadId === c);
    expect(observer.notificationsOf('thread/section/changed')).toEqual([
      { threadId: a, sectionId: work.id },
      { threadId: b, sectionId: work.id },
      { threadId: c, sectionId: work.id },
    ]);

    const byPlace = await list(client, { sectionId: work.id, sortKey: 'section_position' });
    expect(ids(byPlace)).toEqual([c, a, b]);
    expect(Object.keys(byPlace.readStates).sort()).toEqual([a, b, c].sort());
    const filed = byPlace.data[0]!;
    expect(filed.section).toEqual(work);
    expect(filed.sectionEnteredAt).toEqual(expect.any(Number));
    expect(Math.abs(filed.sectionEnteredAt! - Date.now() / 1000)).toBeLessThan(60);
    // Codex's cursor: the last thread's position and id.
    const first = await list(client, { sectionId: work.id, sortKey: 'section_position', limit: 1 });
    expect(first.nextCursor).toBe(`500000|${c}`);
    expect(ids(await list(client, { sectionId: work.id, sortKey: 'section_position', limit: 2, cursor: first.nextCursor }))).toEqual([a, b]);
    // Without a sort key a section lists newest first, as thread/list does.
    expect(ids(await list(client, { sectionId: work.id }))).toEqual([c, b, a]);
    expect(ids(await list(client, { sectionId: PINNED.id }))).toEqual([]);
    expect(ids(await list(client, { sectionId: 'nope' }))).toEqual([]);

    // `sectionId: null` lists the threads filed in none, paged past the filed ones; absent lists all.
    const loose = await startThread(client);
    const unfiled = await list(client, { sectionId: null, limit: 1 });
    expect(ids(unfiled)).toEqual([loose]);
    expect(unfiled.nextCursor).toBeNull();
    expect(ids(await list(client, { sectionId: null }))).toEqual([loose]);
    expect(ids(await list(client, {}))).toEqual([loose, c, b, a]);
    // thread/read and the whole list show the section too.
    expect(((await client.request('thread/read', { threadId: a })) as { thread: Thread }).thread.section).toEqual(work);
    expect((await list(client, {})).data.find((thread) => thread.id === b)?.section).toEqual(work);

    // Out of any section: the thread shows none, and the notification says null.
    await move(client, { threadId: b, sectionId: null });
    await observer.waitFor('thread/section/changed', (params) => (params as { sectionId: unknown }).sectionId === null);
    expect(ids(await list(client, { sectionId: work.id, sortKey: 'section_position' }))).toEqual([c, a]);
    expect(((await client.request('thread/read', { threadId: b })) as { thread: Thread }).thread).toMatchObject({ section: null, sectionEnteredAt: null });
    expect(client.schemaFailures).toEqual([]);
    expect(observer.schemaFailures).toEqual([]);
  });

  it('moves a thread to the end of its own section, keeping when it entered; deleting the section unfiles its threads', async () => {
    const client = await connect(await startServer());
    const [a, b] = [await startThread(client), await startThread(client)];
    const work = await create(client, { name: 'Work' });
    await move(client, { threadId: a, sectionId: work.id });
    await move(client, { threadId: b, sectionId: work.id });
    const entered = (await list(client, { sectionId: work.id })).data.find((thread) => thread.id === a)?.sectionEnteredAt;
    await move(client, { threadId: a, sectionId: work.id });
    const after = await list(client, { sectionId: work.id, sortKey: 'section_position' });
    expect(ids(after)).toEqual([b, a]);
    expect(after.data.find((thread) => thread.id === a)?.sectionEnteredAt).toBe(entered);

    expect(await client.request('threadSection/delete', { sectionId: work.id })).toEqual({});
    expect(ids(await list(client, { sectionId: work.id }))).toEqual([]);
    expect(((await client.request('thread/read', { threadId: a })) as { thread: Thread }).thread.section).toBeNull();
  });

  it('refuses moves with Codex’s -32600s, in Codex’s order, and changes nothing', async () => {
    const client = await connect(await startServer());
    const [a, b] = [await startThread(client), await startThread(client)];
    const ephemeral = await startThread(client, { ephemeral: true });
    const work = await create(client, { name: 'Work' });
    await move(client, { threadId: a, sectionId: work.id });
    const refusals: [Record<string, unknown>, string][] = [
      [{ threadId: 'nope', sectionId: 'nope' }, 'invalid thread id: invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `n` at 1'],
      [{ threadId: a, sectionId: 'nope', beforeThreadId: 'nope' }, 'invalid before thread id: invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `n` at 1'],
      [{ threadId: UNKNOWN, sectionId: 'nope' }, `thread not found: ${UNKNOWN}`],
      [{ threadId: ephemeral, sectionId: work.id }, `ephemeral thread does not support section moves: ${ephemeral}`],
      [{ threadId: b, sectionId: null, beforeThreadId: b }, 'beforeThreadId requires a non-null sectionId'],
      [{ threadId: b, sectionId: 'nope', beforeThreadId: b }, 'section nope does not exist'],
      [{ threadId: b, sectionId: work.id, beforeThreadId: b }, `thread ${b} cannot be moved before itself`],
      [{ threadId: b, sectionId: PINNED.id, beforeThreadId: a }, `before thread ${a} is not in section ${PINNED.id}`],
      [{ threadId: b }, 'Invalid request: missing field `sectionId`'],
    ];
    for (const [params, message] of refusals) expect(await client.requestReply('thread/section/move', params)).toEqual({ error: { code: -32600, message } });
    expect(ids(await list(client, { sectionId: work.id }))).toEqual([a]);
    expect(ids(await list(client, { sectionId: PINNED.id }))).toEqual([]);
    expect(await client.requestReply('thread/list', { sortKey: 'section_position' })).toEqual({ error: { code: -32600, message: 'section-position sorting requires a section filter' } });
    expect(await client.requestReply('thread/list', { sectionId: work.id, sortKey: 'section_position', cursor: '12|zz' })).toEqual({ error: { code: -32600, message: 'invalid cursor: 12|zz' } });
    expect(client.notificationsOf('thread/section/changed')).toEqual([{ threadId: a, sectionId: work.id }]);
  });

  it('keeps sections and filed threads across a restart; archived threads keep theirs; a deleted thread leaves its section', async () => {
    const firstServer = await startServer();
    const first = await connect(firstServer);
    const [a, b, c] = [await startThread(first), await startThread(first), await startThread(first)];
    const work = await create(first, { name: 'Work', appearance: { color: 'blue' } });
    await move(first, { threadId: a, sectionId: work.id });
    await move(first, { threadId: b, sectionId: PINNED.id });
    await move(first, { threadId: c, sectionId: work.id, beforeThreadId: a });
    await first.close();
    await firstServer.close();

    const client = await connect(await startServer());
    expect((await sections(client)).data).toEqual([PINNED, work]);
    expect(ids(await list(client, { sectionId: work.id, sortKey: 'section_position' }))).toEqual([c, a]);
    const resumed = (await client.request('thread/resume', { threadId: a, excludeTurns: true })) as { thread: Thread };
    expect(resumed.thread.section).toEqual(work);

    await client.request('thread/archive', { threadId: b });
    expect(ids(await list(client, { sectionId: PINNED.id }))).toEqual([]);
    expect(ids(await list(client, { sectionId: PINNED.id, archived: true }))).toEqual([b]);
    await client.request('thread/delete', { threadId: c });
    expect(ids(await list(client, { sectionId: work.id, sortKey: 'section_position' }))).toEqual([a]);
    expect(client.schemaFailures).toEqual([]);
  });
});
