/**
 * The queries of an erasure (docs/OPERATING.md, "Operating it", "Erasure"): the person's submissions and staff profiles,
 * then every stored copy that may carry their data. Copies are found by text (`like`) on the values that every
 * copy of an identity or a decision carries (the game user id, a submission id, a notice id): a full read of those tables,
 * acceptable for an operator's command that runs rarely. Each candidate is then judged exactly (scrub.ts).
 */
import { sql } from 'kysely';
import type { Executor } from '../../db/types.ts';

/** `like` pattern for text containing `value`; the values searched for (JSON around digits, uuids) hold no wildcard. */
const containing = (value: string): string => `%${value}%`;

export interface SubmissionCandidate {
  readonly id: string;
  readonly game_user_id: string | null;
  readonly applicant: string;
  readonly answers: string;
}

/** Submissions whose `game_user_id` is the id, or whose applicant document holds one of `needles` (judged by the caller). */
export async function findSubmissionCandidates(
  db: Executor,
  gameUserId: string,
  needles: readonly string[],
  workspaceId: string | null = null,
): Promise<SubmissionCandidate[]> {
  return db
    .selectFrom('submissions')
    .select(['id', 'game_user_id', 'applicant', 'answers'])
    .where((eb) =>
      eb.or([eb('game_user_id', '=', gameUserId), ...needles.map((needle) => eb('applicant', 'like', containing(needle)))]),
    )
    .$if(workspaceId !== null, (qb) => qb.where('workspace_id', '=', workspaceId!))
    .orderBy('id')
    .execute();
}

/** Empties a submission's personal data; its status, score, times and links stay. */
export async function eraseSubmission(
  db: Executor,
  id: string,
  erased: { readonly applicant: string; readonly answers: string },
): Promise<void> {
  await db
    .updateTable('submissions')
    .set({ applicant: erased.applicant, answers: erased.answers, reviewer_notes: null, game_user_id: null })
    .where('id', '=', id)
    .execute();
}

export interface StaffIdentity {
  readonly id: string;
  readonly display_name: string;
  readonly game_username: string;
  readonly chat_user_id: string | null;
}

/** Staff profiles of the game user (in any workspace, or in `workspaceId`), with what identifies them. */
export async function findStaff(db: Executor, gameUserId: string, workspaceId: string | null = null): Promise<StaffIdentity[]> {
  return db
    .selectFrom('staff')
    .select(['id', 'display_name', 'game_username', 'chat_user_id'])
    .where('game_user_id', '=', gameUserId)
    .$if(workspaceId !== null, (qb) => qb.where('workspace_id', '=', workspaceId!))
    .orderBy('id')
    .execute();
}

/** Replaces a profile's names, username and game user id with `alias` and clears its chat user id. */
export async function anonymiseStaff(db: Executor, id: string, alias: string): Promise<void> {
  await db
    .updateTable('staff')
    .set({ display_name: alias, game_username: alias, game_user_id: alias, chat_user_id: null })
    .where('id', '=', id)
    .execute();
}

/** The ids of the staff members' inactivity notices (their copies are found by them). */
export async function findNoticeIds(db: Executor, staffIds: readonly string[]): Promise<string[]> {
  if (staffIds.length === 0) return [];
  const rows = await db.selectFrom('inactivity_notices').select('id').where('staff_id', 'in', [...staffIds]).orderBy('id').execute();
  return rows.map((row) => row.id);
}

/**
 * Replaces the reasons and the decision notes that were set (a null note stays null) of the staff members'
 * inactivity notices with `text`; returns the notices changed.
 */
export async function replaceNoticeTexts(db: Executor, staffIds: readonly string[], text: string): Promise<string[]> {
  if (staffIds.length === 0) return [];
  const rows = await db
    .updateTable('inactivity_notices')
    .set({ reason: text, decision_note: sql<string | null>`case when decision_note is null then null else ${text} end` })
    .where('staff_id', 'in', [...staffIds])
    .where((eb) => eb.or([eb('reason', '<>', text), eb.and([eb('decision_note', 'is not', null), eb('decision_note', '<>', text)])]))
    .returning('id')
    .execute();
  return rows.map((row) => row.id).sort();
}

/** A stored JSON copy: its row's key and its text. */
export interface StoredCopy<K> {
  readonly key: K;
  readonly text: string;
}

/** Commands of the submissions, or whose payload mentions one of `needles`. */
export async function findCommandCopies(
  db: Executor,
  submissionIds: readonly string[],
  needles: readonly string[],
  workspaceId: string | null = null,
): Promise<Array<StoredCopy<string> & { readonly submissionId: string | null }>> {
  const rows = await db
    .selectFrom('commands')
    .select(['id', 'submission_id', 'payload'])
    .where((eb) =>
      eb.or([
        ...(submissionIds.length > 0 ? [eb('submission_id', 'in', [...submissionIds])] : []),
        ...needles.map((needle) => eb('payload', 'like', containing(needle))),
      ]),
    )
    .$if(workspaceId !== null, (qb) => qb.where('workspace_id', '=', workspaceId!))
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ key: row.id, text: row.payload, submissionId: row.submission_id }));
}

