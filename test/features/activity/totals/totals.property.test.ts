/**
 * Property: every report read from the activity totals equals the same report computed from the raw shifts
 * (the reference below: clip every completed or timed-out shift to the period, count the overlapping ones),
 * over random histories written through every path that completes shifts (stop, history import, the sweep),
 * random time zones (DST zones included), random named periods and custom ranges, on both stores. Also: a
 * rebuild from the shifts gives the very rows the incremental updates left, and undo is the inverse of apply.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Store } from '../../../../src/db/connect.ts';
import { clipMs, overlaps, type Interval } from '../../../../src/features/activity/periods/period-math.ts';
import { dayPeriod, monthPeriod, weekPeriod } from '../../../../src/features/activity/periods/periods.ts';
import { sweepTimedOutShifts } from '../../../../src/features/activity/shifts/sweep.ts';
import {
  applyCompletedShifts,
  planPeriod,
  rebuildTotals,
  staffWorked,
  undoCompletedShifts,
  workspaceWorked,
  type CompletedSpan,
} from '../../../../src/features/activity/totals/service.ts';
import { applyProvisioning } from '../../../../src/provisioning/apply.ts';
import type { ProvisioningDocument } from '../../../../src/provisioning/schema.ts';
import { newId } from '../../../../src/shared/ids.ts';
import { buildFixture, UNIVERSE_ID } from '../../../helpers/fixtures.ts';
import { STORE_KINDS, withTestStore } from '../../../helpers/stores.ts';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const TIMEOUT_SECONDS = 300;

const ZONES = [
  'UTC',
  'Europe/Berlin',
  'America/New_York',
  'America/Santiago', // DST changes at midnight: days start at 01:00
  'Australia/Lord_Howe', // 30-minute DST
  'Asia/Kathmandu', // +05:45
  'Pacific/Chatham', // +12:45 / +13:45
] as const;

/** Weeks holding DST changes of the zones above (and an ordinary one). */
const ANCHORS = ['2026-03-26T00:00:00Z', '2026-10-22T00:00:00Z', '2026-03-05T00:00:00Z', '2026-04-02T00:00:00Z', '2026-09-03T00:00:00Z'].map(
  Date.parse,
);

type Path = 'stop' | 'import' | 'sweep' | 'timedOut' | 'live';

interface ShiftSpec {
  readonly staff: number;
  readonly live: boolean;
  readonly start: number;
  readonly duration: number;
  readonly path: Path;
}

interface QuerySpec {
  readonly kind: 'day' | 'week' | 'month' | 'custom';
  readonly at: number;
  readonly length: number;
}

const shiftArb = fc.record({
  staff: fc.integer({ min: 0, max: 2 }),
  live: fc.boolean(),
  start: fc.integer({ min: -3 * DAY, max: 12 * DAY }),
  duration: fc.oneof(
    fc.constant(0),
    fc.integer({ min: 1, max: 6 * HOUR }),
    fc.integer({ min: 6 * HOUR, max: 3 * DAY }),
    fc.integer({ min: 3 * DAY, max: 40 * DAY }),
  ),
  path: fc.constantFrom<Path>('stop', 'stop', 'import', 'sweep', 'timedOut', 'live'),
});

const queryArb = fc.record({
  kind: fc.constantFrom<QuerySpec['kind']>('day', 'week', 'month', 'custom', 'custom'),
  at: fc.integer({ min: -10 * DAY, max: 20 * DAY }),
  length: fc.oneof(
    fc.integer({ min: 1, max: 2 * DAY }),
    fc.integer({ min: 1, max: 20 * DAY }),
    fc.constantFrom(DAY, 7 * DAY, 366 * DAY),
    fc.integer({ min: 20 * DAY, max: 366 * DAY }),
  ),
});

const caseArb = fc.record({
  anchor: fc.constantFrom(...ANCHORS),
  zone: fc.constantFrom(...ZONES),
  /** The zone the workspace moves to at the end (its totals rebuilt in that transaction); often the same. */
  laterZone: fc.option(fc.constantFrom(...ZONES), { nil: undefined }),
  shifts: fc.array(shiftArb, { maxLength: 24 }),
  queries: fc.array(queryArb, { minLength: 1, maxLength: 6 }),
  undo: fc.boolean(),
});

