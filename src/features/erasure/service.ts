/**
 * Erasure on request (docs/OPERATING.md, "Operating it", "Erasure"): removes one game user's personal data everywhere the
 * service keeps it, in one transaction, and records that it ran (counts only, never whose data it was).
 *
 * - Submissions (`game_user_id` is the id, or the applicant document says so): applicant identity fields null,
 *   answers empty, reviewer notes null, `game_user_id` null. Status, score, times and links stay, so decision
 *   counts and statistics stay exact.
 * - Staff profiles with that game user id (any workspace): names, username and game user id become
 *   `erased-<profile id>` (unique, so the workspace's unique index holds), the chat user id null; the reasons of
 *   their inactivity notices, and the decision notes that were set, become `erased`. The profile, its shifts and
 *   totals stay, so reports stay exact.
 * - Copies: command and event payloads, webhook event bodies (sent or not) and stored idempotent responses that
 *   carry the identity or a decision's notes are rewritten (scrub.ts); a receiver's answer to such an event that
 *   echoes an erased value is cleared.
 * Copies are recognised by the identity (`"gameUserId":<the id>`), an erased submission's or notice's id they carry, so
 * one written by a request running at the same time is found by running the erasure again.
 * Applicants' answers and identity are personal data: nothing here logs them, and the result names rows only.
 */
import { toIso, type Clock } from '../../shared/clock.ts';
import { count, noProgress, type Progress } from '../../shared/progress.ts';
import type { Store } from '../../db/store.ts';
import type { Executor } from '../../db/types.ts';
import { newId } from '../../shared/ids.ts';
import { applicantView } from '../applications/views.ts';
import { failChangesOfErasedStaff } from '../ranks/erased.ts';
import { eraseSubmission, findSubmissionCandidates, type SubmissionCandidate } from '../applications/upkeep.ts';
import { findCommandCopies, findEventCopies, setCommandPayload, setEventPayload } from '../../journal/upkeep.ts';
import { anonymiseStaff, findStaffIdentities, type StaffIdentity } from '../staff/upkeep.ts';
import { findNoticeIds, replaceNoticeTexts } from '../time-off/upkeep.ts';
import { clearAttemptAnswer, clearDeliveryAnswer, findReceiverAnswers, findWebhookCopies, setWebhookBody } from '../../webhooks/upkeep.ts';
import { findResponseCopies, setResponseBody, type RecordKey } from '../../idempotency/upkeep.ts';
import { insertErasure } from './repository.ts';
import { ERASED_APPLICANT, erasedAnswers, identityPatterns, scrubJson, staffAlias } from './scrub.ts';

/** What an erased inactivity notice's reason and decision note become (the reason is required). */
export const ERASED_REASON = 'erased';

/** A game user id as the erasure takes it: 1 to 32 digits. */
export const GAME_USER_ID_PATTERN = /^[0-9]{1,32}$/;

export interface ErasureChanges {
  readonly submissions: string[];
  readonly staff: string[];
  readonly inactivityNotices: string[];
  readonly commands: string[];
  readonly events: string[];
  readonly webhookEvents: string[];
  readonly webhookDeliveries: string[];
  readonly webhookAttempts: string[];
  readonly idempotencyRecords: RecordKey[];
}

export type ErasureCounts = { readonly [K in keyof ErasureChanges]: number };

export interface ErasureResult {
  /** The `erasures` row recording this run. */
  readonly erasureId: string;
  readonly ranAt: string;
  readonly counts: ErasureCounts;
  /** The rows changed, by kind (ids; stored responses by scope and key). Never an erased value. */
  readonly changed: ErasureChanges;
}

function countsOf(changes: ErasureChanges): ErasureCounts {
  return {
    submissions: changes.submissions.length,
    staff: changes.staff.length,
    inactivityNotices: changes.inactivityNotices.length,
    commands: changes.commands.length,
    events: changes.events.length,
    webhookEvents: changes.webhookEvents.length,
    webhookDeliveries: changes.webhookDeliveries.length,
    webhookAttempts: changes.webhookAttempts.length,
    idempotencyRecords: changes.idempotencyRecords.length,
  };
}

