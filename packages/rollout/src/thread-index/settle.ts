// The SQLite side stores work synchronously behind async interfaces (a database backend cannot):
// the work still runs at call time, so effects keep their order, and a throw becomes a rejection.

/** Runs `work` now and answers its result, or its error as a rejection, as a promise. */
export function settle<T>(work: () => T): Promise<T> {
  return new Promise<T>((resolve) => resolve(work()));
}