interface RawShift {
  readonly staff_id: string;
  readonly environment: string;
  readonly status: string;
  readonly started_at: number;
  readonly ended_at: number | null;
  readonly last_heartbeat_at: number;
  readonly last_seen_at: number;
}

interface Expected {
  totalMs: number;
  completedShifts: number;
}

/** The reference: a period's worked time straight from the raw shifts (docs/API.md, "Activity reports"). */
function reference(shifts: readonly RawShift[], period: Interval, timedOutBefore: number): Map<string, Expected> {
  const out = new Map<string, Expected>();
  for (const shift of shifts) {
    let end: number;
    if (shift.status === 'completed' && shift.ended_at !== null) end = shift.ended_at;
    else if (shift.status === 'active' && shift.last_seen_at < timedOutBefore) end = shift.last_heartbeat_at;
    else continue;
    if (!overlaps(shift.started_at, end, period)) continue;
    const key = `${shift.environment}|${shift.staff_id}`;
    const entry = out.get(key) ?? { totalMs: 0, completedShifts: 0 };
    entry.totalMs += clipMs(shift.started_at, end, period);
    entry.completedShifts += 1;
    out.set(key, entry);
  }
  return out;
}

function periodOf(query: QuerySpec, anchor: number, zone: string): Interval {
  const at = anchor + query.at;
  if (query.kind === 'day') return dayPeriod(at, zone);
  if (query.kind === 'week') return weekPeriod(at, zone);
  if (query.kind === 'month') return monthPeriod(at, zone);
  return { start: at, end: at + query.length };
}

async function totalsRows(store: Store, workspaceId: string) {
  const totals = await store.db
    .selectFrom('activity_totals')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .orderBy('environment')
    .orderBy('grain')
    .orderBy('bucket_start')
    .orderBy('staff_id')
    .execute();
  const extent = await store.db
    .selectFrom('activity_totals_extent')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .orderBy('environment')
    .execute();
  const numbers = <T extends object>(row: T) =>
    Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v]));
  return { totals: totals.map(numbers), extent: extent.map(numbers) };
}

