import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { ShiftTable } from '../../../../src/db/types.ts';
import { isLive, isStale, liveShift, timedOutShift, type ShiftLookup } from '../../../../src/features/activity/shifts/rules.ts';
import { newId } from '../../../../src/shared/ids.ts';
import { DEFAULT_NOW } from '../../../helpers/app.ts';
import { STORE_KINDS } from '../../../helpers/stores.ts';
import { useShiftWorld } from './shift-client.ts';

/**
 * A live shift has one definition, in TypeScript (isLive, isStale) and in SQL (liveShift, timedOutShift): on each
 * store and for each way a query finds its shifts, the SQL selects exactly the shifts the predicates name.
 */
describe.each(STORE_KINDS)('a live shift, in SQL and in TypeScript (%s)', (kind) => {
  const world = useShiftWorld(kind);

  it('liveShift and timedOutShift select the shifts isLive and isStale name, by id and by scan', async () => {
    const { ctx, fixture } = world;
    const db = ctx.store.db;
    const cutoff = DEFAULT_NOW - 300_000;
    const states = ['active', 'completed'].flatMap((status) => [cutoff - 1, cutoff, cutoff + 1].map((seen) => ({ status, seen })));
    const rows: ShiftTable[] = [];
    for (const [i, state] of states.entries()) {
      const staffId = newId();
      await db
        .insertInto('staff')
        .values({
          id: staffId,
          workspace_id: fixture.ids.workspaceId,
          display_name: `Live ${i}`,
          game_user_id: `live-${i}-${staffId}`,
          game_username: `live${i}`,
          chat_user_id: null,
          department_id: null,
          rank: null,
          status: 'active',
          weekly_required_minutes: null,
          created_at: DEFAULT_NOW,
        })
        .execute();
      const row: ShiftTable = {
        id: newId(),
        workspace_id: fixture.ids.workspaceId,
        application_id: fixture.ids.applicationId,
        environment: 'test',
        staff_id: staffId,
        universe_id: '42',
        place_id: '7',
        server_id: 'srv-1',
        status: state.status,
        started_at: cutoff - 60_000,
        last_heartbeat_at: state.seen,
        last_seen_at: state.seen,
        ended_at: state.status === 'completed' ? state.seen : null,
        end_reason: state.status === 'completed' ? 'manual' : null,
        created_at: cutoff - 60_000,
      };
      await db.insertInto('shifts').values(row).execute();
      rows.push(row);
    }
    const ids = (pick: (row: ShiftTable) => boolean) => rows.filter(pick).map((row) => row.id).sort();
    const live = ids((row) => isLive(row, cutoff));
    const timedOut = ids((row) => isStale(row, cutoff));
    expect(live).toHaveLength(2);
    expect(timedOut).toHaveLength(1);
    for (const lookup of ['by id', 'scan'] as ShiftLookup[]) {
      const select = async (condition: ReturnType<typeof liveShift>) =>
        (
          await sql<{ id: string }>`select id from shifts where workspace_id = ${fixture.ids.workspaceId} and ${condition}`.execute(db)
        ).rows
          .map((row) => row.id)
          .sort();
      expect({ lookup, live: await select(liveShift(cutoff, lookup)) }).toEqual({ lookup, live });
      expect({ lookup, timedOut: await select(timedOutShift(cutoff, lookup)) }).toEqual({ lookup, timedOut });
    }
  });
});
