// The pool every part of the store queries through, and transactions over it. A connection that
// fails (the database restarted, the network dropped) is replaced by the pool on the next query.
import pg from 'pg';

/** What a query runs on: the pool, or one client inside a transaction. */
export interface Queryable {
  query<Row extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: readonly unknown[]): Promise<pg.QueryResult<Row>>;
}

/** Options of `openPool`. */
export interface PoolOptions {
  readonly url: string;
  /** Most connections the pool opens (default 10). */
  readonly maxConnections?: number;
  /** How long a query waits for a connection before failing (default 10 s). */
  readonly connectTimeoutMs?: number;
  /** Told about an idle connection's error (the pool drops that connection). */
  readonly onIdleError?: (error: Error) => void;
}

/** Opens a pool; connections are made on demand. */
export function openPool(options: PoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    // Lines are text and ids are text: nothing here needs pg's type parsing beyond the defaults.
    application_name: 'skein',
  });
  // An idle client's error (the server went away) would otherwise be an unhandled 'error' event.
  pool.on('error', (error) => options.onIdleError?.(error));
  return pool;
}

/** Runs `work` in one transaction on one client: committed when it resolves, rolled back when it throws. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: Queryable) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: unknown;
  // A connection that dies while checked out emits 'error' on its client, which would otherwise be
  // an uncaught exception; the query in flight fails on its own, and the client is not reused.
  const onError = (error: Error): void => {
    broken ??= error;
  };
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: unknown) => {
      broken = rollbackError;
    });
    throw error;
  } finally {
    client.off('error', onError);
    // A client whose connection failed, or whose rollback did, is in an unknown state: the pool
    // closes it instead of reusing it.
    client.release(broken === undefined ? undefined : (broken as Error));
  }
}
