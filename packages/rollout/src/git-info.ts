// Git facts for a new thread's header when its cwd is a repository: commit, branch, origin URL.
import { execFile } from 'node:child_process';
import type { GitInfo } from './lines/session-meta.js';

/** How long one git command may run before it is abandoned (a huge repository must not stall a new thread). */
export const GIT_COMMAND_TIMEOUT_MS = 5_000;

/** Options of `collectGitInfo`. */
export interface CollectGitInfoOptions {
  readonly timeoutMs?: number;
  /** The environment git runs with; the process's own by default. */
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * The commit hash, branch and `origin` URL of the repository `cwd` is in, or undefined when it is
 * not in one (or git is missing). Facts git cannot give (no commit yet, a detached HEAD, no
 * origin) are left out; the branch is read from HEAD, so a repository without commits has one.
 */
export async function collectGitInfo(cwd: string, options: CollectGitInfoOptions = {}): Promise<GitInfo | undefined> {
  const git = (args: readonly string[]) => runGit(cwd, args, options);
  if ((await git(['rev-parse', '--is-inside-work-tree'])) !== 'true') return undefined;
  const [commit, branch, origin] = await Promise.all([git(['rev-parse', 'HEAD']), git(['symbolic-ref', '--short', '-q', 'HEAD']), git(['remote', 'get-url', 'origin'])]);
  return {
    ...(commit === undefined ? {} : { commit_hash: commit }),
    ...(branch === undefined ? {} : { branch }),
    ...(origin === undefined ? {} : { repository_url: origin }),
  };
}

function runGit(cwd: string, args: readonly string[], options: CollectGitInfoOptions): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(
      'git',
      args,
      { cwd, timeout: options.timeoutMs ?? GIT_COMMAND_TIMEOUT_MS, env: options.env ?? process.env, maxBuffer: 64 * 1024 },
      (error, stdout) => resolve(error === null ? stdout.trim() || undefined : undefined),
    );
  });
}
