import { validationError } from './errors.ts';

/**
 * The two query parameters of a keyset cursor (the last item's sort value and id, from the previous page's
 * `nextCursor`), which are sent together or not at all: null without either, both values with both, and a 400
 * naming the missing one when only one is sent. `location` is the issue path's prefix (`query`, `querystring`).
 */
export function cursorPair<Q extends object, A extends keyof Q & string, B extends keyof Q & string>(
  query: Q,
  [first, second]: readonly [A, B],
  location: string,
): readonly [NonNullable<Q[A]>, NonNullable<Q[B]>] | null {
  const a = query[first];
  const b = query[second];
  if (a === undefined && b === undefined) return null;
  if (a === undefined || a === null || b === undefined || b === null) {
    const missing = a === undefined || a === null ? first : second;
    throw validationError(
      [{ path: `${location}.${missing}`, message: 'is required with the other cursor parameter' }],
      `\`${first}\` and \`${second}\` must be sent together.`,
    );
  }
  return [a, b];
}
