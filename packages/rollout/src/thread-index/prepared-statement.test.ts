import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prepared } from './prepared-statement.js';

let db: Database.Database;
beforeEach(() => {
  db = new Database(':memory:');
  db.exec('CREATE TABLE t (x INTEGER)');
});
afterEach(() => db.close());

describe('prepared', () => {
  it('compiles a statement once per connection and hands it back in its default mode', () => {
    prepared(db, 'INSERT INTO t (x) VALUES (?)').run(7);
    const select = 'SELECT x FROM t';
    expect(prepared(db, select).pluck().get()).toBe(7);
    expect(prepared(db, select).get()).toEqual({ x: 7 });
    expect(prepared(db, select)).toBe(prepared(db, select));

    const other = new Database(':memory:');
    try {
      other.exec('CREATE TABLE t (x INTEGER)');
      expect(prepared(other, select)).not.toBe(prepared(db, select));
      expect(prepared(other, select).get()).toBeUndefined();
    } finally {
      other.close();
    }
  });
});
