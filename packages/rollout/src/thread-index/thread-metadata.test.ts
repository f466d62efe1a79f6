import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { temporaryHome, uuidV7 } from '../../test/support/builders.js';
import { ThreadIndex } from './thread-index.js';

let home: Awaited<ReturnType<typeof temporaryHome>>;
beforeEach(async () => (home = await temporaryHome()));
afterEach(() => home.dispose());

const THREAD = uuidV7(1);
const RECORDED = { sha: 'abc', branch: 'main', originUrl: 'https://example.com/repo.git' };

describe('ThreadMetadata', () => {
  it('merges Git fields one by one over the recorded facts, then over what was stored; null clears; a reopened index keeps it', async () => {
    const index = ThreadIndex.open(home.home);
    const metadata = index.threadMetadata;
    expect(await metadata.get(THREAD)).toEqual({ gitInfo: undefined, daybreakEnabled: null });
    expect(await metadata.update(THREAD, { gitInfo: { branch: 'feature' } }, RECORDED)).toEqual({ gitInfo: { ...RECORDED, branch: 'feature' }, daybreakEnabled: null });
    // Once stored, the recording no longer counts.
    expect(await metadata.update(THREAD, { gitInfo: { sha: null } }, { sha: 'other', branch: 'other', originUrl: null })).toEqual({
      gitInfo: { sha: null, branch: 'feature', originUrl: RECORDED.originUrl },
      daybreakEnabled: null,
    });
    expect((await metadata.update(THREAD, { daybreakEnabled: true }, undefined)).daybreakEnabled).toBe(true);
    index.close();

    const reopened = ThreadIndex.open(home.home);
    expect(await reopened.threadMetadata.get(THREAD.toUpperCase())).toEqual({ gitInfo: { sha: null, branch: 'feature', originUrl: RECORDED.originUrl }, daybreakEnabled: true });
    await reopened.threadMetadata.remove(THREAD);
    expect(await reopened.threadMetadata.get(THREAD)).toEqual({ gitInfo: undefined, daybreakEnabled: null });
    reopened.close();
  });

  it('starts from no facts when the thread recorded none', async () => {
    const index = ThreadIndex.open(home.home);
    expect((await index.threadMetadata.update(THREAD, { gitInfo: { originUrl: 'git@example.com:r.git' } }, undefined)).gitInfo).toEqual({ sha: null, branch: null, originUrl: 'git@example.com:r.git' });
    index.close();
  });
});
