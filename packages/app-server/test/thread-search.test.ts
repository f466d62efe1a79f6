// `thread/search`, `thread/search/stream` (+ cancels) and `thread/searchOccurrences` (issue #35), in
// Codex 0.171.0's shapes (probed): threads found by their user and agent messages with a snippet,
// paged; a stream's `thread/search/partial` before its answer; each occurrence with its turn, item,
// snippet and match range; Codex's refusals. In process on a real rollout store and FTS5 index;
// every message is schema-checked by the test client.
import { assistantMessage, completed, mockProviderConfigToml, sse, startMockResponsesServer, type AppServerTestClient, type MockResponsesServer } from '@skein/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, startInProcess, threadsOn, type InProcessServer, type TestHome } from './support/app-server-harness.js';

let model: MockResponsesServer;
let home: TestHome;
let server: InProcessServer;
let client: AppServerTestClient;

beforeEach(async () => {
  model = await startMockResponsesServer();
  home = makeHome(mockProviderConfigToml(model.url));
  server = await startInProcess(home, { threads: threadsOn(home) });
  client = await server.connect('stdio');
  await client.initialize();
});
afterEach(async () => {
  await client.close();
  await server.close();
  try {
    await model.close();
  } finally {
    home.cleanup();
  }
});

/** A thread with one turn per [user message, agent answer]; its id and its turns' ids. */
async function thread(...turns: readonly [string, string][]): Promise<{ id: string; turnIds: string[] }> {
  const { thread: started } = (await client.request('thread/start', { cwd: home.workspace, approvalPolicy: 'never', sandbox: 'read-only' })) as { thread: { id: string } };
  const turnIds: string[] = [];
  for (const [user, answer] of turns) {
    model.expect([sse(assistantMessage(answer), completed())]);
    const { turn } = (await client.request('turn/start', { threadId: started.id, input: [{ type: 'text', text: user }] })) as { turn: { id: string } };
    await client.waitFor('turn/completed', (params) => (params as { turn: { id: string } }).turn.id === turn.id);
    turnIds.push(turn.id);
  }
  return { id: started.id, turnIds };
}

type Found = { data: { thread: { id: string; preview: string }; snippet: string }[]; nextCursor: string | null; backwardsCursor: string | null };
const search = async (params: Record<string, unknown>, method = 'thread/search') => (await client.request(method, params)) as Found;
const found = (page: Found) => page.data.map((hit) => [hit.thread.id, hit.snippet]);
const refused = async (method: string, params: unknown) => ((await client.requestReply(method, params)) as { error?: unknown }).error;

