import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DYNAMIC_WRITE, moduleOf, schemaTables, sourceFiles, sourceText, tableUses, usesIn } from '../helpers/statements.ts';

/** docs/DATA.md's table: each table's owner and the modules that also read it. */
function ownerTable(): Map<string, { readonly owner: string; readonly readers: readonly string[] }> {
  const text = readFileSync(new URL('../../docs/DATA.md', import.meta.url), 'utf8');
  const rows = new Map<string, { owner: string; readers: string[] }>();
  for (const match of text.matchAll(/^\| `([a-z_0-9]+)` \| `([^`]+)` \| (.*) \|$/gm)) {
    const [, table = '', owner = '', readers = ''] = match;
    expect(rows.has(table), `${table} is listed twice`).toBe(false);
    rows.set(table, { owner, readers: [...readers.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string) });
  }
  return rows;
}

describe('each table has one owner (docs/DATA.md)', () => {
  const owners = ownerTable();
  const uses = tableUses();

  it('lists every table of the schema, and only those', () => {
    expect([...owners.keys()].sort()).toEqual([...schemaTables()].sort());
  });

  it('only the owner inserts, updates or deletes a table', () => {
    const foreign = uses
      .filter((use) => use.kind === 'write' && moduleOf(use.file) !== owners.get(use.table)?.owner)
      .map((use) => `${use.file} writes ${use.table} (owner: ${owners.get(use.table)?.owner})`);
    expect(foreign).toEqual([]);
  });

  it('a table is read in statements of its owner and its listed readers only', () => {
    const unlisted = uses
      .filter((use) => {
        const entry = owners.get(use.table);
        const module = moduleOf(use.file);
        return use.kind === 'read' && module !== entry?.owner && !entry?.readers.includes(module);
      })
      .map((use) => `${use.file} reads ${use.table}`);
    expect(unlisted, 'a new reader: run `npm run docs:generate` to list it in docs/DATA.md').toEqual([]);
  });

  it('every listed reader still reads the table (the list stays true)', () => {
    const stale = [...owners].flatMap(([table, { readers }]) =>
      readers
        .filter((reader) => !uses.some((use) => use.kind === 'read' && use.table === table && moduleOf(use.file) === reader))
        .map((reader) => `${reader} no longer reads ${table}`),
    );
    expect(stale, 'run `npm run docs:generate` to list the readers again').toEqual([]);
  });

  it('writes name their table: a builder given a table in a variable is only the store helper of an upsert', () => {
    const dynamic = sourceFiles().filter((file) => !file.startsWith('db/') && DYNAMIC_WRITE.test(sourceText(file)));
    expect(dynamic).toEqual([]);
  });

  it('finds every form a statement takes', () => {
    const tables = new Set(['staff', 'shifts', 'workspaces', 'webhook_events']);
    const found = (text: string) => usesIn(text, tables).map((use) => `${use.kind} ${use.table}`);
    expect(found("db.insertInto('staff').values(row)")).toEqual(['write staff']);
    expect(found("db.updateTable('staff as s').set({})")).toEqual(['write staff']);
    expect(found('sql`update shifts\n  set last_seen_at = 1`')).toEqual(['write shifts']);
    expect(found('sql`delete from shifts where id = 1`')).toEqual(['write shifts']);
    expect(found('sql`insert into workspaces (id) values (1)`')).toEqual(['write workspaces']);
    expect(found("const S: Upsert<'staff'> = { table: 'staff' }")).toEqual(['write staff']);
    expect(found('insertInChunks(db, rows, sql`webhook_events (id, body)`)')).toEqual(['write webhook_events']);
    expect(found("db.selectFrom('staff').leftJoin('shifts as h', 'h.id', 's.id')")).toEqual(['read staff', 'read shifts']);
    expect(found('sql`select 1 from shifts as h join staff s on s.id = h.staff_id`')).toEqual(['read shifts', 'read staff']);
    // SQL words after `update` are not tables; comments (on lines of their own) do not count.
    expect(found('sql`select 1 for update of shifts skip locked`\n  // delete from staff\n/* update staff set */')).toEqual([]);
    expect(DYNAMIC_WRITE.test('db.insertInto(table).values(rows)')).toBe(true);
    expect(DYNAMIC_WRITE.test("db.insertInto('staff').values(rows)")).toBe(false);
  });
});
