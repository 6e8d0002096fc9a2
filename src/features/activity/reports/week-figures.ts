/**
 * A week's figures as the leaderboard computes them: worked time from the totals (totals/service.ts) and the
 * requirement of requirement.ts less what the approved notices of the environment waive. The roster computes its
 * page's figures here, and a staff member's page reads its periods here.
 */
import type { Executor } from '../../../db/types.ts';
import { monthPeriod, reportingTimeZone, weeksUpTo, type Period } from '../periods/periods.ts';
import type { StaffProfile } from '../../staff/profiles.ts';
import type { Workspace } from '../../workspaces/workspace.ts';
import {
  planPeriod,
  staffWorked,
  workedMsInBucket,
  type ActiveShiftTimes,
  type Worked,
} from '../totals/service.ts';
import { weeklyRequirement } from '../../staff/requirement.ts';
import { activeRows, splitShifts, totalsFromMs, type NoticeSpan, type PeriodTotals } from './report-arithmetic.ts';
import { findApprovedNotices, type ReportAudience, type StaffShiftRow } from './repository.ts';
import { requiredMinutes, requirementCalculator, weekFigures, type WeekFigures } from './requirement.ts';

/** What one read selected of a staff member's current week (the roster's page, activity/roster/repository.ts). */
export interface StaffWeekRows {
  readonly profile: StaffProfile;
  /** Their worked milliseconds in the week's bucket of the totals. */
  readonly weekWorkedMs: number;
  /** Their shifts of the environment without an end: the active ones, live and timed out. */
  readonly activeShifts: readonly ActiveShiftTimes[];
  /** Their approved notices of the environment overlapping the week. */
  readonly notices: readonly NoticeSpan[];
}

/**
 * The current week's figures of the staff members of `staff`, one at a time: their worked time as the leaderboard
 * computes it from the totals (totals/service.ts, `workedMsInBucket`), and the requirement of requirement.ts less what
 * their notices waive.
 */
export function weekFiguresCalculator(
  workspace: Workspace,
  staff: readonly StaffWeekRows[],
  week: Period,
  timedOutBefore: number,
): (row: StaffWeekRows) => WeekFigures {
  const plan = planPeriod(week, week.timeZone);
  const notices = new Map<string, readonly NoticeSpan[]>();
  for (const row of staff) if (row.notices.length > 0) notices.set(row.profile.id, row.notices);
  const requiredOf = requirementCalculator({ ...week, kind: 'week' }, workspace.settings, notices);
  return (row) => {
    const workedMs = workedMsInBucket(plan, row.profile.id, row.weekWorkedMs, row.activeShifts, timedOutBefore);
    const { totalMinutes } = totalsFromMs(workedMs, 0);
    return weekFigures(totalMinutes, requiredOf(row.profile));
  };
}

/** Weeks a staff member's page shows, the current one included. */
export const PAGE_WEEKS = 8;

export interface StaffPeriods {
  readonly week: { readonly period: Period; readonly totals: PeriodTotals; readonly figures: WeekFigures };
  readonly month: { readonly period: Period; readonly totals: PeriodTotals };
  /** The last PAGE_WEEKS weeks, oldest first, the current one last. */
  readonly weeks: ReadonlyArray<{ readonly period: Period; readonly figures: WeekFigures }>;
  /** The live shift (the most recently started when several applications have one), or null. */
  readonly live: StaffShiftRow | null;
}

function totalsOf(worked: Worked | undefined): PeriodTotals {
  return totalsFromMs(worked?.totalMs ?? 0, worked?.completedShifts ?? 0);
}

/**
 * One staff member's current week (with requirement and progress, as weekFiguresCalculator and the summary give them),
 * month, last PAGE_WEEKS weeks and live shift: one totals read for every period, and their approved notices.
 */
export async function readStaffPeriods(
  db: Executor,
  audience: ReportAudience,
  workspace: Workspace,
  profile: StaffProfile,
  now: number,
  timedOutBefore: number,
): Promise<StaffPeriods> {
  const zone = reportingTimeZone(workspace.timezone);
  const weeks = weeksUpTo(now, zone, PAGE_WEEKS);
  const month = monthPeriod(now, zone);
  const plans = [month, ...weeks].map((period) => planPeriod(period, zone));
  const first = weeks[0];
  const current = weeks[weeks.length - 1];
  if (first === undefined || current === undefined) throw new Error('a staff page shows at least one week');
  const [worked, notices] = await Promise.all([
    staffWorked(db, { ...audience, staffId: profile.id }, plans, timedOutBefore),
    findApprovedNotices(db, audience.environment, [profile.id], { start: first.start, end: current.end }),
  ]);
  const [monthWorked, ...weeksWorked] = worked.periods;
  const weekly = weeklyRequirement(profile, workspace.settings);
  const weekRows = weeks.map((period, i) => {
    const totals = totalsOf(weeksWorked[i]);
    const overlapping = notices.filter((notice) => notice.ends_at > period.start && notice.starts_at < period.end);
    return { period, totals, figures: weekFigures(totals.totalMinutes, requiredMinutes(weekly, period, 'calendar', overlapping)) };
  });
  const latest = weekRows[weekRows.length - 1];
  if (latest === undefined) throw new Error('a staff page shows at least one week');
  return {
    week: latest,
    month: { period: month, totals: totalsOf(monthWorked) },
    weeks: weekRows.map(({ period, figures }) => ({ period, figures })),
    live: splitShifts(activeRows(worked.active), timedOutBefore).live,
  };
}