describe('thread search', () => {
  it('finds threads by what the user wrote and what the agent answered, with a snippet of the first match, paged', async () => {
    const parser = await thread(['please fix the banana parser in lib', 'ok'], ['another banana here', 'Fixed the PARSER.']);
    const cherry = await thread(['cherry pie recipe with Banana-split', 'ok']);
    await thread(['nothing relevant', 'sure']);
    expect(found(await search({ searchTerm: 'banana' }))).toEqual([
      [cherry.id, 'cherry pie recipe with Banana-split'],
      [parser.id, 'please fix the banana parser in lib'],
    ]);
    expect(found(await search({ searchTerm: 'the parser' }))).toEqual([[parser.id, 'Fixed the PARSER.']]);
    expect(found(await search({ searchTerm: 'parser banana' }))).toEqual([]);
    const first = await search({ searchTerm: 'ok', limit: 1 });
    expect(found(first)).toEqual([[cherry.id, 'ok']]);
    const second = await search({ searchTerm: 'ok', limit: 1, cursor: first.nextCursor });
    expect(found(second)).toEqual([[parser.id, 'ok']]);
    expect(second.nextCursor).toBeNull();
    expect(found(await search({ searchTerm: 'banana', sortDirection: 'asc' })).map(([id]) => id)).toEqual([parser.id, cherry.id]);
    expect(found(await search({ searchTerm: 'banana', archived: true }))).toEqual([]);
  });

  it('cuts a long message around the match', async () => {
    const long = `${'alpha '.repeat(60)}zebrafish appears here ${'omega '.repeat(60)}`;
    const { id } = await thread([long, 'ok']);
    const [[foundId, snippet]] = found(await search({ searchTerm: 'ZEBRAFISH' })) as [[string, string]];
    expect(foundId).toBe(id);
    expect(snippet).toBe(`... ${long.slice(long.indexOf('zebrafish') - 48, long.indexOf('zebrafish') + 9 + 96)} ...`);
  });

  it('streams the threads it finds before its answer, and a cancel of nothing running answers {}', async () => {
    const { id } = await thread(['stream me a banana', 'ok']);
    const answer = await search({ searchTerm: 'banana' }, 'thread/search/stream');
    expect(found(answer)).toEqual([[id, 'stream me a banana']]);
    const partials = client.notificationsOf('thread/search/partial') as { requestId: number; data: { thread: { id: string }; snippet: string }[] }[];
    expect(partials.flatMap((partial) => partial.data.map((hit) => [hit.thread.id, hit.snippet]))).toEqual([[id, 'stream me a banana']]);
    expect(typeof partials[0]?.requestId).toBe('number');
    for (const method of ['thread/search/cancel', 'thread/search/stream/cancel']) {
      expect(await client.request(method, { requestId: 999 })).toEqual({});
      expect(await client.request(method, { requestId: 999 })).toEqual({});
    }
  });

  it('lists every occurrence in a thread with its turn, item, snippet and match range, paged', async () => {
    const { id, turnIds } = await thread(['please fix the banana parser', 'ok'], ['another banana here and banana there', 'Banana done.']);
    const { data, nextCursor } = (await client.request('thread/searchOccurrences', { threadId: id, searchTerm: 'BANANA' })) as {
      data: { turnId: string; itemId: string; snippet: string; snippetMatchRange: { start: number; end: number }; turnCursor: string }[];
      nextCursor: string | null;
    };
    expect(nextCursor).toBeNull();
    expect(data.map(({ turnId, snippet, snippetMatchRange }) => [turnId, snippet.slice(snippetMatchRange.start, snippetMatchRange.end), snippetMatchRange.start])).toEqual([
      [turnIds[0], 'banana', 15],
      [turnIds[1], 'banana', 8],
      [turnIds[1], 'banana', 24],
      [turnIds[1], 'Banana', 0],
    ]);
    // The item ids are the ones thread/items/read knows; the cursor opens the turn's page.
    const [firstItem] = data;
    const read = (await client.request('thread/items/read', { threadId: id, turnId: turnIds[0], itemIds: [firstItem?.itemId] })) as { data: { item: { type: string } }[] };
    expect(read.data.map((entry) => entry.item.type)).toEqual(['userMessage']);
    const page = (await client.request('thread/turns/list', { threadId: id, cursor: data[1]?.turnCursor, sortDirection: 'asc' })) as { data: { id: string }[] };
    expect(page.data[0]?.id).toBe(turnIds[1]);
    const limited = (await client.request('thread/searchOccurrences', { threadId: id, searchTerm: 'banana', limit: 1 })) as { data: unknown[]; nextCursor: string | null };
    expect(limited.data).toHaveLength(1);
    const rest = (await client.request('thread/searchOccurrences', { threadId: id, searchTerm: 'banana', cursor: limited.nextCursor })) as { data: unknown[] };
    expect(rest.data).toHaveLength(3);
  });

  it("refuses in Codex's words", async () => {
    expect(await refused('thread/search', { searchTerm: '  ' })).toEqual({ code: -32600, message: 'thread/search requires a non-empty searchTerm' });
    expect(await refused('thread/search/stream', { searchTerm: '' })).toEqual({ code: -32600, message: 'thread/search requires a non-empty searchTerm' });
    expect(await refused('thread/search', { searchTerm: 'x', cursor: 'garbage' })).toEqual({ code: -32600, message: 'invalid cursor: garbage' });
    expect(await refused('thread/search', {})).toEqual({ code: -32600, message: 'Invalid request: missing field `searchTerm`' });
    const { id } = await thread(['hello', 'ok']);
    expect(await refused('thread/searchOccurrences', { threadId: id, searchTerm: '' })).toEqual({ code: -32600, message: 'thread/searchOccurrences requires a non-empty searchTerm' });
    const badId = (await refused('thread/searchOccurrences', { threadId: 'nope', searchTerm: 'x' })) as { code: number; message: string };
    expect(badId.code).toBe(-32600);
    expect(badId.message).toMatch(/^invalid thread id: /);
  });
});
