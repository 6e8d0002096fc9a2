/**
 * Inactivity notices as a staff member asks for them through the chat bot (docs/API.md, "Inactivity notices"): the
 * acting chat user is identified as on `GET /v1/staff/me`; a request and a cancellation each run in the write's
 * transaction and record one command and one event.
 */
import type { ApiKeyActor } from '../../shared/actor.ts';
import type { Executor } from '../../db/types.ts';
import { AppError, notFound, validationError, type ValidationIssue } from '../../shared/errors.ts';
import { isUuid, newTimeOrderedId } from '../../shared/ids.ts';
import { DAY_MS, parseIsoDateTime, type Clock } from '../../shared/clock.ts';
import type { RequestContext } from '../../journal/journal.ts';
import { readActingStaff, resolveActingStaff, type ChatContext } from '../staff/service.ts';
import { rankings } from '../workspaces/rankings.ts';
import { noticeView } from './views.ts';
import { recordNoticeOperation } from './record.ts';
import {
  findNotice,
  findOverlappingNotice,
  insertNotice,
  insertNoticeIfClear,
  listStaffNotices,
  lockStaff,
  updateNoticeIf,
  type NoticeRow,
} from './repository.ts';
import { characters, MAX_BACKDATE_MS, OPEN_STATUSES, OWN_LIST_LIMIT, REASON_MAX } from './rules.ts';
import type { Notice, NoticeResult, RequestBody } from './schemas.ts';

export interface StaffNoticeInput<Body> {
  readonly chat: ChatContext;
  readonly body: Body;
  readonly request: RequestContext;
}

export interface CancelInput {
  readonly chat: ChatContext;
  readonly noticeId: string;
  readonly request: RequestContext;
}

interface CheckedRequest {
  readonly start: number;
  readonly end: number;
  readonly reason: string;
}

/** The request's rules, every broken one at once; a rule on both dates names `endsAt`. */
function checkRequest(body: RequestBody, now: number, maxNoticeDays: number): CheckedRequest {
  const issues: ValidationIssue[] = [];
  const reason = body.reason.trim();
  if (reason === '') issues.push({ path: 'body.reason', message: 'must not be empty (after trimming)' });
  else if (characters(reason) > REASON_MAX) {
    issues.push({ path: 'body.reason', message: `must NOT have more than ${REASON_MAX} characters (after trimming)` });
  }
  const start = parseIsoDateTime(body.startsAt);
  const end = parseIsoDateTime(body.endsAt);
  if (start === undefined) issues.push({ path: 'body.startsAt', message: 'must be an ISO 8601 date-time with an offset' });
  else if (start < now - MAX_BACKDATE_MS) issues.push({ path: 'body.startsAt', message: 'must be at most 7 days before now' });
  if (end === undefined) issues.push({ path: 'body.endsAt', message: 'must be an ISO 8601 date-time with an offset' });
  else {
    if (end <= now) issues.push({ path: 'body.endsAt', message: 'must be after now' });
    if (start !== undefined && end <= start) issues.push({ path: 'body.endsAt', message: 'must be after startsAt' });
    else if (start !== undefined && end - start > maxNoticeDays * DAY_MS) {
      issues.push({ path: 'body.endsAt', message: `must be at most ${maxNoticeDays} days (the workspace's maxNoticeDays) after startsAt` });
    }
  }
  if (issues.length > 0 || start === undefined || end === undefined) throw validationError(issues, 'The inactivity notice is invalid.');
  return { start, end, reason };
}

function overlap(noticeId: string): AppError {
  return new AppError('notice_overlap', 'The staff member already has a pending or approved inactivity notice overlapping these dates.', {
    noticeId,
  });
}

function finalized(status: string, ended: boolean): AppError {
  const state = ended ? 'approved and has ended' : status;
  return new AppError('notice_finalized', `The inactivity notice is ${state}; it can no longer be cancelled.`, { status });
}

