import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.ts';
import { declaredShape, readStoredSchema, storedShape, type SchemaShape } from '../helpers/schema.ts';
import { createTestDatabase, STORE_KINDS } from '../helpers/stores.ts';

/**
 * `src/db/types.ts` is written by hand beside the migrations; this keeps the two one schema. A fresh database,
 * migrated to the latest version on each store, has exactly the tables and columns the types declare, each
 * column holding the class of value its type says (text as a string, integers and instants as a number), null
 * exactly where the type allows it, and a default wherever the type marks it `Generated` (an insert may leave it
 * out). Both sides are read whole, so a migration and its types are checked without this test changing.
 */
const declared = declaredShape(join(ROOT, 'src/db/types.ts'));

/** Everything but `generated`, which only one direction constrains (a default the types ignore does no harm). */
function withoutDefaults(shape: SchemaShape): Record<string, Record<string, { values: string; nullable: boolean }>> {
  return Object.fromEntries(
    Object.entries(shape).map(([table, columns]) => [
      table,
      Object.fromEntries(Object.entries(columns).map(([name, { values, nullable }]) => [name, { values, nullable }])),
    ]),
  );
}

describe.each(STORE_KINDS)('the migrated schema and src/db/types.ts (%s)', (kind) => {
  it('declare the same tables and columns, of the same value classes and nullability, defaults where Generated', async () => {
    const database = await createTestDatabase(kind);
    const store = database.open();
    try {
      const stored = storedShape(await readStoredSchema(store));
      expect(Object.keys(declared).length).toBeGreaterThan(20);
      expect(withoutDefaults(stored)).toEqual(withoutDefaults(declared));
      const generatedWithoutDefault = Object.entries(declared).flatMap(([table, columns]) =>
        Object.entries(columns)
          .filter(([name, column]) => column.generated && !stored[table]?.[name]?.generated)
          .map(([name]) => `${table}.${name}`),
      );
      expect(generatedWithoutDefault).toEqual([]);
    } finally {
      await store.close();
      await database.drop();
    }
  });
});
