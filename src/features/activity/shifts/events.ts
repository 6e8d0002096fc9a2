/**
 * Shift events for the webhook outbox (`activity.shift.started`, `activity.shift.ended`), written by the lifecycle
 * functions in the transaction that starts or completes the shifts. Nothing is read or written beyond one indexed
 * read of the workspace's endpoints unless an endpoint subscribes to the type.
 */
import { sql } from 'kysely';
import { rowsOf } from '../../../db/dialect.ts';
import type { Executor } from '../../../db/types.ts';
import { newTimeOrderedId } from '../../../shared/ids.ts';
import type { WebhookEventType } from '../../../webhooks/event-types.ts';
import { findSubscribers, subscribersOf, writeWebhookEvents, type WebhookEvent } from '../../../webhooks/outbox.ts';
import type { ShiftRow } from './repository.ts';
import { detailView } from './views.ts';

interface StaffFields {
  readonly displayName: string;
  readonly gameUserId: string;
}

type ShiftType = Extract<WebhookEventType, `activity.shift.${string}`>;

const staffFieldsOf = (row: { display_name: string; game_user_id: string }): StaffFields => ({
  displayName: row.display_name,
  gameUserId: row.game_user_id,
});

/**
 * The subscribers of the rows' workspaces and the fields of the staff members whose events they want: for one shift
 * a single read (above); for several (a batch stop, the timeout sweep) the subscribers, then the staff members.
 */
async function subscribersAndStaff(
  trx: Executor,
  rows: readonly ShiftRow[],
  type: ShiftType,
): Promise<{ subscribers: Map<string, string[]>; staff: Map<string, StaffFields> }> {
  const [only] = rows;
  if (rows.length === 1 && only !== undefined) {
    // One shift's event (every start and stop): the workspace's enabled endpoints, each with the staff member's
    // fields, in one indexed read (no row when the workspace has no endpoint).
    const found = await rowsOf(
      trx,
      sql<{ id: string; workspace_id: string; events: string; display_name: string; game_user_id: string }>`select e.id, e.workspace_id, e.events, s.display_name, s.game_user_id
from webhook_endpoints as e
join staff as s on s.id = ${only.staff_id}
where e.workspace_id = ${only.workspace_id} and e.enabled = 1`,
    );
    const [first] = found;
    const staff = new Map<string, StaffFields>();
    if (first) staff.set(only.staff_id, staffFieldsOf(first));
    return { subscribers: subscribersOf(found, type), staff };
  }
  const subscribers = await findSubscribers(trx, [...new Set(rows.map((row) => row.workspace_id))], type);
  if (subscribers.size === 0) return { subscribers, staff: new Map() };
  const ids = [...new Set(rows.filter((row) => subscribers.has(row.workspace_id)).map((row) => row.staff_id))];
  const found = await trx.selectFrom('staff').select(['id', 'display_name', 'game_user_id']).where('id', 'in', ids).execute();
  return { subscribers, staff: new Map(found.map((row) => [row.id, staffFieldsOf(row)])) };
}

/**
 * Records one event of `type` per shift row, each with `data.shift` as GET /v1/activity/shifts/{shiftId} shows it
 * at `now`, and `data.staff`.
 */
export async function recordShiftEvents(trx: Executor, type: ShiftType, rows: readonly ShiftRow[], now: number): Promise<void> {
  if (rows.length === 0) return;
  const { subscribers, staff } = await subscribersAndStaff(trx, rows, type);
  if (subscribers.size === 0) return;
  const wanted = rows.filter((row) => subscribers.has(row.workspace_id));
  const events: WebhookEvent[] = wanted.map((row) => {
    const member = staff.get(row.staff_id) ?? { displayName: '', gameUserId: '' };
    return {
      id: newTimeOrderedId(),
      type,
      workspaceId: row.workspace_id,
      environment: row.environment,
      createdAt: now,
      data: {
        shift: detailView({ ...row, staff_display_name: member.displayName, staff_game_user_id: member.gameUserId }, now),
        staff: { id: row.staff_id, ...member },
      },
    };
  });
  await writeWebhookEvents(trx, events, subscribers);
}
