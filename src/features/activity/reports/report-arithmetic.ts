/**
 * In-memory report arithmetic over one staff member's shifts and notices (docs/API.md, "Activity reports"). Pure
 * functions.
 */
import { toIso } from '../../../shared/clock.ts';
import {
  clipMs,
  totalSecondsFromMs,
  waivedForNotices,
  wholeMinutes,
  type Interval,
} from '../periods/period-math.ts';
import type { Period } from '../periods/periods.ts';
import { isLive, isStale } from '../shifts/rules.ts';
import { isCompleted } from '../shifts/status.ts';
import { liveShiftFields } from '../shifts/views.ts';
import type { NoticeRow, StaffShiftRow } from './repository.ts';
import type { WorkedRow } from '../totals/service.ts';
import type { InactivityEffect, ReportActiveShift } from './schemas.ts';

/** What a notice's waiver is computed from: its span. */
export type NoticeSpan = Pick<NoticeRow, 'starts_at' | 'ends_at'>;

export interface PeriodTotals {
  readonly totalSeconds: number;
  readonly totalMinutes: number;
  readonly completedShifts: number;
}

/** Totals from summed clipped milliseconds: seconds and minutes are each rounded down once, from the sum. */
export function totalsFromMs(totalMs: number, completedShifts: number): PeriodTotals {
  const totalSeconds = totalSecondsFromMs(totalMs);
  return { totalSeconds, totalMinutes: wholeMinutes(totalSeconds), completedShifts };
}

export interface StaffShifts {
  /** Completed shifts, and timed-out active ones as the completed shifts they are (ending at the last heartbeat). */
  readonly worked: Interval[];
  /** The live active shift (most recently started, if several applications have one), or null. */
  readonly live: StaffShiftRow | null;
}

/**
 * Sorts a staff member's shifts into worked time and the live active shift. An active shift last seen before
 * `timedOutBefore` has timed out: it is over, at its `last_heartbeat_at` (what the sweep will record).
 */
export function splitShifts(rows: readonly StaffShiftRow[], timedOutBefore: number): StaffShifts {
  const worked: Interval[] = [];
  let live: StaffShiftRow | null = null;
  for (const row of rows) {
    if (isCompleted(row) && row.ended_at !== null) {
      worked.push({ start: row.started_at, end: row.ended_at });
    } else if (isStale(row, timedOutBefore)) {
      worked.push({ start: row.started_at, end: row.last_heartbeat_at });
    } else if (isLive(row, timedOutBefore)) {
      const later = live === null || row.started_at > live.started_at || (row.started_at === live.started_at && row.id > live.id);
      if (later) live = row;
    }
  }
  return { worked, live };
}

/** The active shift rows of a totals read as the shift rows the live view is built from. */
export function activeRows(rows: readonly WorkedRow[]): StaffShiftRow[] {
  return rows.map((row) => ({
    id: String(row.id),
    status: String(row.status),
    started_at: Number(row.started_at),
    ended_at: null,
    last_heartbeat_at: Number(row.last_heartbeat_at),
    last_seen_at: Number(row.last_seen_at),
    universe_id: String(row.universe_id),
    place_id: String(row.place_id),
    server_id: String(row.server_id),
  }));
}

export function activeShiftView(row: StaffShiftRow | null, now: number): ReportActiveShift | null {
  return row === null ? null : liveShiftFields(row, now);
}

export interface NoticeWaiver {
  /** Whole minutes all the notices waive together (their union counted once). */
  readonly waivedMinutes: number;
  /** The notice overlapping the period most (then the earliest, then the lowest id), or null when none does. */
  readonly effect: InactivityEffect | null;
}

/** What approved notices take off a period's requirement, and the notice reported as its effect. */
export function noticeWaiver(notices: readonly NoticeRow[], requirementMinutes: number, period: Period): NoticeWaiver {
  const waivedMinutes = waivedForNotices(requirementMinutes, notices.map(noticeInterval), period);
  let best: { notice: NoticeRow; overlapMs: number } | null = null;
  for (const notice of notices) {
    const overlapMs = clipMs(notice.starts_at, notice.ends_at, period);
    if (overlapMs <= 0) continue;
    if (best === null || overlapMs > best.overlapMs || (overlapMs === best.overlapMs && precedes(notice, best.notice))) {
      best = { notice, overlapMs };
    }
  }
  if (best === null) return { waivedMinutes, effect: null };
  const { notice } = best;
  return {
    waivedMinutes,
    effect: {
      noticeId: notice.id,
      startsAt: toIso(notice.starts_at),
      endsAt: toIso(notice.ends_at),
      reason: notice.reason,
      waivedMinutes,
    },
  };
}

export function noticeInterval(notice: NoticeSpan): Interval {
  return { start: notice.starts_at, end: notice.ends_at };
}

function precedes(a: NoticeRow, b: NoticeRow): boolean {
  return a.starts_at < b.starts_at || (a.starts_at === b.starts_at && a.id < b.id);
}
