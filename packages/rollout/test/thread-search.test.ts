// Thread search end to end on a real home: rollouts written by the store, the FTS5 index beside the
// thread index, and the reading that keeps it in step with files that grow, move and go away.
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGE_READ_BATCH, FileThreadStore, liveRolloutPath, serializeRolloutLine, type ThreadSearchQuery } from '../src/index.js';
import { assistantMessage, item, sessionMeta, steppingClock, temporaryHome, userTurn } from './support/builders.js';

let home: Awaited<ReturnType<typeof temporaryHome>>;
let store: FileThreadStore;
beforeEach(async () => {
  home = await temporaryHome();
  store = await FileThreadStore.open({ home: home.home, clock: steppingClock(Date.parse('2026-11-30T10:00:00.000Z'), 1000) });
});
afterEach(async () => {
  store.close();
  await home.dispose();
});

async function thread(...turns: readonly [user: string, answer: string][]): Promise<string> {
  const writer = await store.createThread({ meta: { cwd: '/workspace', source: 'vscode', originator: 'skein_test', model_provider: 'mock' } });
  for (const [index, [user, answer]] of turns.entries()) await writer.append(...userTurn(`turn-${index}`, user, assistantMessage(answer)));
  await writer.close();
  return writer.threadId;
}

const found = async (query: Omit<ThreadSearchQuery, 'term'> & { readonly term: string }) =>
  (await store.search(query)).data.map((hit) => [hit.summary.id, hit.message]);

describe('thread search', () => {
  it("finds a term anywhere in the user's and the agent's messages, in any case, with the first message that holds it", async () => {
    const parser = await thread(['please fix the banana parser in lib', 'ok'], ['another banana here', 'Fixed the PARSER.']);
    const cherry = await thread(['cherry pie recipe with Banana-split', 'ok']);
    await thread(['nothing relevant', 'sure']);
    expect(await found({ term: 'banana' })).toEqual([
      [cherry, 'cherry pie recipe with Banana-split'],
      [parser, 'please fix the banana parser in lib'],
    ]);
    // Inside a word, and a phrase as written (not its words in another order).
    expect(await found({ term: 'anan' })).toHaveLength(2);
    expect(await found({ term: 'banana parser' })).toEqual([[parser, 'please fix the banana parser in lib']]);
    expect(await found({ term: 'parser banana' })).toEqual([]);
    // The agent's answers are searched too; terms under three characters are matched by a scan.
    expect(await found({ term: 'fixed the parser' })).toEqual([[parser, 'Fixed the PARSER.']]);
    expect(await found({ term: 'ok' })).toEqual([
      [cherry, 'ok'],
      [parser, 'ok'],
    ]);
    // Quotes, FTS syntax and LIKE wildcards are text.
    expect(await found({ term: '"banana" OR cherry' })).toEqual([]);
    expect(await found({ term: '%' })).toEqual([]);
    expect(await found({ term: 'a_' })).toEqual([]);
  });

  it('leaves out the context the harness sends in the user role', async () => {
    const writer = await store.createThread({ meta: { cwd: '/workspace', source: 'vscode', originator: 'skein_test', model_provider: 'mock' } });
    await writer.append(item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>\n  <cwd>/workspace/zebra</cwd>\n</environment_context>' }] }));
    await writer.append(...userTurn('turn-0', 'hello', assistantMessage('hi')));
    await writer.close();
    expect(await found({ term: 'zebra' })).toEqual([]);
    expect(await found({ term: 'hello' })).toEqual([[writer.threadId, 'hello']]);
  });

  it('pages in list order, either way, and filters archived threads and sources', async () => {
    const ids: string[] = [];
    for (let n = 0; n < 9; n += 1) ids.push(await thread([`needle ${n}`, 'ok']));
    await thread(['haystack only', 'ok']);
    const pages = async (ascending: boolean) => {
      const all: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await store.search({ term: 'needle', limit: 4, cursor, ascending });
        all.push(...page.data.map((hit) => hit.summary.id));
        cursor = page.nextCursor;
      } while (cursor !== null);
      return all;
    };
    expect(await pages(false)).toEqual([...ids].reverse());
    expect(await pages(true)).toEqual(ids);
    await store.archive(ids[0] ?? '');
    expect(await found({ term: 'needle 0' })).toEqual([]);
    expect(await found({ term: 'needle 0', archived: true })).toEqual([[ids[0], 'needle 0']]);
    expect(await found({ term: 'needle 1', source: 'exec' })).toEqual([]);
    await expect(store.search({ term: 'needle', cursor: 'garbage' })).rejects.toMatchObject({ code: 'InvalidCursor' });
  });

  it('reads on from where it stopped when a file grows, and forgets a deleted thread', async () => {
    const id = await thread(['first words', 'ok']);
    expect(await found({ term: 'first' })).toHaveLength(1);
    const writer = await store.resumeThread(id);
    await writer.append(...userTurn('turn-1', 'second words', assistantMessage('ok')));
    await writer.close();
    expect(await found({ term: 'words' })).toEqual([[id, 'first words']]);
    expect(await found({ term: 'second' })).toEqual([[id, 'second words']]);
    // Each message is indexed once, however often the file is read on.
    expect(store.index.messages.of(id)).toEqual(['first words', 'ok', 'second words', 'ok']);
    await store.delete(id);
    expect(await found({ term: 'words' })).toEqual([]);
    expect(store.index.messages.of(id)).toEqual([]);
  });

  it('does not index a line still being written, and reads it once it is whole', async () => {
    const id = await thread(['whole line', 'ok']);
    const file = (await store.find(id))?.path ?? '';
    const line = JSON.stringify({ timestamp: '2026-11-30T10:10:00.000Z', type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'torn then mended' }] } });
    await appendFile(file, line.slice(0, 40));
    await store.reconcile();
    expect(await found({ term: 'mended' })).toEqual([]);
    await appendFile(file, `${line.slice(40)}\n`);
    await store.reconcile();
    expect(await found({ term: 'mended' })).toEqual([[id, 'torn then mended']]);
  });

  it('reads in batches, tells its progress, and a stopped search keeps and searches what it read', async () => {
    // Files written directly (a writer per thread is slow under a loaded CI), then indexed: nothing
    // was searched yet, so the first search reads every file.
    const at = new Date('2026-11-30T10:00:00.000Z');
    for (let n = 0; n < MESSAGE_READ_BATCH + 3; n += 1) {
      const id = `01900000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;
      const file = liveRolloutPath(home.home, id, at);
      await mkdir(path.dirname(file), { recursive: true });
      const header = serializeRolloutLine({ timestamp: at.toISOString(), ordinal: 0 }, { type: 'session_meta', payload: sessionMeta(id) });
      const message = serializeRolloutLine({ timestamp: at.toISOString(), ordinal: 1 }, item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: `batch needle ${n}` }] }));
      await writeFile(file, `${header}\n${message}\n`);
    }
    await store.reconcile();
    const stop = new AbortController();
    const progress: number[] = [];
    const page = await store.search(
      { term: 'batch needle', limit: 500 },
      {
        signal: stop.signal,
        onRead: ({ done, total, threadIds }) => {
          progress.push(done, total, threadIds.length);
          stop.abort();
        },
      },
    );
    expect(progress).toEqual([MESSAGE_READ_BATCH, MESSAGE_READ_BATCH + 3, MESSAGE_READ_BATCH]);
    expect(page.data).toHaveLength(MESSAGE_READ_BATCH);
    expect((await store.search({ term: 'batch needle', limit: 500 })).data).toHaveLength(MESSAGE_READ_BATCH + 3);
  });
});
