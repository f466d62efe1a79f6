// A git work tree for checkpoint tests: made with real git, read back as file hashes and modes, and
// the user's git state (index file bytes, HEAD, branches, stash) to prove a checkpoint left it alone.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const IDENTITY = { GIT_AUTHOR_NAME: 'Test', GIT_AUTHOR_EMAIL: 'test@example.invalid', GIT_COMMITTER_NAME: 'Test', GIT_COMMITTER_EMAIL: 'test@example.invalid' };

/** Runs git in `dir` and returns its stdout. */
export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, ...IDENTITY } });
}

/** Every file under `root` (outside `.git`) as `sha256-prefix mode`, keyed by its path from the root. */
export function fileHashes(root: string, skip: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      const relative = path.relative(root, full);
      if (entry.name === '.git' || skip.includes(relative)) continue;
      if (entry.isDirectory()) walk(full);
      else out[relative] = `${createHash('sha256').update(readFileSync(full)).digest('hex').slice(0, 16)} ${(statSync(full).mode & 0o777).toString(8)}`;
    }
  };
  walk(root);
  return out;
}

/** The user's git state, byte for byte: the index file, HEAD, every ref outside Skein's, the stash. */
export function userGitState(dir: string): string {
  const index = path.join(dir, '.git', 'index');
  return [
    existsSync(index) ? createHash('sha256').update(readFileSync(index)).digest('hex') : 'no index',
    readFileSync(path.join(dir, '.git', 'HEAD'), 'utf8'),
    git(dir, 'for-each-ref', '--format=%(refname) %(objectname)').split('\n').filter((line) => !line.startsWith('refs/skein/')).join('\n'),
    git(dir, 'stash', 'list'),
  ].join('\n--\n');
}

/** A repository with three committed files, an ignored folder, a second branch, a stash entry and a staged change. */
export function userRepository(dir: string): void {
  git(dir, 'init', '-q', '-b', 'main');
  writeFileSync(path.join(dir, '.gitignore'), 'node_modules/\n');
  for (const name of ['keep.txt', 'edit.txt', 'gone.txt']) writeFileSync(path.join(dir, name), `${name} as committed\n`);
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'initial');
  git(dir, 'branch', 'feature');
  writeFileSync(path.join(dir, 'keep.txt'), 'stashed edit\n');
  git(dir, 'stash', 'push', '-q');
  writeFileSync(path.join(dir, 'staged.txt'), 'staged by the user\n');
  git(dir, 'add', 'staged.txt');
  mkdirSync(path.join(dir, 'node_modules', 'dep'), { recursive: true });
  writeFileSync(path.join(dir, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
}