function isTheirs(candidate: SubmissionCandidate, gameUserId: string): boolean {
  return candidate.game_user_id === gameUserId || applicantView(candidate.applicant).gameUserId === gameUserId;
}

/** The erased values themselves, to recognise a receiver's answer that echoes them. */
function erasedValues(
  gameUserId: string,
  candidates: readonly SubmissionCandidate[],
  staff: readonly StaffIdentity[],
): string[] {
  const values = new Set<string>([gameUserId]);
  for (const candidate of candidates) {
    const applicant = applicantView(candidate.applicant);
    for (const value of [applicant.gameUsername, applicant.displayName, applicant.chatUserId]) if (value) values.add(value);
  }
  for (const member of staff) {
    for (const value of [member.display_name, member.game_username, member.chat_user_id]) if (value) values.add(value);
  }
  return [...values];
}

/** Where an erasure reaches: every workspace (the `erase` command), or one (a Roblox erasure request). */
interface Reach {
  readonly workspaceId: string | null;
  readonly now: number;
}

async function erase(trx: Executor, gameUserId: string, progress: Progress, { workspaceId, now }: Reach): Promise<ErasureChanges> {
  // Every value to erase is read before anything changes: the copies are recognised by them.
  progress('finding the staff profiles and submissions');
  const identity = identityPatterns(gameUserId);
  const staff = await findStaffIdentities(trx, gameUserId, workspaceId);
  const candidates = (await findSubmissionCandidates(trx, gameUserId, identity, workspaceId)).filter((c) => isTheirs(c, gameUserId));
  const echoes = erasedValues(gameUserId, candidates, staff);

  progress(`staff profiles and notices (${count(staff.length)})`);
  for (const member of staff) await anonymiseStaff(trx, member.id, staffAlias(member.id));
  const staffIds = staff.map((member) => member.id);
  // Their rank changes still waiting for the group never reach it.
  await failChangesOfErasedStaff(trx, staffIds, now);
  const noticeIds = await findNoticeIds(trx, staffIds);
  const notices = { ids: new Set(noticeIds), erased: ERASED_REASON };
  const inactivityNotices = await replaceNoticeTexts(trx, staffIds, ERASED_REASON);
  progress(`submissions (${count(candidates.length)})`);
  for (const candidate of candidates) {
    await eraseSubmission(trx, candidate.id, { applicant: ERASED_APPLICANT, answers: erasedAnswers(candidate.answers) });
  }
  const submissionIds = candidates.map((candidate) => candidate.id);
  const erasedSubmission = new Set(submissionIds);
  const mentionsErasedSubmission = (text: string) => submissionIds.some((id) => text.includes(id));

  progress('stored commands');
  const commands: string[] = [];
  const commandsOfErased = new Set<string>();
  for (const copy of await findCommandCopies(trx, submissionIds, identity, workspaceId)) {
    const aboutErasedSubmission = copy.submissionId !== null && erasedSubmission.has(copy.submissionId);
    if (aboutErasedSubmission) commandsOfErased.add(copy.key);
    const scrubbed = scrubJson(copy.text, { gameUserId, aboutErasedSubmission });
    if (scrubbed === null) continue;
    await setCommandPayload(trx, copy.key, scrubbed);
    commands.push(copy.key);
  }

  progress(`stored events (${count(commands.length)} commands changed)`);
  const events: string[] = [];
  for (const copy of await findEventCopies(trx, [...commandsOfErased], identity, workspaceId)) {
    const scrubbed = scrubJson(copy.text, { gameUserId, aboutErasedSubmission: commandsOfErased.has(copy.commandId) });
    if (scrubbed === null) continue;
    await setEventPayload(trx, copy.key, scrubbed);
    events.push(copy.key);
  }

  // Notice operations record no reason or note in their commands and events; their answers and webhook bodies do.
  const needles = [...identity, ...submissionIds, ...noticeIds];
  progress(`webhook events (${count(events.length)} events changed)`);
  const webhookEvents: string[] = [];
  for (const copy of await findWebhookCopies(trx, needles, workspaceId)) {
    const scrubbed = scrubJson(copy.text, { gameUserId, aboutErasedSubmission: mentionsErasedSubmission(copy.text), notices });
    if (scrubbed === null) continue;
    await setWebhookBody(trx, copy.key, scrubbed);
    webhookEvents.push(copy.key);
  }

  progress(`webhook deliveries and attempts (${count(webhookEvents.length)} webhook events changed)`);
  const echoesErased = (text: string | null) => text !== null && echoes.some((value) => text.includes(value));
  const answers = await findReceiverAnswers(trx, webhookEvents);
  const webhookDeliveries: string[] = [];
  for (const delivery of answers.deliveries) {
    if (!echoesErased(delivery.last_response) && !echoesErased(delivery.last_error)) continue;
    await clearDeliveryAnswer(trx, delivery.id);
    webhookDeliveries.push(delivery.id);
  }
  const webhookAttempts: string[] = [];
  for (const attempt of answers.attempts) {
    if (!echoesErased(attempt.response_excerpt) && !echoesErased(attempt.error)) continue;
    await clearAttemptAnswer(trx, attempt.id);
    webhookAttempts.push(attempt.id);
  }

  progress('stored responses');
  const idempotencyRecords: RecordKey[] = [];
  for (const copy of await findResponseCopies(trx, needles)) {
    const scrubbed = scrubJson(copy.text, { gameUserId, aboutErasedSubmission: mentionsErasedSubmission(copy.text), notices });
    if (scrubbed === null) continue;
    await setResponseBody(trx, copy.key, scrubbed);
    idempotencyRecords.push(copy.key);
  }

  return {
    submissions: submissionIds,
    staff: staffIds,
    inactivityNotices,
    commands,
    events,
    webhookEvents,
    webhookDeliveries,
    webhookAttempts,
    idempotencyRecords,
  };
}

