// The environments a thread or turn asks for (`environments: [{environmentId, cwd}]`), resolved
// against the server's environment manager and each cwd checked on its own environment.
import path from 'node:path';
import { isStartingEnvironment, type SelectedEnvironment, type StartingEnvironment, type ThreadEnvironment } from '@skein/core';
import { AppServerErrorCode, FileSystemError, PathUri } from '@skein/protocol';
import { AppServerRequestError } from '../app-server-error.js';
import { environmentError, reasonOf, type EnvironmentManager } from './environment-manager.js';

/** A thread's or turn's environments as the server could resolve them. */
export interface EnvironmentSelection {
  /**
   * The entries that resolved, each with its cwd, in selection order (the first is where the thread
   * works); a configured executor still connecting is a starting entry (see `settleSelection`).
   */
  readonly environments: readonly SelectedEnvironment[];
  /** The primary's cwd, which becomes the thread's. */
  readonly cwd: string | undefined;
  /** One line per entry that was skipped, for `warning` notifications. */
  readonly warnings: readonly string[];
}

/**
 * The environments a thread or turn asks for: undefined when it names none (keep the current one),
 * else the first entry that resolves is the primary. An id the server does not know, or a cwd that is
 * no directory on its environment (asked of that environment's own file system, so a remote cwd is
 * checked on the executor), is the client's mistake and refuses the request before anything changes;
 * a known environment that cannot be reached now is skipped with a warning, so one dead executor does
 * not fail the thread.
 */
export async function selectEnvironment(
  environments: readonly { readonly environmentId: string; readonly cwd: string; readonly runtimeWorkspaceRoots?: readonly string[] | null | undefined }[] | null | undefined,
  manager: EnvironmentManager,
): Promise<EnvironmentSelection | undefined> {
  if (environments === undefined || environments === null) return undefined;
  const unknown = environments.find((entry) => !manager.has(entry.environmentId));
  if (unknown !== undefined) throw environmentError(unknown.environmentId, 'unknownEnvironment', `unknown environment id \`${unknown.environmentId}\``);
  for (const entry of environments) checkWorkspaceRoots(entry.runtimeWorkspaceRoots, entry.environmentId);
  const warnings: string[] = [];
  const skipped = (environmentId: string, error: unknown) => warnings.push(`environment \`${environmentId}\` was skipped: ${error instanceof Error ? error.message : String(error)}`);
  const seen = new Set<string>();
  const candidates: { readonly environmentId: string; readonly environment: (ThreadEnvironment & { readonly cwd: string }) | StartingEnvironment }[] = [];
  for (const entry of environments) {
    // Duplicate ids: the first wins.
    if (seen.has(entry.environmentId)) continue;
    seen.add(entry.environmentId);
    const roots = entry.runtimeWorkspaceRoots === undefined || entry.runtimeWorkspaceRoots === null ? {} : { workspaceRoots: [...entry.runtimeWorkspaceRoots] };
    // Its cwd is checked once it has connected: a cwd that is no directory there fails it then.
    const starting = manager.starting(entry.environmentId, entry.cwd);
    if (starting !== undefined) {
      const ready = starting.ready.then(async (environment) => {
        const check = await checkCwd(entry.environmentId, { ...environment, cwd: entry.cwd });
        if (check !== undefined) throw check;
        return environment;
      });
      // Observed by the thread (or by settleSelection); unobserved if the request is refused later.
      ready.catch(() => undefined);
      candidates.push({ environmentId: entry.environmentId, environment: { ...starting, ...roots, ready } });
      continue;
    }
    try {
      candidates.push({ environmentId: entry.environmentId, environment: { ...manager.resolve(entry.environmentId), cwd: entry.cwd, ...roots } });
    } catch (error) {
      skipped(entry.environmentId, error);
    }
  }
  // Every cwd is checked (in parallel) before any entry is taken, so a refusal leaves nothing half-applied.
  const checks = await Promise.all(candidates.map(({ environmentId, environment }) => (isStartingEnvironment(environment) ? Promise.resolve(undefined) : checkCwd(environmentId, environment))));
  const refused = checks.find((check) => check instanceof AppServerRequestError);
  if (refused !== undefined) throw refused;
  const resolved: SelectedEnvironment[] = [];
  candidates.forEach(({ environmentId, environment }, index) => {
    const check = checks[index];
    if (check === undefined) resolved.push(environment);
    else skipped(environmentId, check);
  });
  return { environments: resolved, cwd: resolved[0]?.cwd, warnings };
}

