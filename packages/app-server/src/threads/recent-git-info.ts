// The git facts a new thread's header records (commit, branch, origin), shared by the threads that
// start in one folder within a few seconds. Each lookup runs git — up to four processes, each a fork
// of the whole server, so the cost grows with the server's memory — and a server loading many
// threads in one folder asked the same question hundreds of times (issue #43).
import { collectGitInfo, type GitInfo } from '@skein/rollout';

/**
 * How long an answer is reused. A commit or checkout made meanwhile shows in the threads started
 * after the answer expires; a header's git facts are a record of where the thread began, not a
 * live view, so a few seconds' lag is within what they promise.
 */
export const GIT_INFO_REUSE_MS = 3_000;

/** What `recentGitInfo` needs: the real lookup and a monotonic clock (injected by tests). */
export interface RecentGitInfoOptions {
  readonly collect?: (cwd: string) => Promise<GitInfo | undefined>;
  readonly monotonicMs?: () => number;
  readonly reuseMs?: number;
}

/**
 * A `FileThreadStoreOptions.gitInfo` that answers a folder asked about within `reuseMs` with the same
 * lookup, keyed by the cwd as given; lookups under way are shared too. Entries older than that are
 * dropped on the next miss, so it holds only the folders asked about lately.
 */
export function recentGitInfo(options: RecentGitInfoOptions = {}): (cwd: string) => Promise<GitInfo | undefined> {
  const collect = options.collect ?? ((cwd: string) => collectGitInfo(cwd));
  const monotonicMs = options.monotonicMs ?? (() => performance.now());
  const reuseMs = options.reuseMs ?? GIT_INFO_REUSE_MS;
  const lookups = new Map<string, { readonly startedMs: number; readonly info: Promise<GitInfo | undefined> }>();
  return (cwd) => {
    const now = monotonicMs();
    const known = lookups.get(cwd);
    if (known !== undefined && now - known.startedMs < reuseMs) return known.info;
    for (const [folder, lookup] of lookups) if (now - lookup.startedMs >= reuseMs) lookups.delete(folder);
    const info = collect(cwd);
    lookups.set(cwd, { startedMs: now, info });
    // A failed lookup is not kept: the next thread asks again.
    info.catch(() => lookups.delete(cwd));
    return info;
  };
}
