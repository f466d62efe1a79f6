// `thread/attachment/add|list|remove` and `thread/attachmentOwner/list` (issue #35), as Codex
// 0.171.0 answers them (probed): one attachment per type and key (a second add answers the first),
// `thread/attachment/updated` to every client after a creation or removal, Codex's cursors and its
// -32602 refusals in its order; kept across a restart and dropped with a deleted thread. In process
// on a real rollout store; every message is schema-checked by the test client.
import type { AppServerTestClient } from '@skein/test-support';
import { describe, expect, it } from 'vitest';
import type { InProcessServer } from './support/app-server-harness.js';
import { useModelScenario } from './support/model-scenario.js';

const scenario = useModelScenario();
const startServer = (): Promise<InProcessServer> => scenario().startServer();
const connect = (server: InProcessServer): Promise<AppServerTestClient> => scenario().connectTo(server);
const startThread = (client: AppServerTestClient, params: Record<string, unknown> = {}): Promise<string> => scenario().startThread(client, params);

type Attachment = { id: string; attachmentType: string; identityKey: string; payload: unknown; createdAt: number };
type Added = { outcome: 'created' | 'existing'; attachment: Attachment };

const add = async (client: AppServerTestClient, threadId: string, attachmentType: string, identityKey: string, payload: unknown) =>
  (await client.request('thread/attachment/add', { threadId, attachmentType, identityKey, payload })) as Added;
const list = async (client: AppServerTestClient, params: Record<string, unknown>) => (await client.request('thread/attachment/list', params)) as { data: Attachment[]; nextCursor: string | null };
const owners = async (client: AppServerTestClient, params: Record<string, unknown>) =>
  (await client.request('thread/attachmentOwner/list', params)) as { data: { threadId: string; archived: boolean }[]; nextCursor: string | null };

const UNKNOWN = '01a22c4e-0203-7f51-a38a-d99c4dbdd200';
const BAD_ID = 'invalid thread id: invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `n` at 1';