/**
 * The selection a thread or turn starts with. With `deferred_executor` on it is `environments` as
 * they are: one still connecting reaches the model as `starting`. Off, the thread waits for each one
 * still connecting (as Codex's start-up does); one that fails is left out with a warning.
 */
export async function settleSelection(environments: readonly SelectedEnvironment[], deferred: boolean): Promise<{ readonly environments: readonly SelectedEnvironment[]; readonly warnings: readonly string[] }> {
  if (deferred) return { environments, warnings: [] };
  const warnings: string[] = [];
  const settled = await Promise.all(
    environments.map(async (environment): Promise<SelectedEnvironment | undefined> => {
      if (!isStartingEnvironment(environment)) return environment;
      try {
        return { ...(await environment.ready), cwd: environment.cwd, workspaceRoots: environment.workspaceRoots };
      } catch (error) {
        warnings.push(`environment \`${environment.id}\` was skipped: ${reasonOf(environment.id, error)}`);
        return undefined;
      }
    }),
  );
  return { environments: settled.filter((environment) => environment !== undefined), warnings };
}

/**
 * Refuses workspace roots that are not absolute paths (in either path convention: the executor's is
 * known only once it is connected); `environmentId` names the entry they came with, if any.
 */
export function checkWorkspaceRoots(roots: readonly string[] | null | undefined, environmentId?: string): void {
  const relative = roots?.find((root) => !path.posix.isAbsolute(root) && !/^(?:[A-Za-z]:[\\/]|\\\\[^\\/]+[\\/][^\\/]+)/.test(root));
  if (relative === undefined) return;
  // Codex's words for an environment's root; the same shape for a thread's own.
  const where = environmentId === undefined ? '' : ` for environment \`${environmentId}\``;
  throw new AppServerRequestError(AppServerErrorCode.InvalidRequest, `invalid runtime workspace root${where}: path \`${relative}\` does not use absolute POSIX or Windows path syntax`, {
    ...(environmentId === undefined ? {} : { environmentId }),
    reason: 'invalidWorkspaceRoot',
    root: relative,
  });
}

/** Why `data.reason` of a refused environment cwd: it is no directory there. */
const INVALID_CWD_REASON = 'invalidCwd';

/**
 * Checks on the environment's own file system (`fs/getMetadata` on a remote executor) that `cwd` is
 * a directory there: undefined when it is, the -32600 error naming the environment and the cwd when
 * it is not, or the failure itself when the environment could not be asked (it went away).
 */
async function checkCwd(environmentId: string, environment: ThreadEnvironment & { readonly cwd: string }): Promise<AppServerRequestError | Error | undefined> {
  const { cwd } = environment;
  const invalid = (why: string) =>
    new AppServerRequestError(AppServerErrorCode.InvalidRequest, `environment \`${environmentId}\`: cwd \`${cwd}\` ${why}`, { environmentId, reason: INVALID_CWD_REASON, cwd });
  let uri: PathUri;
  try {
    uri = PathUri.fromNativePath(cwd, environment.os === 'windows' ? 'windows' : 'posix');
  } catch {
    return invalid('is not an absolute path');
  }
  try {
    const metadata = await environment.fileSystem.getMetadata(uri);
    return metadata.isDirectory ? undefined : invalid('is not a directory on that environment');
  } catch (error) {
    if (!(error instanceof FileSystemError)) return error instanceof Error ? error : new Error(String(error));
    if (error.code === 'NotFound') return invalid('does not exist on that environment');
    if (error.code === 'NotADirectory') return invalid('is not a directory on that environment');
    return invalid(`cannot be used on that environment: ${error.message}`);
  }
}
