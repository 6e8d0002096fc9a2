import type { Kysely } from 'kysely';
import type { Database } from '../../../src/db/types.ts';
import { newId } from '../../../src/shared/ids.ts';

export const DAY = 86_400_000;

/** A workspace with a webhook endpoint, a staff member and a submission, all written `at`. */
export async function seedWorkspace(db: Kysely<Database>, at: number) {
  const workspaceId = newId();
  const endpointId = newId();
  const staffId = newId();
  const submissionId = newId();
  await db
    .insertInto('workspaces')
    .values({
      id: workspaceId,
      name: 'Retention',
      slug: `retention-${workspaceId.slice(0, 8)}`,
      timezone: 'UTC',
      settings: '{}',
      create_staff_profile_on_accept: 0,
      weekly_required_minutes: null,
      chat_guild_id: null,
      chat_status: null,
      chat_connected_at: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  await db
    .insertInto('webhook_endpoints')
    .values({ id: endpointId, workspace_id: workspaceId, url: 'https://hooks.example.com/x', events: '["*"]', enabled: 1, secret: 'whsec_x', created_at: at, updated_at: at })
    .execute();
  await db
    .insertInto('staff')
    .values({
      id: staffId,
      workspace_id: workspaceId,
      display_name: 'Old staff',
      game_user_id: '1',
      game_username: 'old',
      chat_user_id: null,
      department_id: null,
      rank: null,
      status: 'active',
      weekly_required_minutes: null,
      created_at: at,
    })
    .execute();
  await db
    .insertInto('submissions')
    .values({
      id: submissionId,
      workspace_id: workspaceId,
      status: 'accepted',
      score: null,
      reviewer_notes: null,
      applicant: '{}',
      answers: '{}',
      created_at: at,
      reviewed_at: at,
      accepted_at: at,
      rejected_at: null,
      staff_profile_id: null,
      updated_at: at,
      form_id: null,
      environment: 'live',
      game_user_id: null,
    })
    .execute();
  return { workspaceId, endpointId, staffId, submissionId };
}

/** A command with one event record, written `at`. */
export async function addCommand(db: Kysely<Database>, workspaceId: string, submissionId: string | null, at: number) {
  const commandId = newId();
  await db
    .insertInto('commands')
    .values({
      id: commandId,
      workspace_id: workspaceId,
      type: 'submission.accept',
      actor_type: 'user',
      actor_id: 'user-1',
      submission_id: submissionId,
      request_id: 'req_1',
      idempotency_key: null,
      payload: '{}',
      created_at: at,
    })
    .execute();
  await db
    .insertInto('events')
    .values({ id: newId(), workspace_id: workspaceId, command_id: commandId, type: 'submission.accepted', payload: '{}', created_at: at })
    .execute();
}

/** A webhook event with one delivery of `status`, last changed `at`, and `attempts` attempts. */
export async function addDelivery(
  db: Kysely<Database>,
  ids: { readonly workspaceId: string; readonly endpointId: string },
  status: 'pending' | 'delivered' | 'failed',
  at: number,
  attempts = 1,
) {
  const eventId = newId();
  const deliveryId = newId();
  await db
    .insertInto('webhook_events')
    .values({ id: eventId, workspace_id: ids.workspaceId, type: 'shift.started', environment: 'live', body: '{}', created_at: at })
    .execute();
  await db
    .insertInto('webhook_deliveries')
    .values({
      id: deliveryId,
      event_id: eventId,
      endpoint_id: ids.endpointId,
      workspace_id: ids.workspaceId,
      status,
      attempts,
      next_attempt_at: at,
      expires_at: at + DAY,
      claimed_until: status === 'pending' ? at + 60_000 : null,
      claimed_by: status === 'pending' ? 'instance-1' : null,
      last_status: null,
      last_duration_ms: null,
      last_response: null,
      last_error: null,
      created_at: at,
      updated_at: at,
      delivered_at: status === 'delivered' ? at : null,
    })
    .execute();
  for (let attempt = 1; attempt <= attempts; attempt++) {
    await db
      .insertInto('webhook_attempts')
      .values({ id: newId(), delivery_id: deliveryId, attempt, started_at: at, duration_ms: 5, status: 200, error: null, response_excerpt: null })
      .execute();
  }
}

/** Rows per table. */
export async function countRows(db: Kysely<Database>, tables: readonly (keyof Database)[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const row = await db.selectFrom(table).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}
