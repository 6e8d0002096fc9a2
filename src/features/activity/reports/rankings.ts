/**
 * A workspace's staff ranked by time worked in a period (docs/API.md, "Activity reports"), kept between requests in
 * a RankingCache (ranking-cache.ts) under its invalidation rules. The leaderboard pages through a ranking; the
 * roster takes each listed staff member's week totals from the same entries, so both read one computation.
 */
import type { Environment } from '../../../shared/actor.ts';
import type { Config } from '../../../shared/config.ts';
import type { Executor } from '../../../db/types.ts';
import type { Period } from '../periods/periods.ts';
import { staleBefore } from '../shifts/rules.ts';
import type { Workspace } from '../../workspaces/workspace.ts';
import { changedStaff, planPeriod, workspaceWorked, type Worked } from '../totals/service.ts';
import { compareRanked, withUpdated } from './ranking.ts';
import { RankingCache, type Advance, type RankingEntry } from './ranking-cache.ts';
import { totalsFromMs, type PeriodTotals } from './report-arithmetic.ts';
import { earliestLiveSeen, listRankedStaffIds } from './repository.ts';

/** A ranked staff member's totals in the period. */
export interface RankedStaff extends PeriodTotals {
  readonly staffId: string;
}

/** Which ranking: a workspace (as read by the request: its version), an environment, a period, whom it ranks. */
export interface RankingScope {
  readonly workspace: Pick<Workspace, 'id' | 'activityVersion'>;
  readonly environment: Environment;
  readonly period: Period;
  /** The staff statuses ranked. */
  readonly statuses: readonly string[];
  /** Only this department's staff, or everyone's. */
  readonly departmentId: string | null;
}

export interface RankingsDeps {
  readonly db: Executor;
  readonly config: Pick<Config, 'shiftTimeoutSeconds'>;
}

/** More changed staff than this since a cached ranking: compute it in full (one read of the workspace). */
const MAX_ADVANCED_STAFF = 256;

function totalsOf(worked: Worked | undefined): PeriodTotals {
  return totalsFromMs(worked?.totalMs ?? 0, worked?.completedShifts ?? 0);
}

/** Each ranking's entries by staff id, built once per computed ranking. */
const indexes = new WeakMap<readonly RankedStaff[], ReadonlyMap<string, RankedStaff>>();

function indexOf(ranked: readonly RankedStaff[]): ReadonlyMap<string, RankedStaff> {
  let index = indexes.get(ranked);
  if (index === undefined) {
    index = new Map(ranked.map((item) => [item.staffId, item]));
    indexes.set(ranked, index);
  }
  return index;
}

export function createRankings({ db, config }: RankingsDeps) {
  const cache = new RankingCache<RankedStaff>();
  const timedOutBefore = (now: number) => staleBefore(now, config.shiftTimeoutSeconds);

  /** The ranking of `scope` at `now`: `totalSeconds` descending, then `staffId` (ranking.ts). */
  function ranked(scope: RankingScope, now: number): Promise<readonly RankedStaff[]> {
    const { workspace, environment, period, departmentId } = scope;
    const statuses = [...scope.statuses].sort();
    const audience = { workspaceId: workspace.id, environment };
    const key = [workspace.id, environment, period.start, period.end, statuses.join(','), departmentId ?? ''].join('|');
    const plan = planPeriod(period, period.timeZone);
    const version = workspace.activityVersion;
    const compute = async (): Promise<RankingEntry<RankedStaff>> => {
      const [staffIds, totals, earliestLiveSeenAt] = await Promise.all([
        listRankedStaffIds(db, workspace.id, { statuses, departmentId }),
        workspaceWorked(db, audience, plan, timedOutBefore(now)),
        earliestLiveSeen(db, audience, timedOutBefore(now)),
      ]);
      const list: RankedStaff[] = staffIds.map((staffId) => ({ staffId, ...totalsOf(totals.get(staffId)) }));
      list.sort(compareRanked);
      // Exact until the earliest live shift (or one started from now on) could time out and start counting.
      return { ranked: list, validFrom: now, validUntil: Math.min(earliestLiveSeenAt ?? now, now) + config.shiftTimeoutSeconds * 1000 };
    };
    // A ranking of an older version: recompute only the staff members the versions since changed (a stop
    // changes one), when every version between says which; the staff ranked are the same (a change of who is
    // ranked moves the version without saying, and so computes in full).
    const advance: Advance<RankedStaff> = async (previous, fromVersion) => {
      const changed = await changedStaff(db, workspace.id, fromVersion, version);
      if (changed === null || changed.length > MAX_ADVANCED_STAFF) return null;
      if (changed.length === 0) return previous;
      const totals = await workspaceWorked(db, { ...audience, staffIds: changed }, plan, timedOutBefore(now));
      const list = withUpdated(previous.ranked, new Set(changed), (item) => ({ staffId: item.staffId, ...totalsOf(totals.get(item.staffId)) }));
      return { ranked: list, validFrom: previous.validFrom, validUntil: previous.validUntil };
    };
    return cache.get(key, version, now, compute, advance);
  }

  /**
   * The period's totals of the staff members `staffIds` (of the workspace, found by a read of their own), as the
   * ranking of `scope` holds them. A staff member it does not hold (one a write made ranked after the version the
   * request read) has their totals computed afresh, as a ranking brought forward computes a changed one.
   */
  async function staffTotals(scope: RankingScope, now: number, staffIds: readonly string[]): Promise<ReadonlyMap<string, PeriodTotals>> {
    const index = indexOf(await ranked(scope, now));
    const out = new Map<string, PeriodTotals>();
    const missing: string[] = [];
    for (const staffId of staffIds) {
      const item = index.get(staffId);
      if (item === undefined) missing.push(staffId);
      else out.set(staffId, item);
    }
    if (missing.length > 0) {
      const audience = { workspaceId: scope.workspace.id, environment: scope.environment, staffIds: missing };
      const totals = await workspaceWorked(db, audience, planPeriod(scope.period, scope.period.timeZone), timedOutBefore(now));
      for (const staffId of missing) out.set(staffId, totalsOf(totals.get(staffId)));
    }
    return out;
  }

  return { ranked, staffTotals };
}

export type Rankings = ReturnType<typeof createRankings>;
