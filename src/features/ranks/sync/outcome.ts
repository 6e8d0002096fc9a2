/**
 * A try's outcome written in one transaction: the change's new sync state (only while this instance holds its
 * lease) and, when it ends `failed`, the event `staff.rank.sync_failed` with `{ staff, change }`.
 */
import { rowsOf } from '../../../db/dialect.ts';
import type { Executor } from '../../../db/types.ts';
import { newTimeOrderedId } from '../../../shared/ids.ts';
import { enabledEndpoints, enqueueWebhookEvent } from '../../../webhooks/outbox.ts';
import { findRankChange, findStaffLocking } from '../repository.ts';
import { rankChangeView, rankStaffView } from '../views.ts';
import { recordSyncOutcome, type SyncOutcome } from './repository.ts';

export async function writeOutcome(trx: Executor, outcome: SyncOutcome): Promise<boolean> {
  const recorded = await recordSyncOutcome(trx, outcome);
  if (!recorded || outcome.status !== 'failed') return recorded;
  const change = await findRankChange(trx, outcome.id);
  const staff = change && (await findStaffLocking(trx, change.staff_id));
  if (!change || !staff) return recorded;
  const endpoints = await rowsOf(trx, enabledEndpoints(trx, [change.workspace_id]));
  await enqueueWebhookEvent(
    trx,
    {
      id: newTimeOrderedId(),
      type: 'staff.rank.sync_failed',
      workspaceId: change.workspace_id,
      environment: 'live',
      createdAt: outcome.at,
      data: { staff: rankStaffView(staff), change: rankChangeView(change) },
    },
    endpoints,
  );
  return recorded;
}
