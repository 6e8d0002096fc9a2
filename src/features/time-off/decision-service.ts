/**
 * Inactivity notices as managers see and decide them on the dashboard (docs/API.md, "Inactivity notices"): the list
 * of the workspaces where the caller holds `notices.decide`, and approve / deny, each in the write's transaction
 * with one command and one event. Notices are found as the review decisions find submissions.
 */
import type { UserActor } from '../../shared/actor.ts';
import { toIso, type Clock } from '../../shared/clock.ts';
import type { Executor } from '../../db/types.ts';
import { AppError, notFound, validationError } from '../../shared/errors.ts';
import { isUuid } from '../../shared/ids.ts';
import { timeCursor } from '../../shared/paging.ts';
import type { RequestContext } from '../../journal/journal.ts';
import { rankings } from '../workspaces/rankings.ts';
import { noticeItemView } from './views.ts';
import { recordNoticeOperation } from './record.ts';
import {
  findNotice,
  findNoticeLockingStaff,
  findOverlappingNotice,
  listNotices,
  updateNoticeIf,
  type NoticeItemRow,
  type OverlapQuery,
} from './repository.ts';
import { characters, NOTE_MAX } from './rules.ts';
import { LIST_LIMIT_DEFAULT, type DecisionBody, type ListQuery, type NoticePage, type NoticeResult } from './schemas.ts';
import { compareText } from '../../shared/text.ts';

const PERMISSION = 'notices.decide';

function permissionDenied(): AppError {
  return new AppError('permission_denied', `This operation requires the ${PERMISSION} permission.`, {
    requiredPermission: PERMISSION,
  });
}

/** With a workspace selected, only that workspace is visible; otherwise every workspace the caller belongs to. */
function canSee(actor: UserActor, workspaceId: string): boolean {
  return actor.selectedWorkspaceId !== null ? actor.selectedWorkspaceId === workspaceId : actor.memberships.has(workspaceId);
}

/** The workspaces a list covers: the selected one, else every membership; of those, where the caller decides. */
function decidingWorkspaces(actor: UserActor): string[] {
  const candidates = actor.selectedWorkspaceId !== null ? [actor.selectedWorkspaceId] : [...actor.memberships.keys()];
  const readable = candidates.filter((id) => actor.memberships.get(id)?.has(PERMISSION) === true).sort();
  if (readable.length === 0) throw permissionDenied();
  return readable;
}

function byStartThenId(a: NoticeItemRow, b: NoticeItemRow): number {
  return Number(a.starts_at) - Number(b.starts_at) || compareText(a.id, b.id);
}

/** A decision's note: trimmed, 1..NOTE_MAX characters; null when none was sent. */
function decisionNote(body: DecisionBody): string | null {
  if (body.note === undefined) return null;
  const note = body.note.trim();
  if (note === '') throw validationError([{ path: 'body.note', message: 'must not be empty (after trimming)' }]);
  if (characters(note) > NOTE_MAX) {
    throw validationError([{ path: 'body.note', message: `must NOT have more than ${NOTE_MAX} characters (after trimming)` }]);
  }
  return note;
}

export interface DecisionInput {
  readonly noticeId: string;
  readonly body: DecisionBody;
  readonly request: RequestContext;
}

export interface NoticeDecisionServiceDeps {
  readonly db: Executor;
  readonly clock: Clock;
}

