/**
 * Activity reports (docs/API.md, "Activity reports"): the self summary, per-staff aggregates and the leaderboard. Reads see
 * the calling key's workspace and environment only. Active shifts are reported, never added to the totals.
 */
import type { ApiKeyActor } from '../../../shared/actor.ts';
import { toIso, type Clock } from '../../../shared/clock.ts';
import type { Config } from '../../../shared/config.ts';
import type { Executor } from '../../../db/types.ts';
import { notFound } from '../../../shared/errors.ts';
import { cursorPair } from '../../../shared/paging.ts';
import { progressPercent, requirementForPeriod } from '../periods/period-math.ts';
import {
  dayPeriod,
  monthPeriod,
  previousWeekPeriod,
  reportingTimeZone,
  resolvePeriod,
  weekPeriod,
  type Period,
} from '../periods/periods.ts';
import { staleBefore } from '../shifts/rules.ts';
import { findStaffByGameUser, findStaffProfiles } from '../../staff/profiles.ts';
import { weeklyRequirement } from '../../staff/requirement.ts';
import { resolveActingStaff, type ChatContext } from '../../staff/service.ts';
import { callerWorkspace, type Workspace } from '../../workspaces/workspace.ts';
import { pageAfter, compareRanked, withUpdated, type RankCursor } from './ranking.ts';
import { RankingCache, type Advance, type RankingEntry } from './ranking-cache.ts';
import {
  changedStaff,
  planPeriod,
  rowsByStaff,
  staffWorked,
  workspaceWorked,
  type Worked,
} from '../totals/service.ts';
import {
  earliestLiveSeen,
  findApprovedNotices,
  listRankedStaffIds,
  type ReportAudience,
} from './repository.ts';
import {
  DEFAULT_LEADERBOARD_LIMIT,
  type ActivitySummary,
  type Leaderboard,
  type LeaderboardEntry,
  type LeaderboardQuery,
  type PeriodQueryParams,
  type StaffActivity,
} from './schemas.ts';
import { requiredMinutes, requirementCalculator } from './requirement.ts';
import { activeRows, activeShiftView, noticeWaiver, splitShifts, totalsFromMs, type PeriodTotals } from './report-arithmetic.ts';

export interface ReportServiceDeps {
  readonly db: Executor;
  /** Runs one report's reads in a turn of the event loop that has room for them (the store's `read`). */
  readonly read: <T>(job: () => Promise<T>) => Promise<T>;
  readonly clock: Clock;
  readonly config: Pick<Config, 'shiftTimeoutSeconds'>;
}

/** The zone periods are computed in: the workspace's, or UTC when it has none this runtime knows. */
function reportingZone(workspace: Workspace): string {
  return reportingTimeZone(workspace.timezone);
}

function periodTotalsOf(worked: Worked | undefined): PeriodTotals {
  return totalsFromMs(worked?.totalMs ?? 0, worked?.completedShifts ?? 0);
}

function audienceOf(actor: ApiKeyActor): ReportAudience {
  return { workspaceId: actor.application.workspaceId, environment: actor.environment };
}

function periodView(period: Period) {
  return { start: toIso(period.start), end: toIso(period.end), timezone: period.timeZone };
}

/** `true` or `1` include inactive staff; anything else does not. */
/** `true` (read as a boolean by the query validator) or `1`; any other value means false. */
function includesInactive(value: boolean | string | undefined): boolean {
  return value === true || value === 'true' || value === '1';
}

function leaderboardCursor(query: LeaderboardQuery): RankCursor | null {
  const pair = cursorPair(query, ['cursorTotalSeconds', 'cursorStaffId'], 'query');
  return pair && { totalSeconds: pair[0], staffId: pair[1].toLowerCase() };
}

/** More changed staff than this since a cached ranking: compute it in full (one read of the workspace). */
const MAX_ADVANCED_STAFF = 256;

interface RankedStaff {
  readonly staffId: string;
  readonly totalSeconds: number;
  readonly totalMinutes: number;
  readonly completedShifts: number;
}

