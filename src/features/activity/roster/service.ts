/**
 * The staff side of the console (docs/API.md, "Staff in the console"): the roster of a member's workspace with each
 * staff member's week and shift under way, and one staff member's page. The week's figures are read by
 * reports/week-figures.ts, as the leaderboard and the summary compute them.
 */
import type { Environment, UserActor } from '../../../shared/actor.ts';
import { toIso, type Clock } from '../../../shared/clock.ts';
import type { Config } from '../../../shared/config.ts';
import type { Executor } from '../../../db/types.ts';
import { notFound } from '../../../shared/errors.ts';
import { isUuid } from '../../../shared/ids.ts';
import { cursorPair } from '../../../shared/paging.ts';
import { wholeMinutes } from '../periods/period-math.ts';
import { reportingTimeZone, weekPeriod, type Period } from '../periods/periods.ts';
import { isLive, staleBefore, wholeSecondsBetween } from '../shifts/rules.ts';
import { lastRankChanges } from '../../ranks/history.ts';
import { findStaffProfile, type StaffProfile } from '../../staff/profiles.ts';
import { memberWorkspaceId } from '../../workspaces/membership.ts';
import { callerWorkspace } from '../../workspaces/workspace.ts';
import type { WeekFigures } from '../reports/requirement.ts';
import { readStaffPeriods, weekFiguresCalculator } from '../reports/week-figures.ts';
import type { ActiveShiftTimes } from '../totals/service.ts';
import { listRecentNotices, listRecentShifts, listRosterPage, type PageNoticeRow, type RecentShiftRow } from './repository.ts';
import {
  DEFAULT_ROSTER_LIMIT,
  type Roster,
  type RosterItem,
  type RosterQuery,
  type RosterStatus,
  type StaffPage,
} from './schemas.ts';

export interface RosterServiceDeps {
  readonly db: Executor;
  /** Runs one read in a turn of the event loop that has room for it (the store's `read`). */
  readonly read: <T>(job: () => Promise<T>) => Promise<T>;
  readonly clock: Clock;
  readonly config: Pick<Config, 'shiftTimeoutSeconds'>;
}

const RECENT_SHIFTS = 20;
const RECENT_NOTICES = 10;
const RECENT_RANK_CHANGES = 10;

const STATUSES: Readonly<Record<RosterStatus, readonly string[]>> = {
  active: ['active'],
  inactive: ['inactive'],
  all: ['active', 'inactive'],
};

function staffStatus(value: string): 'active' | 'inactive' {
  if (value === 'active' || value === 'inactive') return value;
  throw new Error(`unknown staff status ${JSON.stringify(value)}`);
}

function periodView(period: Period) {
  return { start: toIso(period.start), end: toIso(period.end), timezone: period.timeZone };
}

function rosterItem(profile: StaffProfile, week: WeekFigures, live: { id: string; started_at: number } | null): RosterItem {
  return {
    id: profile.id,
    displayName: profile.displayName,
    gameUserId: profile.gameUserId,
    gameUsername: profile.gameUsername,
    chatUserId: profile.chatUserId,
    departmentId: profile.department?.id ?? null,
    rank: profile.rank,
    status: staffStatus(profile.status),
    week,
    activeShift: live === null ? null : { id: live.id, startedAt: toIso(live.started_at) },
  };
}

function recentShiftView(row: RecentShiftRow): StaffPage['recentShifts'][number] {
  // As the shift's own answers give it (shifts/views.ts).
  const seconds = wholeSecondsBetween(row.started_at, row.ended_at);
  return {
    id: row.id,
    startedAt: toIso(row.started_at),
    endedAt: toIso(row.ended_at),
    minutes: wholeMinutes(seconds),
    endReason: (row.end_reason ?? 'manual') as StaffPage['recentShifts'][number]['endReason'],
  };
}

function noticeView(row: PageNoticeRow): StaffPage['notices'][number] {
  return {
    id: row.id,
    staffId: row.staff_id,
    environment: row.environment,
    startsAt: toIso(row.starts_at),
    endsAt: toIso(row.ends_at),
    status: row.status as StaffPage['notices'][number]['status'],
    createdAt: toIso(row.created_at),
    decidedAt: row.decided_at === null ? null : toIso(row.decided_at),
  };
}

