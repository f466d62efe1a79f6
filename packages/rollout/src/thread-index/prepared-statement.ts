// better-sqlite3 compiles SQL on every prepare(); the index runs the same few statements at every turn
// boundary (the thread's row, its read receipt, its search text), so each connection keeps the ones it
// compiled. Statements are keyed by their text, which never carries values (those are bound), so the
// set stays small; the cap only guards against a caller that builds SQL from data.
import type Database from 'better-sqlite3';

const MAX_STATEMENTS_PER_CONNECTION = 256;
const compiled = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/**
 * `db.prepare(sql)`, compiled once per connection. A reading statement comes back in its default
 * mode (a caller's `.pluck()` is not left for the next one).
 */
export function prepared(db: Database.Database, sql: string): Database.Statement {
  let statements = compiled.get(db);
  if (statements === undefined) {
    statements = new Map();
    compiled.set(db, statements);
  }
  let statement = statements.get(sql);
  if (statement === undefined) {
    if (statements.size >= MAX_STATEMENTS_PER_CONNECTION) statements.clear();
    statement = db.prepare(sql);
    statements.set(sql, statement);
  } else if (statement.reader) {
    statement.pluck(false).raw(false);
  }
  return statement;
}