describe.each(STORE_KINDS)('activity totals against raw shifts (%s)', (kind) => {
  let store: Store;
  withTestStore(kind, (opened) => {
    store = opened;
  });

  it('every report from the totals equals the report from the raw shifts', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const fixture = buildFixture({ timezone: c.zone });
        await applyProvisioning(store.db, fixture.document, { now: () => c.anchor });
        const workspaceId = fixture.ids.workspaceId;
        const staffIds = [fixture.ids.staff.alice, fixture.ids.staff.bob, fixture.ids.staff.carol];
        const now = c.anchor + 45 * DAY;
        const timedOutBefore = now - TIMEOUT_SECONDS * 1000;

        const rowOf = (spec: ShiftSpec, status: 'active' | 'completed') => {
          const start = c.anchor + spec.start;
          const end = start + spec.duration;
          return {
            id: newId(),
            workspace_id: workspaceId,
            application_id: fixture.ids.applicationId,
            environment: spec.live ? ('live' as const) : ('test' as const),
            staff_id: staffIds[spec.staff] ?? '',
            universe_id: UNIVERSE_ID,
            place_id: '7',
            server_id: 'srv-1',
            status,
            started_at: start,
            last_heartbeat_at: end,
            last_seen_at: status === 'completed' ? end : spec.path === 'live' ? now : now - 2 * TIMEOUT_SECONDS * 1000,
            ended_at: status === 'completed' ? end : null,
            end_reason: status === 'completed' ? 'manual' : null,
            created_at: start,
          };
        };
        // At most one active shift per staff member, application and environment.
        const activeTaken = new Set<string>();
        const activeAllowed = (spec: ShiftSpec) => {
          const key = `${spec.staff}|${spec.live}`;
          if (activeTaken.has(key)) return false;
          activeTaken.add(key);
          return true;
        };

        const stopped: CompletedSpan[] = [];
        const imported: NonNullable<ProvisioningDocument['workspaces'][number]['shifts']> = [];
        for (const spec of c.shifts) {
          if (spec.path === 'stop') {
            const row = rowOf(spec, 'completed');
            await store.db.transaction().execute(async (trx) => {
              await trx.insertInto('shifts').values(row).execute();
              await applyCompletedShifts(trx, [{ ...row, ended_at: row.ended_at ?? row.last_heartbeat_at }]);
            });
            stopped.push({ ...row, ended_at: row.ended_at ?? row.last_heartbeat_at });
          } else if (spec.path === 'import') {
            const row = rowOf(spec, 'completed');
            imported.push({
              id: row.id,
              staffId: row.staff_id,
              applicationId: row.application_id,
              environment: row.environment,
              startedAt: new Date(row.started_at).toISOString(),
              endedAt: new Date(row.last_heartbeat_at).toISOString(),
              endReason: 'manual',
              universeId: UNIVERSE_ID,
              placeId: '7',
              serverId: 'srv-1',
            });
          } else if (spec.path === 'sweep' && activeAllowed(spec)) {
            await store.db.insertInto('shifts').values(rowOf(spec, 'active')).execute();
          }
        }
        // The sweep completes the stale ones (in small steps here, to cross step boundaries).
        await sweepTimedOutShifts({ write: (job) => store.write(job), clock: { now: () => now }, config: { shiftTimeoutSeconds: TIMEOUT_SECONDS }, chunk: 2 });
        // Timed out but not swept, and live: read raw at report time.
        for (const spec of c.shifts) {
          if ((spec.path === 'timedOut' || spec.path === 'live') && activeAllowed(spec)) {
            await store.db.insertInto('shifts').values(rowOf(spec, 'active')).execute();
          }
        }
        const workspaceDoc = fixture.document.workspaces[0];
        if (workspaceDoc === undefined) throw new Error('fixture without a workspace');
        const later = { ...workspaceDoc, shifts: imported, timezone: c.laterZone ?? c.zone };
        await applyProvisioning(store.db, { workspaces: [later] }, { now: () => now });
        const zone = later.timezone;

        if (c.undo && stopped.length > 0) {
          // Undo is the exact inverse of apply.
          const before = await totalsRows(store, workspaceId);
          await store.db.transaction().execute((trx) => undoCompletedShifts(trx, stopped));
          await store.db.transaction().execute((trx) => applyCompletedShifts(trx, stopped));
          expect(await totalsRows(store, workspaceId)).toEqual(before);
        }

        const raw = await store.db.selectFrom('shifts').selectAll().where('workspace_id', '=', workspaceId).execute();
        const rawShifts: RawShift[] = raw.map((r) => ({
          ...r,
          started_at: Number(r.started_at),
          ended_at: r.ended_at === null ? null : Number(r.ended_at),
          last_heartbeat_at: Number(r.last_heartbeat_at),
          last_seen_at: Number(r.last_seen_at),
        }));

        for (const query of c.queries) {
          const period = periodOf(query, c.anchor, zone);
          const expected = reference(rawShifts, period, timedOutBefore);
          const plan = planPeriod(period, zone);
          for (const environment of ['test', 'live'] as const) {
            const board = await workspaceWorked(store.db, { workspaceId, environment }, plan, timedOutBefore);
            for (const staffId of staffIds) {
              const want = expected.get(`${environment}|${staffId}`) ?? { totalMs: 0, completedShifts: 0 };
              const fromBoard = board.get(staffId) ?? { totalMs: 0, completedShifts: 0 };
              expect({ staffId, environment, period, ...fromBoard }).toEqual({ staffId, environment, period, ...want });
              const own = await staffWorked(store.db, { workspaceId, environment, staffId }, [plan], timedOutBefore);
              expect({ staffId, environment, period, ...own.periods[0] }).toEqual({ staffId, environment, period, ...want });
            }
          }
        }

        // The incremental totals are exactly what a rebuild from the shifts gives.
        const incremental = await totalsRows(store, workspaceId);
        await rebuildTotals({ db: store.db, write: (job) => store.write(job) }, workspaceId);
        expect(await totalsRows(store, workspaceId)).toEqual(incremental);
      }),
      { numRuns: Number(process.env.TOTALS_PROPERTY_RUNS ?? 40) },
    );
  }, 600_000);
});
