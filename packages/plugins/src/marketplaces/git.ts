// The system git, run without a shell, without prompting and with a time limit, for marketplace
// checkouts.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { PluginError } from '../plugin-error.js';

/** The longest one git command may take (a clone of a large marketplace included). */
export const GIT_TIMEOUT_MS = 10 * 60 * 1000;

// Variables that would point git at another repository than the one named.
const REPOSITORY_VARIABLES = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_COMMON_DIR'];

function gitEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0' };
  for (const name of REPOSITORY_VARIABLES) delete env[name];
  // Never wait on a question: no credential prompt, and ssh fails rather than asking about a host key.
  env['GIT_SSH_COMMAND'] ??= 'ssh -o BatchMode=yes';
  return env;
}

/** Runs `git args` in `cwd`; a failure (or running past the time limit) is a `GitFailed` carrying git's own words. */
export async function git(args: readonly string[], cwd?: string): Promise<string> {
  try {
    // Promisified here, not at load: the CLI bundle loads node:child_process only when it is first used.
    const { stdout } = await promisify(execFile)('git', [...args], { cwd, env: gitEnvironment(), maxBuffer: 16 * 1024 * 1024, timeout: GIT_TIMEOUT_MS, killSignal: 'SIGKILL' });
    return stdout.trim();
  } catch (error) {
    const { stderr, killed } = error as { stderr?: unknown; killed?: boolean };
    const detail = killed === true ? `no answer within ${GIT_TIMEOUT_MS / 1000} s` : typeof stderr === 'string' && stderr.trim() !== '' ? stderr.trim() : (error as Error).message;
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
