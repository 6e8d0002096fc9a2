/**
 * Shift events for the webhook outbox (`activity.shift.started`, `activity.shift.ended`), written by the lifecycle
 * functions in the transaction that starts or completes the shifts. Nothing is read or written beyond one indexed
 * read of the workspace's endpoints unless an endpoint subscribes to the type.
 */
import { prepared } from '../../db/prepared.js';
import type { Executor } from '../../db/types.js';
import { newTimeOrderedId } from '../../ids.js';
import type { WebhookEventType } from '../webhooks/event-types.js';
import { findSubscribers, writeWebhookEvents, type WebhookEvent } from '../webhooks/outbox.js';
import type { ShiftRow } from './repository.js';
import { detailView } from './views.js';

interface StaffFields {
  readonly displayName: string;
  readonly gameUserId: string;
}

type StaffFieldsRow = { id: string; display_name: string; game_user_id: string };
// One staff member (a start or a stop): built once (src/db/prepared.ts).
const selectStaffFields = prepared<{ id: string }, StaffFieldsRow>((db, p) =>
  db.selectFrom('staff').select(['id', 'display_name', 'game_user_id']).where('id', '=', p('id')),
);

async function staffFields(trx: Executor, ids: readonly string[]): Promise<Map<string, StaffFields>> {
  const [only] = ids;
  const rows =
    ids.length === 1 && only !== undefined
      ? await selectStaffFields.rows(trx, { id: only })
      : await trx.selectFrom('staff').select(['id', 'display_name', 'game_user_id']).where('id', 'in', [...ids]).execute();
  return new Map(rows.map((row) => [row.id, { displayName: row.display_name, gameUserId: row.game_user_id }]));
}

/**
 * Records one event of `type` per shift row, each with `data.shift` as GET /v1/activity/shifts/{shiftId} shows it
 * at `now`, and `data.staff`.
 */
export async function recordShiftEvents(
  trx: Executor,
  type: Extract<WebhookEventType, `activity.shift.${string}`>,
  rows: readonly ShiftRow[],
  now: number,
): Promise<void> {
  if (rows.length === 0) return;
  const subscribers = await findSubscribers(trx, [...new Set(rows.map((row) => row.workspace_id))], type);
  if (subscribers.size === 0) return;
  const wanted = rows.filter((row) => subscribers.has(row.workspace_id));
  const staff = await staffFields(trx, [...new Set(wanted.map((row) => row.staff_id))]);
  const events: WebhookEvent[] = wanted.map((row) => {
    const member = staff.get(row.staff_id) ?? { displayName: '', gameUserId: '' };
    return {
      id: newTimeOrderedId(),
      type,
      workspaceId: row.workspace_id,
      environment: row.environment === 'live' ? 'live' : 'test',
      createdAt: now,
      data: {
        shift: detailView({ ...row, staff_display_name: member.displayName, staff_game_user_id: member.gameUserId }, now),
        staff: { id: row.staff_id, ...member },
      },
    };
  });
  await writeWebhookEvents(trx, events, subscribers);
}
