import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { temporaryHome } from '../test/support/builders.js';
import { collectGitInfo } from './git-info.js';

const GIT_ENV = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1', HOME: '/nonexistent' };
let dir: Awaited<ReturnType<typeof temporaryHome>>;
beforeEach(async () => (dir = await temporaryHome()));
afterEach(() => dir.dispose());

const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@e', '-c', 'init.defaultBranch=main', ...args], { cwd, env: GIT_ENV }).toString().trim();

describe('collectGitInfo', () => {
  it('reads commit, branch and origin of a repository (from a subfolder too)', async () => {
    git(dir.home, 'init', '-q');
    git(dir.home, 'commit', '-q', '--allow-empty', '-m', 'first');
    git(dir.home, 'remote', 'add', 'origin', 'https://example.com/skein.git');
    const sub = path.join(dir.home, 'sub');
    await mkdir(sub);
    expect(await collectGitInfo(sub, { env: GIT_ENV })).toEqual({ commit_hash: git(dir.home, 'rev-parse', 'HEAD'), branch: 'main', repository_url: 'https://example.com/skein.git' });
  });

  it('leaves out what a fresh repository does not have', async () => {
    git(dir.home, 'init', '-q');
    expect(await collectGitInfo(dir.home, { env: GIT_ENV })).toEqual({ branch: 'main' });
  });

  it('is undefined outside a repository', async () => {
    expect(await collectGitInfo(dir.home, { env: { ...GIT_ENV, GIT_CEILING_DIRECTORIES: path.dirname(dir.home) } })).toBeUndefined();
  });
});
