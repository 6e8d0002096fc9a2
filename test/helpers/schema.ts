import { sql } from 'kysely';
import ts from 'typescript';
import type { Store } from '../../src/db/connect.ts';

/** A column as the database declares it. */
export interface StoredColumn {
  /** The declared type, lower case (`text`, `bigint`, `integer`, `double precision`). */
  type: string;
  nullable: boolean;
  /** The default expression, or null when the column has none. */
  default: string | null;
}

/** What a migrated database holds: its tables with their columns, and its indexes with their definitions. */
export interface StoredSchema {
  tables: Record<string, Record<string, StoredColumn>>;
  indexes: Record<string, string>;
}

/** The tables of the migrator's own bookkeeping: in the database, not in the application's schema. */
export const MIGRATOR_TABLES: readonly string[] = ['kysely_migration', 'kysely_migration_lock'];

/** Reads the tables, columns and indexes of the store's own schema (its PostgreSQL schema, or the SQLite file). */
export async function readStoredSchema(store: Store): Promise<StoredSchema> {
  const tables: StoredSchema['tables'] = {};
  const indexes: StoredSchema['indexes'] = {};
  if (store.dialect === 'sqlite') {
    const objects = await sql<{ type: string; name: string; tbl_name: string; sql: string | null }>`
      select type, name, tbl_name, sql from sqlite_master where name not like 'sqlite_%' order by name`.execute(store.db);
    for (const object of objects.rows) {
      if (object.type === 'index') indexes[object.name] = `${object.tbl_name}: ${object.sql ?? '(implicit)'}`;
      if (object.type !== 'table') continue;
      const columns = await sql<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>`
        select name, type, "notnull", dflt_value, pk from pragma_table_info(${object.name})`.execute(store.db);
      tables[object.name] = Object.fromEntries(
        columns.rows.map((column) => [
          column.name,
          // A primary key column other than an INTEGER one may hold NULL in SQLite, but no statement writes one.
          { type: column.type.toLowerCase(), nullable: column.notnull === 0 && column.pk === 0, default: column.dflt_value },
        ]),
      );
    }
    return { tables, indexes };
  }
  const columns = await sql<{ table_name: string; column_name: string; data_type: string; is_nullable: string; column_default: string | null }>`
    select table_name, column_name, data_type, is_nullable, column_default
    from information_schema.columns
    where table_schema = current_schema()
    order by table_name, ordinal_position`.execute(store.db);
  for (const column of columns.rows) {
    (tables[column.table_name] ??= {})[column.column_name] = {
      type: column.data_type.toLowerCase(),
      nullable: column.is_nullable === 'YES',
      default: column.column_default,
    };
  }
  const indexRows = await sql<{ indexname: string; tablename: string; indexdef: string }>`
    select indexname, tablename, indexdef from pg_indexes where schemaname = current_schema() order by indexname`.execute(store.db);
  for (const index of indexRows.rows) indexes[index.indexname] = `${index.tablename}: ${index.indexdef}`;
  return { tables, indexes };
}

/** The class of values a column holds, as the code reads and writes them. */
export type ValueClass = 'string' | 'number';

/** A column reduced to what `src/db/types.ts` can say of it. */
export interface ColumnShape {
  values: ValueClass;
  nullable: boolean;
  /** Has a default, so an insert may leave it out (`Generated<…>` in the types). */
  generated: boolean;
}

export type SchemaShape = Record<string, Record<string, ColumnShape>>;

const STRING_TYPES = new Set(['text', 'character varying', 'varchar']);
const NUMBER_TYPES = new Set(['integer', 'bigint', 'smallint', 'real', 'double precision', 'numeric']);

/** The database's schema reduced to value classes, nullability and defaults; the migrator's tables left out. */
export function storedShape(schema: StoredSchema): SchemaShape {
  const shape: SchemaShape = {};
  for (const [table, columns] of Object.entries(schema.tables)) {
    if (MIGRATOR_TABLES.includes(table)) continue;
    shape[table] = {};
    for (const [name, column] of Object.entries(columns)) {
      const values: ValueClass | undefined = STRING_TYPES.has(column.type) ? 'string' : NUMBER_TYPES.has(column.type) ? 'number' : undefined;
      if (!values) throw new Error(`${table}.${name}: no value class for the column type ${column.type}`);
      shape[table][name] = { values, nullable: column.nullable, generated: column.default !== null };
    }
  }
  return shape;
}

/**
 * The schema `src/db/types.ts` declares: the tables of its `Database` interface, each table interface's columns with
 * the class of their values (string or number, literal unions and aliases such as `Environment` resolved), whether
 * `null` is one of them and whether the column is `Generated<…>`. Read with the TypeScript compiler, so a table or
 * a column added to the types is compared without this helper changing.
 */
export function declaredShape(typesFile: string): SchemaShape {
  const program = ts.createProgram([typesFile], { strict: true, noEmit: true, allowImportingTsExtensions: true, target: ts.ScriptTarget.ESNext, module: ts.ModuleKind.NodeNext });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(typesFile);
  if (!source) throw new Error(`${typesFile} was not read`);
  const interfaces = new Map<string, ts.InterfaceDeclaration>();
  for (const statement of source.statements) if (ts.isInterfaceDeclaration(statement)) interfaces.set(statement.name.text, statement);
  const database = interfaces.get('Database');
  if (!database) throw new Error(`${typesFile} declares no Database interface`);
  const shape: SchemaShape = {};
  for (const member of database.members) {
    if (!ts.isPropertySignature(member) || !member.type || !ts.isTypeReferenceNode(member.type)) throw new Error(`Database: ${member.getText(source)} is not a table`);
    const tableName = member.name.getText(source);
    const table = interfaces.get(member.type.typeName.getText(source));
    if (!table) throw new Error(`Database.${tableName}: ${member.type.getText(source)} is not an interface of ${typesFile}`);
    shape[tableName] = {};
    for (const column of table.members) {
      if (!ts.isPropertySignature(column) || !column.type) throw new Error(`${tableName}: ${column.getText(source)} is not a column`);
      let typeNode: ts.TypeNode = column.type;
      let generated = false;
      if (ts.isTypeReferenceNode(typeNode) && typeNode.typeName.getText(source) === 'Generated' && typeNode.typeArguments?.[0]) {
        generated = true;
        typeNode = typeNode.typeArguments[0];
      }
      const type = checker.getTypeFromTypeNode(typeNode);
      const parts = type.isUnion() ? type.types : [type];
      const classes = new Set<ValueClass>();
      let nullable = false;
      for (const part of parts) {
        if (part.flags & ts.TypeFlags.Null) nullable = true;
        else if (part.flags & ts.TypeFlags.StringLike) classes.add('string');
        else if (part.flags & ts.TypeFlags.NumberLike) classes.add('number');
        else throw new Error(`${tableName}.${column.name.getText(source)}: ${checker.typeToString(part)} is neither a string, a number nor null`);
      }
      const [values, ...others] = [...classes];
      if (!values || others.length > 0) throw new Error(`${tableName}.${column.name.getText(source)}: ${typeNode.getText(source)} is not of one value class`);
      shape[tableName][column.name.getText(source)] = { values, nullable, generated };
    }
  }
  return shape;
}
