// Errors of the PostgreSQL store that are not a thread's (those are `RolloutError`s, as the file store throws).

/** Why the store refused or failed. */
export type PostgresStoreErrorCode =
  /** The database's schema is newer than this code. */
  | 'SchemaTooNew'
  /** The database could not be reached or failed a statement. */
  | 'Unavailable'
  /** The store's configuration is incomplete or wrong (no URL, a bad lease time). */
  | 'InvalidConfig';

export class PostgresStoreError extends Error {
  override readonly name = 'PostgresStoreError';

  constructor(
    readonly code: PostgresStoreErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
