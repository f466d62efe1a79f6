import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { temporaryHome, uuidV7 } from '../../test/support/builders.js';
import { INITIAL_READ_REVISION } from './read-receipts.js';
import { ThreadIndex } from './thread-index.js';

let home: Awaited<ReturnType<typeof temporaryHome>>;
beforeEach(async () => (home = await temporaryHome()));
afterEach(() => home.dispose());

const THREAD = uuidV7(1);

describe('ReadReceipts', () => {
  it('a published turn is the first unread until the thread is marked read; an earlier unread turn stays first', async () => {
    const index = ThreadIndex.open(home.home);
    const receipts = index.readReceipts;
    expect(await receipts.get(THREAD)).toEqual({ firstUnread: null, revision: INITIAL_READ_REVISION });
    const first = await receipts.publishTurn(THREAD, 't1');
    expect(first.firstUnread).toEqual({ type: 'turn', turnId: 't1' });
    const second = await receipts.publishTurn(THREAD, 't2');
    expect(second.firstUnread).toEqual({ type: 'turn', turnId: 't1' });
    expect(second.revision).not.toBe(first.revision);

    expect(await receipts.update(THREAD, first.revision, 'read')).toEqual({ applied: false, current: second });
    const read = await receipts.update(THREAD, second.revision, 'read');
    expect(read).toMatchObject({ applied: true, state: { firstUnread: null } });
    const unread = await receipts.update(THREAD, read.applied ? read.state.revision : '', 'unread');
    expect(unread).toMatchObject({ applied: true, state: { firstUnread: { type: 'turn', turnId: 't2' } } });
    index.close();
  });

  it('marks a thread without turns unread from its start, and keeps receipts across a reopen', async () => {
    let index = ThreadIndex.open(home.home);
    const marked = await index.readReceipts.update(THREAD, INITIAL_READ_REVISION, 'unread');
    expect(marked).toMatchObject({ applied: true, state: { firstUnread: { type: 'threadStart' } } });
    index.close();
    index = ThreadIndex.open(home.home);
    expect(await index.readReceipts.get(THREAD)).toEqual(marked.applied ? marked.state : undefined);
    index.close();
  });
});
