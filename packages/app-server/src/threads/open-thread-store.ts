// Opens the thread store `[skein.thread_store]` names: the home directory's files (the default) or
// a PostgreSQL database shared with other hosts, whose URL comes from the environment.
import type { ThreadStoreSettings } from '@skein/config';
import type { ContextFragmentDefinition } from '@skein/protocol';
import { FileThreadStore, type GitInfo, type ThreadStore } from '@skein/rollout';

/** What either store needs besides the settings. */
export interface OpenThreadStoreOptions {
  readonly home: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly contextFragments: readonly ContextFragmentDefinition[];
  readonly gitInfo?: (cwd: string) => Promise<GitInfo | undefined>;
  /** Whether the file store brings its index up to date with the files on open (default true). */
  readonly reconcileOnOpen?: boolean;
  /** Told about failures no request waits for (the database store's idle connections and lease renewals). */
  readonly onWarning?: (message: string) => void;
}

/**
 * Why the configured database store cannot be opened before anything is asked of it: no URL, a
 * database that cannot be reached, a schema newer than this Skein (the store's own error is `cause`).
 */
export class ThreadStoreConfigError extends Error {
  override readonly name = 'ThreadStoreConfigError';
}

/** Opens the configured store. */
export async function openThreadStore(settings: ThreadStoreSettings, options: OpenThreadStoreOptions): Promise<ThreadStore> {
  if (settings.kind === 'files') {
    return FileThreadStore.open({
      home: options.home,
      contextFragments: options.contextFragments,
      ...(options.gitInfo === undefined ? {} : { gitInfo: options.gitInfo }),
      ...(options.reconcileOnOpen === undefined ? {} : { reconcileOnOpen: options.reconcileOnOpen }),
    });
  }
  const url = options.env[settings.urlEnv];
  if (url === undefined || url === '') {
    throw new ThreadStoreConfigError(`[skein.thread_store] kind = "postgres" reads the database URL from $${settings.urlEnv}, which is not set`);
  }
  // Loaded only here: a host keeping threads in files never loads the database driver.
  const { PostgresThreadStore } = await import('@skein/thread-store-postgres');
  return await PostgresThreadStore.open({
    url,
    leaseMs: settings.leaseMs,
    maxConnections: settings.maxConnections,
    contextFragments: options.contextFragments,
    ...(settings.hostId === undefined ? {} : { hostId: settings.hostId }),
    ...(options.gitInfo === undefined ? {} : { gitInfo: options.gitInfo }),
    onWarning: (message, error) => options.onWarning?.(`${message}: ${(error as Error).message}`),
  }).catch((error: unknown) => {
    // Its message names the redacted URL and the reason; a host prints it as a start-up error.
    throw new ThreadStoreConfigError((error as Error).message, { cause: error });
  });
}
