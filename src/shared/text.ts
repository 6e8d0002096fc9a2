/**
 * How texts are ordered wherever the service sorts them itself (ids, names, object keys): as JavaScript's `<`
 * orders them, by UTF-16 code units, case sensitive and the same on both stores (PostgreSQL would sort text by its
 * collation, SQLite by bytes). Within the Basic Multilingual Plane that is code-point order.
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