/** The live shift among a staff member's active ones: the most recently started (then the greatest id). */
function liveShiftOf(shifts: readonly ActiveShiftTimes[], timedOutBefore: number): ActiveShiftTimes | null {
  let live: ActiveShiftTimes | null = null;
  for (const shift of shifts) {
    if (!isLive(shift, timedOutBefore)) continue;
    const later = live === null || shift.started_at > live.started_at || (shift.started_at === live.started_at && shift.id > live.id);
    if (later) live = shift;
  }
  return live;
}

export function createRosterService({ db, read, clock, config }: RosterServiceDeps) {
  const reads = {
    async roster(actor: UserActor, query: RosterQuery): Promise<Roster> {
      const workspaceId = memberWorkspaceId(actor);
      const environment: Environment = query.environment ?? 'live';
      const cursor = cursorPair(query, ['cursorDisplayName', 'cursorId'], 'querystring');
      const limit = query.limit ?? DEFAULT_ROSTER_LIMIT;
      // The week is the workspace's: its time zone is read first, then the page with each week in one statement.
      const workspace = await callerWorkspace(db, workspaceId);
      const now = clock.now();
      const cutoff = staleBefore(now, config.shiftTimeoutSeconds);
      const week = weekPeriod(now, reportingTimeZone(workspace.timezone));
      const listed = await listRosterPage(
        db,
        { workspaceId, environment },
        {
          statuses: STATUSES[query.status ?? 'active'],
          departmentId: query.departmentId?.toLowerCase() ?? null,
          rank: query.rank ?? null,
          after: cursor && { displayName: cursor[0], id: cursor[1].toLowerCase() },
          limit: limit + 1,
        },
        week,
      );
      const rows = listed.slice(0, limit);
      const figuresOf = weekFiguresCalculator(workspace, rows, week, cutoff);
      const staff = rows.map((row) => rosterItem(row.profile, figuresOf(row), liveShiftOf(row.activeShifts, cutoff)));
      const last = rows[rows.length - 1]?.profile;
      return {
        staff,
        nextCursor: listed.length > limit && last ? { cursorDisplayName: last.displayName, cursorId: last.id } : null,
      };
    },

    async staffPage(actor: UserActor, staffId: string, environment: Environment = 'live'): Promise<StaffPage> {
      const workspaceId = memberWorkspaceId(actor);
      if (!isUuid(staffId)) throw notFound('The staff member');
      const id = staffId.toLowerCase();
      const [workspace, profile] = await Promise.all([callerWorkspace(db, workspaceId), findStaffProfile(db, workspaceId, id)]);
      if (!profile) throw notFound('The staff member');
      const now = clock.now();
      const cutoff = staleBefore(now, config.shiftTimeoutSeconds);
      const audience = { workspaceId, environment };
      const [periods, shifts, notices, rankChanges] = await Promise.all([
        readStaffPeriods(db, audience, workspace, profile, now, cutoff),
        listRecentShifts(db, audience, id, RECENT_SHIFTS),
        listRecentNotices(db, environment, id, RECENT_NOTICES),
        lastRankChanges(db, id, RECENT_RANK_CHANGES),
      ]);
      const { week, month, weeks, live } = periods;
      return {
        staff: rosterItem(profile, week.figures, live),
        week: {
          period: periodView(week.period),
          ...week.totals,
          requiredMinutes: week.figures.requiredMinutes,
          progressPercent: week.figures.progressPercent,
        },
        month: { period: periodView(month.period), ...month.totals },
        weeks: weeks.map(({ period, figures }) => ({
          start: toIso(period.start),
          totalMinutes: figures.totalMinutes,
          requiredMinutes: figures.requiredMinutes,
        })),
        recentShifts: shifts.map(recentShiftView),
        notices: notices.map(noticeView),
        rankChanges,
      };
    },
  };

  return {
    roster: (actor: UserActor, query: RosterQuery) => read(() => reads.roster(actor, query)),
    staffPage: (actor: UserActor, staffId: string, environment?: Environment) =>
      read(() => reads.staffPage(actor, staffId, environment)),
  };
}

export type RosterService = ReturnType<typeof createRosterService>;
