import { SqliteDatabase } from '../../src/db/sqlite-driver.ts';
import { cachingSqliteDatabase } from '../../src/db/sqlite-dialect.ts';
import { describe, expect, it } from 'vitest';

describe('SQLite statement cache', () => {
  function setup(capacity?: number) {
    const handle = new SqliteDatabase(':memory:');
    handle.exec('create table t (id integer primary key, v text)');
    let prepares = 0;
    const original = handle.prepare.bind(handle);
    handle.prepare = ((sql: string) => {
      prepares += 1;
      return original(sql);
    }) as typeof handle.prepare;
    return { handle, db: cachingSqliteDatabase(handle, capacity), prepares: () => prepares };
  }

  it('prepares a statement once and reuses it with new parameters', () => {
    const { db, prepares } = setup();
    for (let i = 0; i < 5; i += 1) db.prepare('insert into t (v) values (?)').run([`v${i}`]);
    const rows = db.prepare('select v from t where id > ? order by id').all([2]);
    expect(rows).toEqual([{ v: 'v2' }, { v: 'v3' }, { v: 'v4' }]);
    expect(prepares()).toBe(2);
  });

  it('evicts the least recently used statement beyond its capacity', () => {
    const { db, prepares } = setup(2);
    db.prepare('select 1').all([]);
    db.prepare('select 2').all([]);
    db.prepare('select 1').all([]);
    db.prepare('select 3').all([]);
    db.prepare('select 1').all([]);
    expect(prepares()).toBe(3);
    db.prepare('select 2').all([]);
    expect(prepares()).toBe(4);
  });

  it('streams through a fresh statement, so a reused one is never busy', () => {
    const { db } = setup();
    db.prepare('insert into t (v) values (?)').run(['a']);
    db.prepare('insert into t (v) values (?)').run(['b']);
    const seen: unknown[] = [];
    for (const row of db.prepare('select v from t order by id').iterate([])) {
      seen.push(row);
      expect(db.prepare('select v from t order by id').all([])).toHaveLength(2);
    }
    expect(seen).toEqual([{ v: 'a' }, { v: 'b' }]);
  });
});
