import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isInsideGitRepository, requireGitRepository } from './git-repo-check.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'skein-git-check-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the git repository check', () => {
  it('finds a .git directory in an ancestor, and a .git file (worktrees, submodules)', () => {
    mkdirSync(path.join(dir, 'repo', '.git'), { recursive: true });
    mkdirSync(path.join(dir, 'repo', 'src', 'deep'), { recursive: true });
    expect(isInsideGitRepository(path.join(dir, 'repo', 'src', 'deep'))).toBe(true);
    mkdirSync(path.join(dir, 'worktree'));
    writeFileSync(path.join(dir, 'worktree', '.git'), 'gitdir: /elsewhere\n');
    expect(isInsideGitRepository(path.join(dir, 'worktree'))).toBe(true);
  });

  it('refuses a directory outside any repository with NotInGitRepository naming the flag', () => {
    mkdirSync(path.join(dir, 'plain'));
    // The scratch directory itself must not sit inside a repository for this to mean anything.
    expect(isInsideGitRepository(dir)).toBe(false);
    expect(() => requireGitRepository(path.join(dir, 'plain'))).toThrow(expect.objectContaining({ code: 'NotInGitRepository', message: expect.stringContaining('--skip-git-repo-check') as string }));
  });
});
