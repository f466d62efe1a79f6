// The system git, run without a shell and without prompting, for marketplace checkouts.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { PluginError } from '../plugin-error.js';

const run = promisify(execFile);

/** Runs `git args` in `cwd`; a failure is a `GitFailed` carrying git's own words. */
export async function git(args: readonly string[], cwd?: string): Promise<string> {
  try {
    const { stdout } = await run('git', [...args], {
      cwd,
      // Never wait on a credential prompt: a marketplace that needs one fails with git's message.
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'echo' },
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout.trim();
  } catch (error) {
    const stderr = (error as { stderr?: unknown }).stderr;
    const detail = typeof stderr === 'string' && stderr.trim() !== '' ? stderr.trim() : (error as Error).message;
    throw new PluginError('GitFailed', `git ${args[0] ?? ''} failed: ${detail}`, { cause: error });
  }
}

/** A fresh checkout of `url` at `ref` (the default branch when none) in `target`, narrowed to `sparsePaths`. */
export async function cloneMarketplace(url: string, target: string, options: { readonly ref?: string | undefined; readonly sparsePaths?: readonly string[] }): Promise<string> {
  const sparse = options.sparsePaths ?? [];
  // `--` ends the options: a URL that starts with `-` cannot become one.
  await git(['clone', '--quiet', ...(sparse.length > 0 ? ['--sparse'] : []), ...(options.ref === undefined ? [] : ['--no-checkout']), '--', url, target]);
  if (sparse.length > 0) await git(['sparse-checkout', 'set', '--cone', '--', ...sparse], target);
  if (options.ref !== undefined) await git(['checkout', '--quiet', options.ref, '--'], target);
  return git(['rev-parse', 'HEAD'], target);
}
