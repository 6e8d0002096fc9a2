/**
 * Which tables each module of src/ writes and reads, found in its text: Kysely's builders (`insertInto('staff')`,
 * `selectFrom('staff as s')`, `innerJoin(...)`), SQL written out (`insert into`, `update … set`, `delete from`,
 * `from`, `join`), the column list of a chunked insert (`` sql`webhook_events (id, …)` ``) and an upsert's
 * specification (`Upsert<'staff'>`). Only names of tables of the schema count, so SQL words that follow `from` or
 * `update` (`for update of`, `distinct from`) do not.
 */
import { readdirSync, readFileSync } from 'node:fs';

const SRC = new URL('../../src/', import.meta.url);

/** The module a file of src/ belongs to: `features/activity/<part>`, `features/<feature>`, or its top folder. */
export function moduleOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'features' && parts[1] === 'activity') return parts.slice(0, 3).join('/');
  if (parts[0] === 'features') return parts.slice(0, 2).join('/');
  return parts[0] ?? file;
}

export interface TableUse {
  readonly file: string;
  readonly table: string;
  readonly kind: 'write' | 'read';
}

const TABLE = '([a-z_][a-z0-9_]*)';
const WRITES = [
  new RegExp(`\\.(?:insertInto|replaceInto|updateTable|deleteFrom|mergeInto)\\(\\s*'${TABLE}`, 'g'),
  new RegExp(`\\binsert\\s+(?:or\\s+\\w+\\s+)?into\\s+${TABLE}`, 'gi'),
  new RegExp(`\\bupdate\\s+${TABLE}(?:\\s+as\\s+\\w+)?\\s+set\\b`, 'gi'),
  new RegExp(`\\bdelete\\s+from\\s+${TABLE}`, 'gi'),
  new RegExp(`sql\`\\s*${TABLE}\\s*\\(`, 'g'),
  new RegExp(`Upsert<'${TABLE}'>`, 'g'),
];
const READS = [
  new RegExp(`\\.(?:selectFrom|innerJoin|leftJoin|rightJoin|fullJoin)\\(\\s*'${TABLE}`, 'g'),
  new RegExp(`(?<!\\bdelete\\s+)\\b(?:from|join)\\s+${TABLE}`, 'gi'),
];

/** The tables of the schema: the properties of `Database` in src/db/types.ts. */
export function schemaTables(): Set<string> {
  const text = readFileSync(new URL('db/types.ts', SRC), 'utf8');
  const body = /export interface Database \{([^}]*)\}/.exec(text)?.[1] ?? '';
  return new Set([...body.matchAll(/^\s*([a-z_]+):/gm)].map((m) => m[1] as string));
}

/** The tables `text` (TypeScript source) writes and reads, each once per kind. */
export function usesIn(text: string, tables: ReadonlySet<string>): { readonly table: string; readonly kind: 'write' | 'read' }[] {
  // Comments name tables in prose; only code counts.
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const found = new Map<string, { readonly table: string; readonly kind: 'write' | 'read' }>();
  for (const [kind, patterns] of [['write', WRITES], ['read', READS]] as const) {
    for (const pattern of patterns) {
      for (const match of code.matchAll(pattern)) {
        const table = (match[1] ?? '').toLowerCase();
        if (tables.has(table)) found.set(`${kind} ${table}`, { table, kind });
      }
    }
  }
  return [...found.values()];
}

/** Kysely write builders given a table that is not written out (a variable): allowed only in the store's helpers. */
export const DYNAMIC_WRITE = /\.(?:insertInto|replaceInto|updateTable|deleteFrom|mergeInto)\(\s*[^'\s)]/;

/** The source files of src/ (migrations left out: they make the schema), as paths under src/. */
export function sourceFiles(): string[] {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split('\\').join('/'))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.samples.ts') && !file.startsWith('db/migrations/'))
    .sort();
}

export function sourceText(file: string): string {
  return readFileSync(new URL(file, SRC), 'utf8');
}

/** Every use of a table by a source file of src/. */
export function tableUses(): TableUse[] {
  const tables = schemaTables();
  return sourceFiles().flatMap((file) => usesIn(sourceText(file), tables).map((use) => ({ file, ...use })));
}
