import type { GitInfo } from '@skein/rollout';
import { describe, expect, it } from 'vitest';
import { recentGitInfo } from './recent-git-info.js';

/** A lookup that counts its calls and answers with the folder and the call's number. */
function countingLookup() {
  const calls: string[] = [];
  const collect = (cwd: string): Promise<GitInfo | undefined> => {
    calls.push(cwd);
    return Promise.resolve({ branch: `${cwd}#${calls.length}` });
  };
  return { calls, collect };
}

describe('recentGitInfo (issue #43: one git run per thread/start)', () => {
  it('answers a folder asked about again within the window with the same lookup, under way or done', async () => {
    const { calls, collect } = countingLookup();
    let now = 0;
    const gitInfo = recentGitInfo({ collect, monotonicMs: () => now, reuseMs: 1000 });

    const [first, second] = await Promise.all([gitInfo('/repo'), gitInfo('/repo')]);
    now = 999;
    const third = await gitInfo('/repo');

    expect(calls).toEqual(['/repo']);
    expect([first, second, third]).toEqual([{ branch: '/repo#1' }, { branch: '/repo#1' }, { branch: '/repo#1' }]);
  });

  it('looks again once the window has passed, and for another folder at once', async () => {
    const { calls, collect } = countingLookup();
    let now = 0;
    const gitInfo = recentGitInfo({ collect, monotonicMs: () => now, reuseMs: 1000 });

    await gitInfo('/repo');
    expect(await gitInfo('/other')).toEqual({ branch: '/other#2' });
    now = 1000;

    expect(await gitInfo('/repo')).toEqual({ branch: '/repo#3' });
    expect(calls).toEqual(['/repo', '/other', '/repo']);
  });

  it('does not keep a lookup that failed', async () => {
    let attempts = 0;
    const gitInfo = recentGitInfo({
      collect: () => (++attempts === 1 ? Promise.reject(new Error('git went away')) : Promise.resolve({ branch: 'main' })),
      monotonicMs: () => 0,
    });

    await expect(gitInfo('/repo')).rejects.toThrow('git went away');

    expect(await gitInfo('/repo')).toEqual({ branch: 'main' });
  });
});
