// Where threads are kept (Skein's own, `[skein.thread_store]`): the home directory's files and
// SQLite index (the default, Codex-compatible), or a PostgreSQL database several hosts share. The
// database URL is never written in config: `url_env` names the environment variable that holds it.
import * as z from 'zod';

/** `[skein.thread_store]`. */
export const ThreadStoreToml = z
  .object({
    kind: z.enum(['files', 'postgres']).optional(),
    /** The environment variable holding the database URL (default `SKEIN_DATABASE_URL`). */
    url_env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name').optional(),
    /** This host's name in leases and in other hosts' refusals (default `hostname:pid`). */
    host_id: z.string().min(1).max(200).optional(),
    /** How long a host holds a thread it stopped renewing before another may take it over. */
    lease_secs: z.number().min(1).max(3600).optional(),
    /** Most database connections this host opens. */
    max_connections: z.int().min(1).max(1000).optional(),
  })
  .strict();
export type ThreadStoreToml = z.infer<typeof ThreadStoreToml>;

export const DEFAULT_DATABASE_URL_ENV = 'SKEIN_DATABASE_URL';
export const DEFAULT_LEASE_SECS = 30;
export const DEFAULT_MAX_CONNECTIONS = 10;

/** Where threads are kept. */
export type ThreadStoreSettings =
  | { readonly kind: 'files' }
  | {
      readonly kind: 'postgres';
      readonly urlEnv: string;
      readonly hostId: string | undefined;
      readonly leaseMs: number;
      readonly maxConnections: number;
    };

/** The settings `[skein.thread_store]` makes. */
export function threadStoreSettings(table: ThreadStoreToml | undefined): ThreadStoreSettings {
  if (table?.kind !== 'postgres') return { kind: 'files' };
  return {
    kind: 'postgres',
    urlEnv: table.url_env ?? DEFAULT_DATABASE_URL_ENV,
    hostId: table.host_id,
    leaseMs: Math.round((table.lease_secs ?? DEFAULT_LEASE_SECS) * 1000),
    maxConnections: table.max_connections ?? DEFAULT_MAX_CONNECTIONS,
  };
}
