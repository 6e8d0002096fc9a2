import { validationError } from './errors.ts';
import { parseIsoDateTime } from './clock.ts';

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

/** Where a page ordered by (an instant, id) starts: after this item; null from the top. */
export interface TimeCursor {
  /** Epoch ms of the last item's instant. */
  readonly at: number;
  readonly id: string;
}

/**
 * A keyset cursor of an instant (an ISO 8601 date-time with an offset) and an id, sent in the query string as
 * `cursor<Instant>` and `cursorId` (see cursorPair); a malformed instant is a 400 naming it.
 */
export function timeCursor<Q extends Partial<Record<A | 'cursorId', string>>, A extends string>(
  query: Q,
  instant: A,
): TimeCursor | null {
  const pair = cursorPair(query as Record<A | 'cursorId', string | undefined>, [instant, 'cursorId'], 'querystring');
  if (pair === null) return null;
  const [text, id] = pair;
  const at = parseIsoDateTime(text);
  if (at === undefined) {
    throw validationError(
      [{ path: `querystring.${instant}`, message: 'must be an ISO 8601 date-time with an offset' }],
      `\`${instant}\` must be an ISO 8601 date-time with an offset.`,
    );
  }
  return { at, id };
}
