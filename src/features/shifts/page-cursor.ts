import { validationError } from '../../errors.ts';
import { cursorPair } from '../../paging.ts';
import { parseIsoDateTime } from '../activity/periods.ts';
import type { ActiveShiftsQuery } from './schemas.ts';

/** Where a page of the active shifts list starts: after this shift in (startedAt, id) order; null from the top. */
export function pageCursor(query: ActiveShiftsQuery): { startedAt: number; id: string } | null {
  const pair = cursorPair(query, ['cursorStartedAt', 'cursorId'], 'querystring');
  if (pair === null) return null;
  const [cursorStartedAt, id] = pair;
  const startedAt = parseIsoDateTime(cursorStartedAt);
  if (startedAt === undefined) {
    throw validationError(
      [{ path: 'querystring.cursorStartedAt', message: 'must be an ISO 8601 date-time with an offset' }],
      '`cursorStartedAt` must be an ISO 8601 date-time with an offset.',
    );
  }
  return { startedAt, id };
}