/** How a cancellation changes the notice at `now`, or why it cannot (docs/API.md, "Inactivity notices"). */
function cancellation(notice: NoticeRow, now: number) {
  if (notice.status === 'pending') return { from: { status: 'pending' }, changes: { status: 'cancelled' } };
  if (notice.status === 'approved' && Number(notice.starts_at) > now) {
    return { from: { status: 'approved', startsAfter: now }, changes: { status: 'cancelled' } };
  }
  // Back early: the part taken still counts, so the notice stays approved and ends now.
  if (notice.status === 'approved' && Number(notice.ends_at) > now) {
    return { from: { status: 'approved', underWayAt: now }, changes: { ends_at: now } };
  }
  throw finalized(notice.status, notice.status === 'approved');
}

export interface NoticeServiceDeps {
  readonly db: Executor;
  readonly clock: Clock;
}

export function createNoticeService({ db, clock }: NoticeServiceDeps) {
  return {
    /**
     * The guild (403), the body's rules (400), the acting staff member (404), inactive staff (403), then, with the
     * staff member's row locked, the insert unless a pending or approved notice overlaps it (409).
     */
    async request(trx: Executor, actor: ApiKeyActor, { chat, body, request }: StaffNoticeInput<RequestBody>): Promise<NoticeResult> {
      const now = clock.now();
      const workspaceId = actor.application.workspaceId;
      const { workspace, staff } = await readActingStaff(trx, actor, chat);
      const checked = checkRequest(body, now, workspace.settings.maxNoticeDays);
      if (!staff) throw notFound('A staff profile for this chat user');
      if (staff.status !== 'active') throw new AppError('staff_inactive', 'Inactive staff cannot ask for inactivity notices.');

      await lockStaff(trx, staff.id);
      const clash = {
        staffId: staff.id,
        environment: actor.environment,
        statuses: OPEN_STATUSES,
        start: checked.start,
        end: checked.end,
        exceptId: null,
      };
      const row: NoticeRow = {
        id: newTimeOrderedId(),
        workspace_id: workspaceId,
        staff_id: staff.id,
        starts_at: checked.start,
        ends_at: checked.end,
        reason: checked.reason,
        status: 'pending',
        environment: actor.environment,
        created_at: now,
        decided_at: null,
        decision_note: null,
        decided_by: null,
        origin: 'api',
      };
      if (!(await insertNoticeIfClear(trx, row))) {
        // Refused: name the overlapping notice. Should it have gone since (a cancellation takes no lock), the notice
        // is inserted as an overlap check that finds none inserts it.
        const overlapping = await findOverlappingNotice(trx, clash);
        if (overlapping !== undefined) throw overlap(overlapping);
        await insertNotice(trx, row);
      }
      return recordNoticeOperation(trx, 'request', row, { type: 'api_key', id: actor.application.id }, request, now);
    },

    /** The acting staff member's notices of the key's environment, latest start first. */
    async listMine(actor: ApiKeyActor, chat: ChatContext): Promise<Notice[]> {
      const { staff } = await resolveActingStaff(db, actor, chat);
      const rows = await listStaffNotices(db, staff.id, actor.environment, OWN_LIST_LIMIT);
      return rows.map(noticeView);
    },

    /**
     * The acting staff member (404), their notice of the key's environment (404), then the change its state
     * allows (409 `notice_finalized` otherwise), made by a conditional UPDATE: a racing decision or cancellation
     * makes it re-read and judge again.
     */
    async cancel(trx: Executor, actor: ApiKeyActor, { chat, noticeId, request }: CancelInput): Promise<NoticeResult> {
      const now = clock.now();
      const { staff } = await resolveActingStaff(trx, actor, chat);
      const find = async () => {
        const notice = isUuid(noticeId) ? await findNotice(trx, noticeId.toLowerCase()) : undefined;
        if (!notice || notice.staff_id !== staff.id || notice.environment !== actor.environment) {
          throw notFound('The inactivity notice');
        }
        return notice;
      };
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const notice = await find();
        const { from, changes } = cancellation(notice, now);
        const updated = await updateNoticeIf(trx, notice.id, from, changes);
        if (!updated) continue;
        // An approved notice lowered requirements: leaderboards computed with it are no longer what they would be.
        if (notice.status === 'approved') await rankings.invalidate(trx, notice.workspace_id);
        return recordNoticeOperation(trx, 'cancel', updated, { type: 'api_key', id: actor.application.id }, request, now);
      }
      throw new AppError('invalid_state_transition', 'The inactivity notice changed concurrently; retry with a new key.');
    },
  };
}

export type NoticeService = ReturnType<typeof createNoticeService>;