describe('thread attachments', () => {
  it('adds one attachment per type and key, answers the first again unchanged, and tells every client of creations and removals', async () => {
    const server = await startServer();
    const client = await connect(server);
    const observer = await connect(server);
    const threadId = await startThread(client);

    const created = await add(client, threadId, 'file', 'k1', { path: '/x' });
    expect(created).toEqual({
      outcome: 'created',
      attachment: { id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7/) as unknown, attachmentType: 'file', identityKey: 'k1', payload: { path: '/x' }, createdAt: expect.any(Number) as unknown },
    });
    expect(Math.abs(created.attachment.createdAt - Date.now() / 1000)).toBeLessThan(60);
    expect(await add(client, threadId, 'file', 'k1', { path: '/y' })).toEqual({ outcome: 'existing', attachment: created.attachment });
    // Any JSON payload is kept as given; type and key are kept untrimmed.
    const other = await add(client, threadId, ' url ', 'k1', [1, 2.5, true, null]);
    expect(other.attachment.payload).toEqual([1, 2.5, true, null]);
    expect((await list(client, { threadId })).data).toEqual([created.attachment, other.attachment]);

    expect(await client.request('thread/attachment/remove', { threadId, attachmentType: 'file', identityKey: 'k1' })).toEqual({});
    expect(await client.request('thread/attachment/remove', { threadId, attachmentType: 'file', identityKey: 'k1' })).toEqual({});
    expect((await list(client, { threadId })).data).toEqual([other.attachment]);

    await observer.waitFor('thread/attachment/updated', (params) => (params as { operation: string }).operation === 'deleted');
    const notice = (attachment: Attachment, operation: string) => ({ threadId, attachmentType: attachment.attachmentType, identityKey: attachment.identityKey, attachmentId: attachment.id, operation });
    // An `existing` add and a removal of nothing say nothing.
    expect(observer.notificationsOf('thread/attachment/updated')).toEqual([notice(created.attachment, 'created'), notice(other.attachment, 'created'), notice(created.attachment, 'deleted')]);
    expect(client.schemaFailures).toEqual([]);
    expect(observer.schemaFailures).toEqual([]);
  });

  it('pages a thread’s attachments oldest first with Codex’s cursor, and lists nothing for a thread without any', async () => {
    const client = await connect(await startServer());
    const threadId = await startThread(client);
    const added = [];
    for (const key of ['a', 'b', 'c']) added.push((await add(client, threadId, 'file', key, key)).attachment);
    const first = await list(client, { threadId, limit: 2 });
    expect(first.data).toEqual(added.slice(0, 2));
    expect(first.nextCursor).toBe(`${threadId}|${added[1]!.createdAt}|${added[1]!.id}`);
    expect(await list(client, { threadId, cursor: first.nextCursor })).toEqual({ data: [added[2]], nextCursor: null });
    expect(await list(client, { threadId, limit: 0 })).toMatchObject({ data: [added[0]] });
    expect(await list(client, { threadId: UNKNOWN })).toEqual({ data: [], nextCursor: null });
    for (const cursor of ['zzz', '0', `${UNKNOWN}|${added[1]!.createdAt}|${added[1]!.id}`, `${threadId}|1|zz`]) {
      expect(await client.requestReply('thread/attachment/list', { threadId, cursor })).toEqual({ error: { code: -32602, message: 'invalid pagination cursor' } });
    }
  });

  it('lists the owners of a type and key with their archived state, filtered and paged with Codex’s cursor; a deleted thread owns nothing', async () => {
    const client = await connect(await startServer());
    const [a, b, c] = [await startThread(client), await startThread(client), await startThread(client)];
    for (const threadId of [a, b, c]) await add(client, threadId, 'file', 'shared', threadId);
    await add(client, a, 'file', 'mine', null);
    await client.request('thread/archive', { threadId: b });

    expect(await owners(client, { attachmentType: 'file', identityKey: 'shared' })).toEqual({
      data: [
        { threadId: a, archived: false },
        { threadId: b, archived: true },
        { threadId: c, archived: false },
      ],
      nextCursor: null,
    });
    expect((await owners(client, { attachmentType: 'file', identityKey: 'shared', archived: true })).data).toEqual([{ threadId: b, archived: true }]);
    const page = await owners(client, { attachmentType: 'file', identityKey: 'shared', archived: false, limit: 1 });
    expect(page).toEqual({ data: [{ threadId: a, archived: false }], nextCursor: JSON.stringify({ attachment_type: 'file', identity_key: 'shared', archived: false, thread_id: a }) });
    expect(await owners(client, { attachmentType: 'file', identityKey: 'shared', archived: false, cursor: page.nextCursor })).toEqual({ data: [{ threadId: c, archived: false }], nextCursor: null });
    // A cursor of another filter, or none of ours, is refused.
    expect(await client.requestReply('thread/attachmentOwner/list', { attachmentType: 'file', identityKey: 'shared', cursor: page.nextCursor })).toEqual({ error: { code: -32602, message: 'invalid pagination cursor' } });
    expect(await client.requestReply('thread/attachmentOwner/list', { attachmentType: 'file', identityKey: 'shared', cursor: 'zzz' })).toEqual({ error: { code: -32602, message: 'invalid pagination cursor' } });

    await client.request('thread/delete', { threadId: c });
    expect((await owners(client, { attachmentType: 'file', identityKey: 'shared' })).data.map((owner) => owner.threadId)).toEqual([a, b]);
    expect(await list(client, { threadId: c })).toEqual({ data: [], nextCursor: null });
    expect(await owners(client, { attachmentType: 'file', identityKey: 'nobody' })).toEqual({ data: [], nextCursor: null });
  });

  it('refuses with Codex’s -32602s in its order: type, key, thread id, unknown or ephemeral thread', async () => {
    const client = await connect(await startServer());
    const threadId = await startThread(client);
    const ephemeral = await startThread(client, { ephemeral: true });
    const refusals: [string, Record<string, unknown>, string][] = [
      ['thread/attachment/add', { threadId: 'nope', attachmentType: '  ', identityKey: '', payload: 1 }, 'attachmentType must not be empty'],
      ['thread/attachment/add', { threadId: 'nope', attachmentType: 'file', identityKey: '', payload: 1 }, 'identityKey must not be empty'],
      ['thread/attachment/add', { threadId: 'nope', attachmentType: 'file', identityKey: 'k', payload: 1 }, BAD_ID],
      ['thread/attachment/add', { threadId: UNKNOWN, attachmentType: 'file', identityKey: 'k', payload: 1 }, `thread not found: ${UNKNOWN}`],
      ['thread/attachment/add', { threadId: ephemeral, attachmentType: 'file', identityKey: 'k', payload: 1 }, `thread not found: ${ephemeral}`],
      ['thread/attachment/remove', { threadId: 'nope', attachmentType: '', identityKey: '' }, 'attachmentType must not be empty'],
      ['thread/attachment/remove', { threadId, attachmentType: 'x', identityKey: '' }, 'identityKey must not be empty'],
      ['thread/attachment/remove', { threadId: UNKNOWN, attachmentType: 'file', identityKey: 'k' }, `thread not found: ${UNKNOWN}`],
      ['thread/attachment/list', { threadId: 'nope' }, BAD_ID],
      ['thread/attachmentOwner/list', { attachmentType: 'x', identityKey: '' }, 'identityKey must not be empty'],
    ];
    for (const [method, params, message] of refusals) expect(await client.requestReply(method, params)).toEqual({ error: { code: -32602, message } });
    expect(await client.requestReply('thread/attachment/add', { threadId, attachmentType: 'file', identityKey: 'k' })).toEqual({ error: { code: -32600, message: 'Invalid request: missing field `payload`' } });
    expect(await list(client, { threadId })).toEqual({ data: [], nextCursor: null });
    expect(client.notificationsOf('thread/attachment/updated')).toEqual([]);
  });

  it('keeps attachments across a restart, archived threads’ included', async () => {
    const firstServer = await startServer();
    const first = await connect(firstServer);
    const threadId = await startThread(first);
    const kept = (await add(first, threadId, 'file', 'k1', { nested: { list: ['x'] } })).attachment;
    await first.request('thread/archive', { threadId });
    const archived = (await add(first, threadId, 'file', 'k2', 'added while archived')).attachment;
    await first.close();
    await firstServer.close();

    const client = await connect(await startServer());
    expect((await list(client, { threadId })).data).toEqual([kept, archived]);
    expect(await add(client, threadId, 'file', 'k1', 'again')).toEqual({ outcome: 'existing', attachment: kept });
    expect(await owners(client, { attachmentType: 'file', identityKey: 'k1' })).toEqual({ data: [{ threadId, archived: true }], nextCursor: null });
  });
});
