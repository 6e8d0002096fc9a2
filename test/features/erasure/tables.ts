/**
 * Reads of a whole database for the erasure tests: every text column of every table searched for a value, and
 * every row of every table, whatever tables later migrations add.
 */
import { sql } from 'kysely';
import type { Store } from '../../../src/db/connect.ts';

interface Column {
  readonly table: string;
  readonly column: string;
}

async function tableNames(store: Store): Promise<string[]> {
  if (store.dialect === 'sqlite') {
    const { rows } = await sql<{ name: string }>`
      select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(store.db);
    return rows.map((row) => row.name);
  }
  const { rows } = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(store.db);
  return rows.map((row) => row.table_name);
}

/** Every text column of every table of the store. */
export async function textColumns(store: Store): Promise<Column[]> {
  if (store.dialect === 'sqlite') {
    const columns: Column[] = [];
    for (const table of await tableNames(store)) {
      const { rows } = await sql<{ name: string; type: string }>`select name, type from pragma_table_info(${table})`.execute(
        store.db,
      );
      for (const row of rows) if (/text|char|clob/i.test(row.type)) columns.push({ table, column: row.name });
    }
    return columns;
  }
  const { rows } = await sql<{ table_name: string; column_name: string }>`
    select c.table_name, c.column_name from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
      and c.data_type in ('text', 'character varying', 'character', 'json', 'jsonb')
    order by c.table_name, c.column_name`.execute(store.db);
  return rows.map((row) => ({ table: row.table_name, column: row.column_name }));
}

/** `table.column` of every text column holding `value` anywhere in its text (case-sensitive). */
export async function columnsContaining(store: Store, value: string): Promise<string[]> {
  const found: string[] = [];
  for (const { table, column } of await textColumns(store)) {
    const ref = sql.ref(column);
    const holds = store.dialect === 'postgres' ? sql`strpos(${ref}::text, ${value}) > 0` : sql`instr(${ref}, ${value}) > 0`;
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)} where ${holds}`.execute(
      store.db,
    );
    if (Number(rows[0]?.n ?? 0) > 0) found.push(`${table}.${column}`);
  }
  return found;
}

/** Every row of every table but `except`, as sorted JSON text per table: equal dumps mean equal data. */
export async function dumpTables(store: Store, except: readonly string[]): Promise<Record<string, string[]>> {
  const dump: Record<string, string[]> = {};
  for (const table of await tableNames(store)) {
    if (except.includes(table)) continue;
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(store.db);
    const text = (row: Record<string, unknown>) =>
      JSON.stringify(row, (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value));
    dump[table] = rows.map(text).sort();
  }
  return dump;
}
