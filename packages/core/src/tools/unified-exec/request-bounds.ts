// How an exec_command or write_stdin request's wait and working directory are read: the yield times
// clamped to Codex's bounds, and `workdir` resolved against the turn's cwd.
import { PathUri } from '@skein/protocol';
import { DEFAULT_EXEC_YIELD_TIME_MS, DEFAULT_WRITE_STDIN_YIELD_TIME_MS, MAX_EMPTY_YIELD_TIME_MS, MAX_YIELD_TIME_MS, MIN_EMPTY_YIELD_TIME_MS, MIN_YIELD_TIME_MS } from './limits.js';
import { UnifiedExecError } from './unified-exec-error.js';

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** The wait of an exec_command. */
export function execYieldTime(requested: number | null | undefined): number {
  return clamp(Math.floor(requested ?? DEFAULT_EXEC_YIELD_TIME_MS), MIN_YIELD_TIME_MS, MAX_YIELD_TIME_MS);
}

/** The wait of a write_stdin: a poll (empty `chars`) waits longer, so polling loops stay cheap. */
export function writeYieldTime(requested: number | null | undefined, poll: boolean): number {
  const asked = Math.max(Math.floor(requested ?? DEFAULT_WRITE_STDIN_YIELD_TIME_MS), MIN_YIELD_TIME_MS);
  return poll ? clamp(asked, MIN_EMPTY_YIELD_TIME_MS, MAX_EMPTY_YIELD_TIME_MS) : Math.min(asked, MAX_YIELD_TIME_MS);
}

/** The directory a command runs in: the turn's cwd, or `workdir` (absolute, or relative to the cwd). */
export function resolveWorkdir(cwd: PathUri, workdir: string | null | undefined): PathUri {
  if (workdir === null || workdir === undefined || workdir === '') return cwd;
  try {
    if (workdir.startsWith('/') || /^[A-Za-z]:[\\/]/.test(workdir) || workdir.startsWith('\\\\')) return PathUri.fromNativePath(workdir, cwd.convention);
    return cwd.join(workdir);
  } catch (error) {
    throw new UnifiedExecError('InvalidWorkdir', `workdir '${workdir}': ${(error as Error).message}`);
  }
}
