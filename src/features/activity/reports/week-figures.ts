/**
 * A week's figures as the leaderboard computes them: worked time from the totals (totals/service.ts) and the
 * requirement of requirement.ts less what the approved notices of the environment waive. The roster computes its
 * page's figures here from the totals the leaderboard's ranking holds (rankings.ts), and a staff member's page
 * reads its periods here.
 */
import type { Executor } from '../../../db/types.ts';
import { monthPeriod, reportingTimeZone, weeksUpTo, type Period } from '../periods/periods.ts';
import type { StaffProfile } from '../../staff/profiles.ts';
import type { Workspace } from '../../workspaces/workspace.ts';
import { planPeriod, staffWorked, type Worked } from '../totals/service.ts';
import { weeklyRequirement } from '../../staff/requirement.ts';
import { activeRows, splitShifts, totalsFromMs, type NoticeSpan, type PeriodTotals } from './report-arithmetic.ts';
import { findApprovedNotices, type ReportAudience, type StaffShiftRow } from './repository.ts';
import { requiredMinutes, requirementCalculator, weekFigures, type WeekFigures } from './requirement.ts';

/** A staff member of the roster's page (activity/roster/repository.ts) and their approved notices overlapping the week. */
export interface StaffWeekNotices {
  readonly profile: StaffProfile;
  readonly notices: readonly NoticeSpan[];
}

/**
 * The current week's figures of the staff members of `staff`, one at a time: the whole minutes they worked (as the
 * leaderboard's ranking holds them, rankings.ts `staffTotals`), and the requirement of requirement.ts less what their
 * notices waive.
 */
export function weekFiguresCalculator(
  workspace: Workspace,
  staff: readonly StaffWeekNotices[],
  week: Period,
): (profile: StaffProfile, totalMinutes: number) => WeekFigures {
  const notices = new Map<string, readonly NoticeSpan[]>();
  for (const row of staff) if (row.notices.length > 0) notices.set(row.profile.id, row.notices);
  const requiredOf = requirementCalculator({ ...week, kind: 'week' }, workspace.settings, notices);
  return (profile, totalMinutes) => weekFigures(totalMinutes, requiredOf(profile));
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
