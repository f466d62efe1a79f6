// The guard `codex exec` has: a turn may change files, so it runs only inside a git repository
// (where changes can be reviewed and undone) unless the user opts out with --skip-git-repo-check.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ExecError } from './exec-error.js';

/** True when `dir` or one of its ancestors holds a `.git` directory or file (a worktree or submodule). */
export function isInsideGitRepository(dir: string): boolean {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    if (existsSync(path.join(current, '.git'))) return true;
    if (path.dirname(current) === current) return false;
  }
}

/** Throws `NotInGitRepository` unless `cwd` is inside a git repository. */
export function requireGitRepository(cwd: string): void {
  if (!isInsideGitRepository(cwd)) {
    throw new ExecError('NotInGitRepository', `${cwd} is not inside a git repository; pass --skip-git-repo-check to run here anyway`);
  }
}
