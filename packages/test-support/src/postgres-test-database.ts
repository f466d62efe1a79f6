// A fresh database per test file on the cluster `SKEIN_TEST_DATABASE_URL` names (see
// tools/postgres/test-cluster.sh; `.ci/run` starts one). Without it the tests are skipped with the
// reason, unless `SKEIN_REQUIRE_POSTGRES=1` (CI), which makes its absence a failure.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const adminUrl = (): string | undefined => process.env['SKEIN_TEST_DATABASE_URL'] || undefined;

/**
 * Why the PostgreSQL tests cannot run here, or undefined when they can. Throws when
 * `SKEIN_REQUIRE_POSTGRES=1` and no cluster is named, so CI cannot skip them.
 */
export function postgresSkipReason(): string | undefined {
  if (adminUrl() !== undefined) return undefined;
  if (process.env['SKEIN_REQUIRE_POSTGRES'] === '1') throw new Error('SKEIN_REQUIRE_POSTGRES=1 but SKEIN_TEST_DATABASE_URL is not set: run `eval "$(bash tools/postgres/test-cluster.sh)"`');
  return 'no PostgreSQL: set SKEIN_TEST_DATABASE_URL (eval "$(bash tools/postgres/test-cluster.sh)")';
}

/** A database of its own for one test file; `drop` ends its connections and removes it. */
export interface TestDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

/** Creates an empty database on the test cluster. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const admin = adminUrl();
  if (admin === undefined) throw new Error(postgresSkipReason());
  const name = `skein_test_${randomBytes(6).toString('hex')}`;
  await withAdmin((admin) => admin.query(`CREATE DATABASE ${name}`));
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      withAdmin(async (admin) => {
        await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
        await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      }),
  };
}

async function withAdmin<T>(work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}