/** Events of the commands, or whose payload mentions one of `needles`. */
export async function findEventCopies(
  db: Executor,
  commandIds: readonly string[],
  needles: readonly string[],
  workspaceId: string | null = null,
): Promise<Array<StoredCopy<string> & { readonly commandId: string }>> {
  const rows = await db
    .selectFrom('events')
    .select(['id', 'command_id', 'payload'])
    .where((eb) =>
      eb.or([
        ...(commandIds.length > 0 ? [eb('command_id', 'in', [...commandIds])] : []),
        ...needles.map((needle) => eb('payload', 'like', containing(needle))),
      ]),
    )
    .$if(workspaceId !== null, (qb) => qb.where('workspace_id', '=', workspaceId!))
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ key: row.id, text: row.payload, commandId: row.command_id }));
}

/** Webhook events (delivered or not) whose body mentions one of `needles`. */
export async function findWebhookCopies(
  db: Executor,
  needles: readonly string[],
  workspaceId: string | null = null,
): Promise<Array<StoredCopy<string>>> {
  const rows = await db
    .selectFrom('webhook_events')
    .select(['id', 'body'])
    .where((eb) => eb.or(needles.map((needle) => eb('body', 'like', containing(needle)))))
    .$if(workspaceId !== null, (qb) => qb.where('workspace_id', '=', workspaceId!))
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ key: row.id, text: row.body }));
}

export interface RecordKey {
  readonly scope: string;
  readonly key: string;
}

/** Stored idempotent responses whose body mentions one of `needles`. */
export async function findResponseCopies(db: Executor, needles: readonly string[]): Promise<Array<StoredCopy<RecordKey>>> {
  const rows = await db
    .selectFrom('idempotency_records')
    .select(['scope', 'key', 'response_body'])
    .where((eb) => eb.or(needles.map((needle) => eb('response_body', 'like', containing(needle)))))
    .orderBy('scope')
    .orderBy('key')
    .execute();
  return rows.flatMap((row) =>
    row.response_body === null ? [] : [{ key: { scope: row.scope, key: row.key }, text: row.response_body }],
  );
}

export async function setCommandPayload(db: Executor, id: string, payload: string): Promise<void> {
  await db.updateTable('commands').set({ payload }).where('id', '=', id).execute();
}

export async function setEventPayload(db: Executor, id: string, payload: string): Promise<void> {
  await db.updateTable('events').set({ payload }).where('id', '=', id).execute();
}

export async function setWebhookBody(db: Executor, id: string, body: string): Promise<void> {
  await db.updateTable('webhook_events').set({ body }).where('id', '=', id).execute();
}

export async function setResponseBody(db: Executor, record: RecordKey, body: string): Promise<void> {
  await db
    .updateTable('idempotency_records')
    .set({ response_body: body })
    .where('scope', '=', record.scope)
    .where('key', '=', record.key)
    .execute();
}

/** What receivers answered to the events' deliveries (their excerpts may echo the body). */
export async function findReceiverAnswers(
  db: Executor,
  eventIds: readonly string[],
): Promise<{
  deliveries: Array<{ id: string; last_response: string | null; last_error: string | null }>;
  attempts: Array<{ id: string; response_excerpt: string | null; error: string | null }>;
}> {
  if (eventIds.length === 0) return { deliveries: [], attempts: [] };
  const deliveries = await db
    .selectFrom('webhook_deliveries')
    .select(['id', 'last_response', 'last_error'])
    .where('event_id', 'in', [...eventIds])
    .orderBy('id')
    .execute();
  const attempts = await db
    .selectFrom('webhook_attempts as a')
    .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
    .select(['a.id', 'a.response_excerpt', 'a.error'])
    .where('d.event_id', 'in', [...eventIds])
    .orderBy('a.id')
    .execute();
  return { deliveries, attempts };
}

export async function clearDeliveryAnswer(db: Executor, id: string): Promise<void> {
  await db.updateTable('webhook_deliveries').set({ last_response: null, last_error: null }).where('id', '=', id).execute();
}

export async function clearAttemptAnswer(db: Executor, id: string): Promise<void> {
  await db.updateTable('webhook_attempts').set({ response_excerpt: null, error: null }).where('id', '=', id).execute();
}

/** Records that an erasure ran, with its counts only. */
export async function insertErasure(db: Executor, erasure: { id: string; ranAt: number; changes: string }): Promise<void> {
  await db.insertInto('erasures').values({ id: erasure.id, ran_at: erasure.ranAt, changes: erasure.changes }).execute();
}
