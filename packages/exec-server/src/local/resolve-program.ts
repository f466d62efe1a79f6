// Finds, before spawning, that the working directory exists and the program can be found and run, so
// pipes and PTYs fail the same way at start (a PTY would otherwise start and print the failure).
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';
import { isSystemError, osErrorMessage } from '../file-system-error.js';
import { ProcessError } from '../process-api.js';

// What the C library searches when PATH is unset.
const DEFAULT_SEARCH_PATH = '/usr/local/bin:/usr/bin:/bin';

function spawnFailure(errno: string, detail: string): ProcessError {
  return new ProcessError('SpawnFailed', `${osErrorMessage(errno)}: ${detail}`, errno);
}

async function isExecutableFile(candidate: string): Promise<boolean> {
  try {
    if (!(await stat(candidate)).isFile()) return false;
    await access(candidate, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The absolute path of `program` as the child would find it (relative to `cwd`, or on the `PATH` of
 * `env`). Throws ProcessError 'SpawnFailed' (with the errno) when it cannot be started in `cwd`.
 */
export async function resolveProgram(program: string, cwd: string, env: Readonly<Record<string, string>>): Promise<string> {
  try {
    if (!(await stat(cwd)).isDirectory()) throw spawnFailure('ENOTDIR', `working directory ${cwd} is not a directory`);
  } catch (error) {
    if (isSystemError(error)) throw spawnFailure(error.code, `working directory ${cwd}`);
    throw error;
  }
  if (program.includes('/')) {
    const resolved = path.resolve(cwd, program);
    try {
      await access(resolved, constants.X_OK);
    } catch (error) {
      if (isSystemError(error)) throw spawnFailure(error.code, `program ${resolved}`);
      throw error;
    }
    return resolved;
  }
  const searchPath = env.PATH ?? DEFAULT_SEARCH_PATH;
  for (const directory of searchPath.split(':')) {
    const candidate = path.resolve(cwd, directory === '' ? '.' : directory, program);
    if (await isExecutableFile(candidate)) return candidate;
  }
  throw spawnFailure('ENOENT', `program ${JSON.stringify(program)} was not found on PATH ${searchPath}`);
}