export function createReportService({ db, read, clock, config }: ReportServiceDeps) {
  const timedOutBefore = (now: number) => staleBefore(now, config.shiftTimeoutSeconds);
  const rankings = new RankingCache<RankedStaff>();

  const workspaceOf = (audience: ReportAudience): Promise<Workspace> =>
    callerWorkspace(db, audience.workspaceId, audience.unconfirmedKey);

  const reports = {
    /**
     * The invoking chat user's own activity: today, this and last week, this month, requirement and notices. An
     * unconfirmed key the actor carries is checked by the first read.
     */
    async summary(actor: ApiKeyActor, chat: ChatContext): Promise<ActivitySummary> {
      const { workspace, staff } = await resolveActingStaff(db, actor, chat);
      const zone = reportingZone(workspace);
      const now = clock.now();
      const today = dayPeriod(now, zone);
      const week = weekPeriod(now, zone);
      const previousWeek = previousWeekPeriod(now, zone);
      const month = monthPeriod(now, zone);
      // One read for every period: a few bucket rows, plus the staff member's active shifts.
      const cutoff = timedOutBefore(now);
      const [worked, notices] = await Promise.all([
        staffWorked(
          db,
          { ...audienceOf(actor), staffId: staff.id },
          [today, week, previousWeek, month].map((period) => planPeriod(period, zone)),
          cutoff,
        ),
        findApprovedNotices(db, actor.environment, [staff.id], week),
      ]);
      const [todayWorked, weekWorked, previousWeekWorked, monthWorked] = worked.periods.map(periodTotalsOf);
      const { live } = splitShifts(activeRows(worked.active), cutoff);
      const currentWeekMinutes = weekWorked?.totalMinutes ?? 0;
      const weekly = weeklyRequirement(staff, workspace.settings);
      const { effect } = noticeWaiver(notices, requirementForPeriod(weekly, week, 'calendar'), week);
      const required = requiredMinutes(weekly, week, 'calendar', notices);
      return {
        todayMinutes: todayWorked?.totalMinutes ?? 0,
        currentWeekMinutes,
        previousWeekMinutes: previousWeekWorked?.totalMinutes ?? 0,
        currentMonthMinutes: monthWorked?.totalMinutes ?? 0,
        weeklyRequiredMinutes: required,
        progressPercent: progressPercent(currentWeekMinutes, required),
        activeShift: activeShiftView(live, now),
        inactivityEffect: effect,
        timezone: zone,
        currentWeekStart: toIso(week.start),
        currentWeekEnd: toIso(week.end),
        currentMonthStart: toIso(month.start),
        currentMonthEnd: toIso(month.end),
      };
    },

    /** Totals of one staff member (by game user id) over a week, a month or a custom range. */
    async staffActivity(actor: ApiKeyActor, gameUserId: string, query: PeriodQueryParams): Promise<StaffActivity> {
      // Both reads at once (one round trip fewer on PostgreSQL); request validation (400) still comes before
      // the lookup's 404.
      const [workspace, staff] = await Promise.all([
        workspaceOf(audienceOf(actor)),
        findStaffByGameUser(db, actor.application.workspaceId, gameUserId),
      ]);
      const now = clock.now();
      const period = resolvePeriod(query, now, reportingZone(workspace));
      if (!staff) throw notFound('A staff member with this gameUserId');
      const cutoff = timedOutBefore(now);
      const worked = await staffWorked(
        db,
        { ...audienceOf(actor), staffId: staff.id },
        [planPeriod(period, period.timeZone)],
        cutoff,
      );
      const { live } = splitShifts(activeRows(worked.active), cutoff);
      return {
        staff: { id: staff.id, displayName: staff.displayName, gameUserId: staff.gameUserId },
        period: periodView(period),
        ...periodTotalsOf(worked.periods[0]),
        activeShift: activeShiftView(live, now),
      };
    },

    /**
     * Staff of the workspace ranked by time worked in the period, one keyset page at a time. An unconfirmed key the
     * audience carries is checked by the first read.
     */
    async leaderboard(audience: ReportAudience, query: LeaderboardQuery): Promise<Leaderboard> {
      const workspace = await workspaceOf(audience);
      const now = clock.now();
      const period = resolvePeriod(query, now, reportingZone(workspace));
      const cursor = leaderboardCursor(query);
      const limit = query.limit ?? DEFAULT_LEADERBOARD_LIMIT;
      const statuses = includesInactive(query.includeInactive) ? ['active', 'inactive'] : ['active'];
      const departmentId = query.departmentId?.toLowerCase() ?? null;

      // Ranking needs only ids and totals; profiles, requirements and notices are read for the page alone.
      const rankingKey = [workspace.id, audience.environment, period.start, period.end, statuses.join(','), departmentId ?? ''].join('|');
      const plan = planPeriod(period, period.timeZone);
      const version = workspace.activityVersion;
      const computeRanking = async (): Promise<RankingEntry<RankedStaff>> => {
        const [staffIds, totals, earliestLiveSeenAt] = await Promise.all([
          listRankedStaffIds(db, workspace.id, { statuses, departmentId }),
          workspaceWorked(db, audience, plan, timedOutBefore(now)),
          earliestLiveSeen(db, audience, timedOutBefore(now)),
        ]);
        const list: RankedStaff[] = staffIds.map((staffId) => ({ staffId, ...periodTotalsOf(totals.get(staffId)) }));
        list.sort(compareRanked);
        // Exact until the earliest live shift (or one started from now on) could time out and start counting.
        return { ranked: list, validFrom: now, validUntil: Math.min(earliestLiveSeenAt ?? now, now) + config.shiftTimeoutSeconds * 1000 };
      };
      // A ranking of an older version: recompute only the staff members the versions since changed (a stop
      // changes one), when every version between says which; the staff ranked are the same (a change of who is
      // ranked moves the version without saying, and so computes in full).
      const advanceRanking: Advance<RankedStaff> = async (previous, fromVersion) => {
        const changed = await changedStaff(db, workspace.id, fromVersion, version);
        if (changed === null || changed.length > MAX_ADVANCED_STAFF) return null;
        if (changed.length === 0) return previous;
        const totals = await workspaceWorked(db, { ...audience, staffIds: changed }, plan, timedOutBefore(now));
        const ranked = withUpdated(previous.ranked, new Set(changed), (item) => ({
          staffId: item.staffId,
          ...periodTotalsOf(totals.get(item.staffId)),
        }));
        return { ranked, validFrom: previous.validFrom, validUntil: previous.validUntil };
      };
      const ranked = await rankings.get(rankingKey, version, now, computeRanking, advanceRanking);
      const page = pageAfter(ranked, cursor, limit);

      const pageIds = page.items.map(({ item }) => item.staffId);
      const [profiles, notices] = await Promise.all([
        findStaffProfiles(db, workspace.id, pageIds),
        findApprovedNotices(db, audience.environment, pageIds, period),
      ]);
      const profileOf = new Map(profiles.map((profile) => [profile.id, profile]));
      const requiredOf = requirementCalculator(period, workspace.settings, rowsByStaff(notices));
      const entries: LeaderboardEntry[] = [];
      for (const { item, position } of page.items) {
        const profile = profileOf.get(item.staffId);
        // Deleted between the two reads: left out rather than shown half-empty (staff are never deleted today).
        if (!profile) continue;
        entries.push({
          staffId: item.staffId,
          displayName: profile.displayName,
          gameUserId: profile.gameUserId,
          gameUsername: profile.gameUsername,
          totalSeconds: item.totalSeconds,
          totalMinutes: item.totalMinutes,
          completedShifts: item.completedShifts,
          department: profile.department?.name ?? '',
          rank: profile.rank ?? '',
          progressPercent: progressPercent(item.totalMinutes, requiredOf(profile)),
          position,
        });
      }
      return {
        entries,
        nextCursor: page.next ? { cursorTotalSeconds: page.next.totalSeconds, cursorStaffId: page.next.staffId } : null,
        period: periodView(period),
      };
    },
  };

  return {
    summary: (actor: ApiKeyActor, chat: ChatContext) => read(() => reports.summary(actor, chat)),
    staffActivity: (actor: ApiKeyActor, gameUserId: string, query: PeriodQueryParams) =>
      read(() => reports.staffActivity(actor, gameUserId, query)),
    leaderboard: (audience: ReportAudience, query: LeaderboardQuery) => read(() => reports.leaderboard(audience, query)),
  };
}

export type ReportService = ReturnType<typeof createReportService>;
