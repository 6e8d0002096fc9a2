/**
 * A staff member's requirement for a period and the progress toward it (docs/API.md, "Activity reports"): written
 * once for the summary, the leaderboard, the roster and a staff member's page, so their figures agree by
 * construction. Pure functions.
 */
import { progressPercent, requirementForPeriod, waivedForNotices, type RequirementScaling } from '../periods/period-math.ts';
import type { Period, ResolvedPeriod } from '../periods/periods.ts';
import type { StaffProfile } from '../../staff/profiles.ts';
import { weeklyRequirement } from '../../staff/requirement.ts';
import type { WorkspaceSettings } from '../../workspaces/workspace.ts';
import { noticeInterval, type NoticeSpan } from './report-arithmetic.ts';

/**
 * The minutes required in `period`: the weekly requirement scaled to it (calendar days for a week or month,
 * elapsed time for a custom range), less what the approved notices overlapping it waive; never below 0.
 */
export function requiredMinutes(
  weekly: number,
  period: Period,
  scaling: RequirementScaling,
  notices: readonly NoticeSpan[],
): number {
  const requirement = requirementForPeriod(weekly, period, scaling);
  const waived = notices.length === 0 ? 0 : waivedForNotices(requirement, notices.map(noticeInterval), period);
  return Math.max(0, requirement - waived);
}

/** A week's figures as the roster, a staff member's page, the leaderboard and the summary give them. */
export interface WeekFigures {
  readonly totalMinutes: number;
  readonly requiredMinutes: number;
  readonly progressPercent: number;
}

export function weekFigures(totalMinutes: number, required: number): WeekFigures {
  return { totalMinutes, requiredMinutes: required, progressPercent: progressPercent(totalMinutes, required) };
}

/**
 * The requirement of each staff member for one period, from their approved notices (by staff id); the scaled
 * weekly requirement is computed once per distinct weekly value.
 */
export function requirementCalculator(
  period: ResolvedPeriod,
  settings: WorkspaceSettings,
  noticesByStaff: ReadonlyMap<string, readonly NoticeSpan[]>,
): (profile: StaffProfile) => number {
  const scaling = period.kind === 'custom' ? 'custom' : 'calendar';
  const scaled = new Map<number, number>();
  return (profile) => {
    const weekly = weeklyRequirement(profile, settings);
    const notices = noticesByStaff.get(profile.id) ?? [];
    if (notices.length > 0) return requiredMinutes(weekly, period, scaling, notices);
    let value = scaled.get(weekly);
    if (value === undefined) {
      value = requiredMinutes(weekly, period, scaling, []);
      scaled.set(weekly, value);
    }
    return value;
  };
}
