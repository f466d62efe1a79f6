import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { temporaryHome, uuidV7 } from '../../test/support/builders.js';
import { ThreadIndex } from './thread-index.js';

let home: Awaited<ReturnType<typeof temporaryHome>>;
let index: ThreadIndex;
beforeEach(async () => {
  home = await temporaryHome();
  index = ThreadIndex.open(home.home);
});
afterEach(async () => {
  index.close();
  await home.dispose();
});

const [A, B] = [uuidV7(1), uuidV7(2)];
const attachment = (n: number, attachmentType: string, identityKey: string, payload: unknown, createdAt = 100) => ({ id: uuidV7(100 + n), attachmentType, identityKey, payload, createdAt });

describe('ThreadAttachments', () => {
  it('adds one attachment per type and key: a second add answers the first, unchanged', async () => {
    const attachments = index.threadAttachments;
    const first = attachment(1, 'file', 'k1', { path: '/x' });
    expect(await attachments.add(A, first)).toEqual({ outcome: 'created', attachment: first });
    expect(await attachments.add(A, attachment(2, 'file', 'k1', { path: '/y' }))).toEqual({ outcome: 'existing', attachment: first });
    // Another type, or another thread, is another attachment.
    expect((await attachments.add(A, attachment(3, 'url', 'k1', null))).outcome).toBe('created');
    expect((await attachments.add(B, attachment(4, 'file', 'k1', [1, 2.5, true]))).outcome).toBe('created');
    expect((await attachments.list(A, { limit: 10 })).attachments).toEqual([first, attachment(3, 'url', 'k1', null)]);
  });

  it('lists oldest first in pages after a time and id, and finds the owners of a type and key', async () => {
    const attachments = index.threadAttachments;
    await attachments.add(A, attachment(3, 'file', 'c', 3, 200));
    await attachments.add(A, attachment(1, 'file', 'a', 1, 100));
    await attachments.add(A, attachment(2, 'file', 'b', 2, 100));
    const first = await attachments.list(A, { limit: 2 });
    expect(first.attachments.map((item) => item.identityKey)).toEqual(['a', 'b']);
    expect(first.more).toBe(true);
    const last = first.attachments.at(-1)!;
    expect(await attachments.list(A, { after: { createdAt: last.createdAt, id: last.id }, limit: 2 })).toEqual({ attachments: [attachment(3, 'file', 'c', 3, 200)], more: false });
    await attachments.add(B, attachment(4, 'file', 'a', 4));
    expect(await attachments.owners('file', 'a')).toEqual([A, B]);
    expect(await attachments.owners('file', 'zzz')).toEqual([]);
  });

  it('removes one attachment (answering it once), or every attachment of a deleted thread, and keeps them across a reopen', async () => {
    const kept = attachment(1, 'file', 'k1', { nested: { deep: ['x'] } });
    await index.threadAttachments.add(A, kept);
    await index.threadAttachments.add(A, attachment(2, 'file', 'k2', 'gone'));
    await index.threadAttachments.add(B, attachment(3, 'file', 'k1', 'other'));
    expect((await index.threadAttachments.remove(A, 'file', 'k2'))?.payload).toBe('gone');
    expect(await index.threadAttachments.remove(A, 'file', 'k2')).toBeUndefined();
    await index.threadAttachments.removeAll(B);
    index.close();
    index = ThreadIndex.open(home.home);
    expect((await index.threadAttachments.list(A, { limit: 10 })).attachments).toEqual([kept]);
    expect(await index.threadAttachments.owners('file', 'k1')).toEqual([A]);
  });
});