export function createNoticeDecisionService({ db, clock }: NoticeDecisionServiceDeps) {
  /**
   * The note (400), the notice (404: unknown, not a uuid, or not visible), the permission (403), the state (409
   * `invalid_state_transition` unless pending), then the conditional UPDATE from `pending`: of an approval racing
   * a denial exactly one changes the row, and the other re-reads and is refused. An approval reads the notice with
   * its staff member's row locked, so approvals of their notices take turns, and its UPDATE also requires that no
   * other approved notice overlaps it (409 `notice_overlap`, told apart from a state change only on refusal).
   */
  async function decide(
    trx: Executor,
    actor: UserActor,
    { noticeId, body, request }: DecisionInput,
    decision: 'approve' | 'deny',
  ): Promise<NoticeResult> {
    const note = decisionNote(body);
    const now = clock.now();
    const find = decision === 'approve' ? findNoticeLockingStaff : findNotice;
    const notice = isUuid(noticeId) ? await find(trx, noticeId.toLowerCase()) : undefined;
    const permissions = notice ? actor.memberships.get(notice.workspace_id) : undefined;
    if (!notice || !permissions || !canSee(actor, notice.workspace_id)) throw notFound('The inactivity notice');
    if (!permissions.has(PERMISSION)) throw permissionDenied();
    const stateError = (status: string) =>
      new AppError('invalid_state_transition', `The inactivity notice is ${status}; only a pending one can be decided.`, { status });
    if (notice.status !== 'pending') throw stateError(notice.status);
    const changes = { status: decision === 'approve' ? 'approved' : 'denied', decided_at: now, decision_note: note, decided_by: actor.userId };
    const pending = { status: 'pending' };
    // What an approval may not overlap: another approved notice of the staff member, in the notice's environment.
    const clash: OverlapQuery = {
      staffId: notice.staff_id,
      environment: notice.environment,
      statuses: ['approved'],
      start: Number(notice.starts_at),
      end: Number(notice.ends_at),
      exceptId: notice.id,
    };
    let updated = await updateNoticeIf(trx, notice.id, decision === 'approve' ? { ...pending, clearOf: clash } : pending, changes);
    if (!updated && decision === 'approve') {
      // Refused for an overlap or a change of state. Should the overlapping notice have gone since (a cancellation
      // takes no lock), the approval is made as an overlap check that finds none makes it.
      const overlapping = await findOverlappingNotice(trx, clash);
      if (overlapping !== undefined) {
        throw new AppError('notice_overlap', 'Another approved inactivity notice of the staff member overlaps this one.', {
          noticeId: overlapping,
        });
      }
      updated = await updateNoticeIf(trx, notice.id, pending, changes);
    }
    if (!updated) {
      const current = await findNotice(trx, notice.id);
      throw stateError(current?.status ?? 'changed');
    }
    // An approval lowers requirements: leaderboards computed without it are no longer what they would be.
    if (decision === 'approve') await rankings.invalidate(trx, updated.workspace_id);
    return recordNoticeOperation(trx, decision, updated, { type: 'user', id: actor.userId }, request, now);
  }

  return {
    /** A page of the notices, by start then id; several workspaces (no selector) are merged. */
    async list(actor: UserActor, query: ListQuery): Promise<NoticePage> {
      const workspaceIds = decidingWorkspaces(actor);
      const after = timeCursor(query, 'cursorStartsAt');
      const limit = query.limit ?? LIST_LIMIT_DEFAULT;
      const filter = {
        environment: query.environment ?? 'live',
        statuses: query.status ? [...new Set(query.status.split(','))] : ['pending'],
        staffId: query.staffId ?? null,
        after,
        limit: limit + 1,
      };
      const pages = await Promise.all(workspaceIds.map((workspaceId) => listNotices(db, { ...filter, workspaceId })));
      const rows = pages.length === 1 ? pages[0]! : pages.flat().sort(byStartThenId).slice(0, limit + 1);
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return {
        notices: page.map(noticeItemView),
        nextCursor:
          rows.length > limit && last ? { cursorStartsAt: toIso(Number(last.starts_at)), cursorId: last.id } : null,
      };
    },

    approve: (trx: Executor, actor: UserActor, input: DecisionInput) => decide(trx, actor, input, 'approve'),
    deny: (trx: Executor, actor: UserActor, input: DecisionInput) => decide(trx, actor, input, 'deny'),
  };
}

export type NoticeDecisionService = ReturnType<typeof createNoticeDecisionService>;
