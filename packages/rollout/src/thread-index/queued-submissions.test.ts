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
  it('keeps each thread’s queue in delivery order across a reopen, edits in place, and takes the first or a named one', () => {
    let index = ThreadIndex.open(home.home);
    for (const id of ['a', 'b', 'c']) index.queuedSubmissions.add(THREAD, submission(id, `message ${id}`));
    index.queuedSubmissions.add(OTHER, submission('z', 'elsewhere'));
    index.close();

    index = ThreadIndex.open(home.home);
    const queue = index.queuedSubmissions;
    expect(queue.list(THREAD)).toEqual([submission('a', 'message a'), submission('b', 'message b'), submission('c', 'message c')]);
    expect(queue.update(THREAD, 'b', { input: [{ type: 'text', text: 'edited', text_elements: [] }], responsesapiClientMetadata: null })).toMatchObject({ id: 'b', clientUserMessageId: 'client-b', input: [{ text: 'edited' }], responsesapiClientMetadata: null });
    queue.reorder(THREAD, ['c', 'a', 'b']);
    expect(ids(queue.list(THREAD))).toEqual(['c', 'a', 'b']);
    expect(queue.take(THREAD).id).toBe('c');
    expect(queue.take(THREAD, 'b').id).toBe('b');
    expect(ids(queue.list(THREAD))).toEqual(['a']);
    expect(ids(queue.list(OTHER))).toEqual(['z']);
    // A message added after a take goes last, behind what is still queued.
    queue.add(THREAD, submission('d', 'later'));
    expect(ids(queue.list(THREAD))).toEqual(['a', 'd']);
    index.close();
  });

  it('refuses what is not queued, a reorder that is no permutation, and a take from an empty queue, changing nothing', () => {
    const index = ThreadIndex.open(home.home);
    const queue = index.queuedSubmissions;
    queue.add(THREAD, submission('a', 'one'));
    queue.add(THREAD, submission('b', 'two'));
    const refused = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return error instanceof QueuedSubmissionError ? [error.code, error.message] : error;
      }
      return 'not refused';
    };
    expect(refused(() => queue.update(THREAD, 'x', { input: [], responsesapiClientMetadata: null }))).toEqual(['NotFound', 'queued submission not found: x']);
    expect(refused(() => queue.take(THREAD, 'x'))).toEqual(['NotFound', 'queued submission not found: x']);
    for (const order of [['a'], ['a', 'a'], ['a', 'b', 'c'], ['b', 'x']]) {
      expect(refused(() => queue.reorder(THREAD, order))).toEqual(['NotAPermutation', 'queue reorder must include every queued submission exactly once']);
    }
    expect(queue.remove(THREAD, 'x')).toBe(false);
    expect(ids(queue.list(THREAD))).toEqual(['a', 'b']);
    expect(queue.remove(THREAD, 'a')).toBe(true);
    queue.removeAll(THREAD);
    expect(refused(() => queue.take(THREAD))).toEqual(['Empty', 'queue is empty']);
    index.close();
  });

  it('refuses a stored row that is not a queued message instead of handing it on', () => {
    const index = ThreadIndex.open(home.home);
    index.queuedSubmissions.add(THREAD, submission('a', 'one'));
    // Another program damages the row.
    const other = new Database(index.path);
    other.prepare(`UPDATE queued_submissions SET input = '[{"type":"nonsense"}]'`).run();
    other.close();
    expect(() => index.queuedSubmissions.list(THREAD)).toThrow();
    index.close();
  });
});