/**
 * Erases the game user's personal data in one transaction and records the run in `erasures` (its counts only).
 * Running it again finds nothing left to change (zero counts) and records that run too.
 */
export async function eraseGameUser(
  store: Pick<Store, 'write'>,
  clock: Clock,
  gameUserId: string,
  progress: Progress = noProgress,
): Promise<ErasureResult> {
  if (!GAME_USER_ID_PATTERN.test(gameUserId)) throw new Error('a game user id is 1 to 32 digits');
  return store.write((trx) => eraseGameUserIn(trx, clock, gameUserId, { progress }));
}

/**
 * The erasure of eraseGameUser in the caller's transaction; with `workspaceId`, only that workspace's staff
 * profiles, submissions, commands, events and webhook events (stored idempotent responses, which belong to no
 * workspace, are scrubbed wherever they carry the identity, as by the command).
 */
export async function eraseGameUserIn(
  trx: Executor,
  clock: Clock,
  gameUserId: string,
  options: { readonly workspaceId?: string; readonly progress?: Progress } = {},
): Promise<ErasureResult> {
  if (!GAME_USER_ID_PATTERN.test(gameUserId)) throw new Error('a game user id is 1 to 32 digits');
  const ranAt = clock.now();
  const changed = await erase(trx, gameUserId, options.progress ?? noProgress, { workspaceId: options.workspaceId ?? null, now: ranAt });
  const counts = countsOf(changed);
  const erasureId = newId();
  await insertErasure(trx, { id: erasureId, ranAt, changes: JSON.stringify(counts) });
  return { erasureId, ranAt: toIso(ranAt), counts, changed };
}
