import { toIso } from '../../shared/clock.ts';
import type { NoticeItemRow, NoticeRow } from './repository.ts';
import { NOTICE_STATUSES, type NoticeStatus } from './rules.ts';
import type { Notice, NoticeItem } from './schemas.ts';

/** Statuses are checked where notices are written; anything else is a broken row, not an answer. */
function noticeStatus(value: string): NoticeStatus {
  if ((NOTICE_STATUSES as readonly string[]).includes(value)) return value as NoticeStatus;
  throw new Error(`unknown notice status ${JSON.stringify(value)}`);
}

const instantOrNull = (value: number | string | null): string | null => (value === null ? null : toIso(Number(value)));

/** A notice as the API shows it (docs/API.md, "Inactivity notices"). */
export function noticeView(row: NoticeRow): Notice {
  return {
    id: row.id,
    staffId: row.staff_id,
    environment: row.environment,
    startsAt: toIso(Number(row.starts_at)),
    endsAt: toIso(Number(row.ends_at)),
    reason: row.reason,
    status: noticeStatus(row.status),
    createdAt: toIso(Number(row.created_at)),
    decidedAt: instantOrNull(row.decided_at),
    decisionNote: row.decision_note,
  };
}

/** A notice of the managers' list: the notice, its staff member and who decided it. */
export function noticeItemView(row: NoticeItemRow): NoticeItem {
  return {
    ...noticeView(row),
    staff: {
      id: row.staff_id,
      displayName: row.display_name,
      gameUserId: row.game_user_id,
      chatUserId: row.chat_user_id,
      departmentId: row.department_id,
    },
    decidedBy: row.decided_by,
  };
}
