import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { temporaryHome, uuidV7 } from '../../test/support/builders.js';
import { QueuedSubmissionError, type QueuedSubmission } from './queued-submissions.js';
import { ThreadIndex } from './thread-index.js';

let home: Awaited<ReturnType<typeof temporaryHome>>;
beforeEach(async () => (home = await temporaryHome()));
afterEach(() => home.dispose());

const THREAD = uuidV7(1);
const OTHER = uuidV7(2);

const submission = (id: string, text: string): QueuedSubmission => ({
  id,
  input: [{ type: 'text', text, text_elements: [] }],
  clientUserMessageId: `client-${id}`,
  responsesapiClientMetadata: id === 'b' ? { origin: 'ide' } : null,
});
const ids = (list: readonly QueuedSubmission[]) => list.map((entry) => entry.id);

describe('QueuedSubmissions', () => {
  it('keeps each thread’s queue in delivery order across a reopen, edits in place, and takes the first or a named one', async () => {
    let index = ThreadIndex.open(home.home);
    for (const id of ['a', 'b', 'c']) await index.queuedSubmissions.add(THREAD, submission(id, `message ${id}`));
    await index.queuedSubmissions.add(OTHER, submission('z', 'elsewhere'));
    index.close();

    index = ThreadIndex.open(home.home);
    const queue = index.queuedSubmissions;
    expect(await queue.list(THREAD)).toEqual([submission('a', 'message a'), submission('b', 'message b'), submission('c', 'message c')]);
    expect(await queue.update(THREAD, 'b', { input: [{ type: 'text', text: 'edited', text_elements: [] }], responsesapiClientMetadata: null })).toMatchObject({ id: 'b', clientUserMessageId: 'client-b', input: [{ text: 'edited' }], responsesapiClientMetadata: null });
    await queue.reorder(THREAD, ['c', 'a', 'b']);
    expect(ids(await queue.list(THREAD))).toEqual(['c', 'a', 'b']);
    expect((await queue.take(THREAD)).id).toBe('c');
    expect((await queue.take(THREAD, 'b')).id).toBe('b');
    expect(ids(await queue.list(THREAD))).toEqual(['a']);
    expect(ids(await queue.list(OTHER))).toEqual(['z']);
    // A message added after a take goes last, behind what is still queued.
    await queue.add(THREAD, submission('d', 'later'));
    expect(ids(await queue.list(THREAD))).toEqual(['a', 'd']);
    index.close();
  });

  it('refuses what is not queued, a reorder that is no permutation, and a take from an empty queue, changing nothing', async () => {
    const index = ThreadIndex.open(home.home);
    const queue = index.queuedSubmissions;
    await queue.add(THREAD, submission('a', 'one'));
    await queue.add(THREAD, submission('b', 'two'));
    const refused = async (run: () => Promise<unknown>) => {
      try {
        await run();
      } catch (error) {
        return error instanceof QueuedSubmissionError ? [error.code, error.message] : error;
      }
      return 'not refused';
    };
    expect(await refused(() => queue.update(THREAD, 'x', { input: [], responsesapiClientMetadata: null }))).toEqual(['NotFound', 'queued submission not found: x']);
    expect(await refused(() => queue.take(THREAD, 'x'))).toEqual(['NotFound', 'queued submission not found: x']);
    for (const order of [['a'], ['a', 'a'], ['a', 'b', 'c'], ['b', 'x']]) {
      expect(await refused(() => queue.reorder(THREAD, order))).toEqual(['NotAPermutation', 'queue reorder must include every queued submission exactly once']);
    }
    expect(await queue.remove(THREAD, 'x')).toBe(false);
    expect(ids(await queue.list(THREAD))).toEqual(['a', 'b']);
    expect(await queue.remove(THREAD, 'a')).toBe(true);
    await queue.removeAll(THREAD);
    expect(await refused(() => queue.take(THREAD))).toEqual(['Empty', 'queue is empty']);
    index.close();
  });

  it('refuses a stored row that is not a queued message instead of handing it on', async () => {
    const index = ThreadIndex.open(home.home);
    await index.queuedSubmissions.add(THREAD, submission('a', 'one'));
    // Another program damages the row.
    const other = new Database(index.path);
    other.prepare(`UPDATE queued_submissions SET input = '[{"type":"nonsense"}]'`).run();
    other.close();
    await expect(index.queuedSubmissions.list(THREAD)).rejects.toThrow();
    index.close();
  });
});
