import { describe, expect, it } from 'vitest';
import type { ShiftTable } from '../../../../src/db/types.ts';
import { recordHeartbeat, recordHeartbeats, type Heartbeat, type ShiftOwner } from '../../../../src/features/activity/shifts/repository.ts';
import { refusalFor } from '../../../../src/features/activity/shifts/rules.ts';
import { newId } from '../../../../src/shared/ids.ts';
import { DEFAULT_NOW } from '../../../helpers/app.ts';
import { STORE_KINDS } from '../../../helpers/stores.ts';
import { useShiftWorld } from './shift-client.ts';

/** One shift's state and one heartbeat of it, as the acceptance rule sees them. */
interface Case {
  readonly status: 'active' | 'completed';
  readonly lastSeenAt: number;
  readonly serverId: string | null;
  readonly recordedAt: number;
  /** Whose heartbeat it is: the shift's application and environment, another application's, or the other environment's. */
  readonly owner: 'own' | 'other application' | 'other environment';
}

const STARTED_AT = DEFAULT_NOW - 600_000;
const STALE_BEFORE = DEFAULT_NOW - 300_000;

function cases(): Case[] {
  const all: Case[] = [];
  for (const status of ['active', 'completed'] as const) {
    for (const lastSeenAt of [DEFAULT_NOW - 10_000, STALE_BEFORE, STALE_BEFORE - 1]) {
      for (const serverId of ['srv-1', 'srv-2', null]) {
        for (const recordedAt of [STARTED_AT - 1, STARTED_AT, STARTED_AT + 1]) {
          for (const owner of ['own', 'other application', 'other environment'] as const) {
            all.push({ status, lastSeenAt, serverId, recordedAt, owner });
          }
        }
      }
    }
  }
  return all;
}

/**
 * The heartbeat's acceptance rule is written in two forms (src/features/activity/shifts/rules.ts): refusalFor, on a
 * shift already read, and heartbeatAccepted, the conditions of the statements that record heartbeats without reading
 * it. Over every combination of status, liveness (fresh, exactly at the cutoff, just past it), server named (its
 * own, another, none), instant (before, at and after the start) and caller (its own, another application, the other
 * environment), a heartbeat statement changes the shift exactly when refusalFor has no refusal for it: the single
 * heartbeat's statement, and the batch's (which always names a server).
 */
describe.each(STORE_KINDS)('the heartbeat acceptance rule, in SQL and in TypeScript (%s)', (kind) => {
  const world = useShiftWorld(kind);

  it('the statements apply a heartbeat exactly where refusalFor finds no refusal', async () => {
    const { ctx, fixture } = world;
    const db = ctx.store.db;
    const own: ShiftOwner = { applicationId: fixture.ids.applicationId, environment: 'test' };
    const forms = cases().flatMap((test) => [
      { test, form: 'single' as const },
      ...(test.serverId === null ? [] : [{ test, form: 'batch' as const }]),
    ]);
    const rows = forms.map(({ test }, i) => {
      const staffId = newId();
      const shift: ShiftTable = {
        id: newId(),
        workspace_id: fixture.ids.workspaceId,
        application_id: fixture.ids.applicationId,
        environment: 'test',
        staff_id: staffId,
        universe_id: '42',
        place_id: '7',
        server_id: 'srv-1',
        status: test.status,
        started_at: STARTED_AT,
        last_heartbeat_at: STARTED_AT,
        last_seen_at: test.lastSeenAt,
        ended_at: test.status === 'completed' ? STARTED_AT + 1_000 : null,
        end_reason: test.status === 'completed' ? 'manual' : null,
        created_at: STARTED_AT,
      };
      const staff = {
        id: staffId,
        workspace_id: fixture.ids.workspaceId,
        display_name: `Rule ${i}`,
        game_user_id: `rule-${i}`,
        game_username: `rule${i}`,
        chat_user_id: null,
        department_id: null,
        rank: null,
        status: 'active',
        weekly_required_minutes: null,
        created_at: STARTED_AT,
      };
      return { staff, shift };
    });
    await db.insertInto('staff').values(rows.map((row) => row.staff)).execute();
    await db.insertInto('shifts').values(rows.map((row) => row.shift)).execute();

    const disagreements: string[] = [];
    let applied = 0;
    for (const [i, { test, form }] of forms.entries()) {
      const shift = rows[i]!.shift;
      const owner: ShiftOwner =
        test.owner === 'own'
          ? own
          : test.owner === 'other application'
            ? { ...own, applicationId: newId() }
            : { ...own, environment: 'live' };
      const heartbeat: Heartbeat = { recordedAt: test.recordedAt, seenAt: DEFAULT_NOW, staleBefore: STALE_BEFORE, owner, serverId: test.serverId };
      const changed =
        form === 'single'
          ? (await recordHeartbeat(db, shift.id, heartbeat)) !== undefined
          : (await recordHeartbeats(db, [shift.id], { ...heartbeat, serverId: test.serverId ?? '' })).length === 1;
      // The caller finds only its own shifts: another's is unknown to it.
      const refusal = refusalFor(test.owner === 'own' ? shift : undefined, {
        at: test.recordedAt,
        serverId: test.serverId,
        staleBefore: STALE_BEFORE,
      });
      if (changed !== (refusal === null)) disagreements.push(`${form} ${JSON.stringify(test)}: applied ${changed}, refusal ${refusal}`);
      if (changed) applied += 1;
    }
    expect(disagreements).toEqual([]);
    // Both outcomes occur: own active live shifts of the named or no server, at or after the start, in both forms.
    expect(applied).toBe(2 * 2 * 2 + 2 * 2);
  });
});
