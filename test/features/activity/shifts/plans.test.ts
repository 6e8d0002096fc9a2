import { CompiledQuery, sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../../../src/db/types.ts';
import { stopShift } from '../../../../src/features/activity/shifts/lifecycle.ts';
import { recordKnownHeartbeatsWithResults, recordKnownHeartbeatWithResult } from '../../../../src/features/activity/shifts/known-heartbeat.ts';
import { recordHeartbeat, type Heartbeat } from '../../../../src/features/activity/shifts/repository.ts';
import { newId } from '../../../../src/shared/ids.ts';
import { recordingDb } from '../../../db/sql-samples.ts';
import { DEFAULT_NOW } from '../../../helpers/app.ts';
import { STORE_KINDS } from '../../../helpers/stores.ts';
import { useShiftWorld } from './shift-client.ts';

const ACTIVE_SHIFTS = 300;

/** The statements `run` sends PostgreSQL, captured without a database. */
async function statementsOf(run: (db: Kysely<Database>) => Promise<unknown>): Promise<CompiledQuery[]> {
  const queries: CompiledQuery[] = [];
  await run(recordingDb('postgres', queries));
  return queries;
}

/** A statement's plan (PostgreSQL's EXPLAIN, as JSON text). */
async function planOf(db: Kysely<Database>, query: CompiledQuery): Promise<string> {
  const explain = CompiledQuery.raw(`explain (format json) ${query.sql}`, [...query.parameters]);
  const { rows } = await db.executeQuery<{ 'QUERY PLAN': unknown }>(explain);
  return JSON.stringify(rows[0]?.['QUERY PLAN']);
}

/**
 * PostgreSQL only (SQLite's planner always takes the primary key here). A heartbeat must read its shift by
 * primary key even when the statistics say there are no active shifts, as they usually nearly do: active
 * shifts are a sliver of the table, and the partial indexes of active shifts then look free to scan whole.
 */
describe.each(STORE_KINDS.filter((kind) => kind === 'postgres'))('shift statement plans (%s)', (kind) => {
  const world = useShiftWorld(kind);

  it('a heartbeat or stop reads its shift by primary key, whatever the statistics say about active shifts', async () => {
    const { ctx, fixture } = world;
    const db = ctx.store.db;
    const staff = Array.from({ length: ACTIVE_SHIFTS }, (_, i) => ({
      id: newId(),
      workspace_id: fixture.ids.workspaceId,
      display_name: `Plan ${i}`,
      game_user_id: `plan-${i}`,
      game_username: `plan${i}`,
      chat_user_id: null,
      department_id: null,
      rank: null,
      status: 'active',
      weekly_required_minutes: null,
      created_at: DEFAULT_NOW,
    }));
    await db.insertInto('staff').values(staff).execute();
    const shifts = staff.map((member) => ({
      id: newId(),
      workspace_id: fixture.ids.workspaceId,
      application_id: fixture.ids.applicationId,
      environment: 'test' as const,
      staff_id: member.id,
      universe_id: '42',
      place_id: '7',
      server_id: 'srv-1',
      status: 'completed',
      started_at: DEFAULT_NOW - 60_000,
      last_heartbeat_at: DEFAULT_NOW - 30_000,
      last_seen_at: DEFAULT_NOW - 30_000,
      ended_at: DEFAULT_NOW - 30_000,
      end_reason: 'manual',
      created_at: DEFAULT_NOW - 60_000,
    }));
    await db.insertInto('shifts').values(shifts).execute();
    // Statistics taken with no active shift, then every shift becomes active.
    await sql`analyze shifts`.execute(db);
    await db.updateTable('shifts').set({ status: 'active', ended_at: null, end_reason: null }).execute();

    const id = shifts[ACTIVE_SHIFTS - 1]?.id ?? '';
    const { applicationId } = fixture.ids;
    const staleBefore = DEFAULT_NOW - 120_000;
    const credential = {
      keyHash: 'hash',
      keyId: 'key',
      environment: 'test' as const,
      scopes: '[]',
      applicationId,
      applicationName: 'app',
      workspaceId: fixture.ids.workspaceId,
      features: '{}',
      allowedUniverseIds: '[]',
    };
    const result = { scope: 'scope', key: 'key', fingerprint: 'fingerprint', status: 200, body: '{}', requestId: 'req', now: DEFAULT_NOW };
    const owner = { applicationId, environment: 'test' as const };
    const statements: CompiledQuery[] = [];
    for (const serverId of [null, 'srv-1']) {
      const heartbeat: Heartbeat = { recordedAt: DEFAULT_NOW, seenAt: DEFAULT_NOW, staleBefore, owner, serverId };
      statements.push(...(await statementsOf((rec) => recordHeartbeat(rec, id, heartbeat))));
      // One known heartbeat, and several in one statement (their rows joined to the shifts by id).
      statements.push(
        ...(await statementsOf((rec) => recordKnownHeartbeatWithResult(rec, { known: { ...heartbeat, id, credential }, result }))),
      );
      const several = shifts.slice(0, 3).map((shift, i) => ({
        known: { ...heartbeat, id: shift.id, credential },
        result: { ...result, key: `key-${i}` },
      }));
      statements.push(...(await statementsOf((rec) => recordKnownHeartbeatsWithResults(rec, several))));
    }
    const stop = { endedAt: DEFAULT_NOW, reason: 'manual', staleBefore, owner };
    statements.push(...(await statementsOf((rec) => rec.transaction().execute((trx) => stopShift(trx, id, stop, DEFAULT_NOW)))));
    expect(statements).toHaveLength(7);
    const plans = [];
    for (const statement of statements) plans.push(await planOf(db, statement));
    for (const plan of plans) {
      expect(plan).toContain('"Index Name":"shifts_pkey"');
      expect(plan).not.toMatch(/shifts_one_active|shifts_active_by_start/);
    }
  });
});
