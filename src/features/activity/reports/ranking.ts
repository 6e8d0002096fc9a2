/**
 * Leaderboard order and keyset pages (docs/API.md, "Activity reports"): `totalSeconds` descending, then `staffId` ascending.
 * Positions are absolute (1-based) in the whole ranked list, so later pages continue the count.
 */

export interface Ranked {
  readonly staffId: string;
  readonly totalSeconds: number;
}

/** A position in the order: the last entry of the previous page. */
export interface RankCursor {
  readonly totalSeconds: number;
  readonly staffId: string;
}

export interface RankedPage<T> {
  readonly items: ReadonlyArray<{ readonly item: T; readonly position: number }>;
  /** The last item of this page when more follow, else null. */
  readonly next: RankCursor | null;
}

export function compareRanked(a: Ranked, b: Ranked): number {
  if (a.totalSeconds !== b.totalSeconds) return b.totalSeconds - a.totalSeconds;
  if (a.staffId === b.staffId) return 0;
  return a.staffId < b.staffId ? -1 : 1;
}

/** True when `item` comes after the cursor in the order. */
function isAfter(item: Ranked, cursor: RankCursor): boolean {
  return compareRanked(item, cursor) > 0;
}

/** Index of the first item after the cursor in a sorted list (binary search). */
function firstAfter(sorted: readonly Ranked[], cursor: RankCursor): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const item = sorted[mid];
    if (item !== undefined && isAfter(item, cursor)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * One page of an already sorted list: the `limit` items after the cursor (from the top without one). A cursor
 * need not name an existing entry: the page starts at the first entry after that place in the order.
 */
export function pageAfter<T extends Ranked>(sorted: readonly T[], cursor: RankCursor | null, limit: number): RankedPage<T> {
  const from = cursor === null ? 0 : firstAfter(sorted, cursor);
  const slice = sorted.slice(from, from + limit);
  const items = slice.map((item, i) => ({ item, position: from + i + 1 }));
  const last = slice[slice.length - 1];
  const next =
    last !== undefined && from + slice.length < sorted.length
      ? { totalSeconds: last.totalSeconds, staffId: last.staffId }
      : null;
  return { items, next };
}

/**
 * `sorted` with the items of the `changed` staff members replaced by `update` of each, still sorted: the others
 * keep their order, the replaced ones are sorted among themselves and merged in (linear in the list).
 */
export function withUpdated<T extends Ranked>(sorted: readonly T[], changed: ReadonlySet<string>, update: (item: T) => T): T[] {
  const kept: T[] = [];
  const updated: T[] = [];
  for (const item of sorted) {
    if (changed.has(item.staffId)) updated.push(update(item));
    else kept.push(item);
  }
  if (updated.length === 0) return kept;
  updated.sort(compareRanked);
  const out: T[] = new Array<T>(sorted.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < kept.length || j < updated.length) {
    const a = kept[i];
    const b = updated[j];
    if (b === undefined || (a !== undefined && compareRanked(a, b) <= 0)) {
      out[k++] = a as T;
      i += 1;
    } else {
      out[k++] = b;
      j += 1;
    }
  }
  return out;
}
