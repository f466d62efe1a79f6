// The store's schema as numbered migrations, run in order on open, each in a transaction with the
// version row it adds. A database newer than this code is refused rather than written to.
import type pg from 'pg';
import { inTransaction } from '../database.js';
import { PostgresStoreError } from '../postgres-store-error.js';
import { sideStoresSchema } from './side-stores-schema.js';
import { threadsSchema } from './threads-schema.js';

/** One step of the schema. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly statements: readonly string[];
}

/** Every migration, oldest first. */
export const MIGRATIONS: readonly Migration[] = [threadsSchema, sideStoresSchema];

/** The schema version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS.at(-1)?.version ?? 0;

// Two hosts starting at once must not both migrate: the first takes this lock, the second waits.
const MIGRATION_LOCK_KEY = 0x736b65696e; // "skein"

/** Brings the database to `SCHEMA_VERSION`; answers the versions it applied. */
export async function migrate(pool: pg.Pool): Promise<number[]> {
  return inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query('CREATE TABLE IF NOT EXISTS skein_schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
    const { rows } = await client.query<{ version: number }>('SELECT version FROM skein_schema_migrations');
    const applied = new Set(rows.map((row) => row.version));
    const newest = Math.max(0, ...applied);
    if (newest > SCHEMA_VERSION) {
      throw new PostgresStoreError('SchemaTooNew', `the database's schema is version ${newest}, newer than this Skein's ${SCHEMA_VERSION}; upgrade Skein on this host`);
    }
    const ran: number[] = [];
    for (const migration of MIGRATIONS) {
      if (applied.has(migration.version)) continue;
      for (const statement of migration.statements) await client.query(statement);
      await client.query('INSERT INTO skein_schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      ran.push(migration.version);
    }
    return ran;
  });
}
