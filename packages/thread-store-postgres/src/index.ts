// @skein/thread-store-postgres: a ThreadStore in PostgreSQL, so several app-servers serve one set
// of threads (see docs/deployment.md).
export { DEFAULT_LEASE_MS, PostgresThreadStore, redactedUrl } from './postgres-thread-store.js';
export type { PostgresThreadStoreOptions } from './postgres-thread-store.js';
export { PostgresStoreError } from './postgres-store-error.js';
export type { PostgresStoreErrorCode } from './postgres-store-error.js';
export { MIGRATIONS, SCHEMA_VERSION, migrate } from './schema/migrations.js';
