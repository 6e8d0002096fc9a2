import type { Executor } from '../../db/types.ts';
import { recordOperation, type CommandActor, type RequestContext } from '../../journal/journal.ts';
import { noticeView } from './views.ts';
import type { NoticeRow } from './repository.ts';
import { NOTICE_OPERATIONS, type NoticeOperation } from './rules.ts';
import type { NoticeResult } from './schemas.ts';

/**
 * Records a notice operation in its transaction: one command and one event (their payloads name the notice and
 * its status only: a reason or a note is personal and stays out of them), and the event's webhook deliveries
 * with the answer as `data`, in the notice's environment. Returns the answer.
 */
export async function recordNoticeOperation(
  trx: Executor,
  operation: NoticeOperation,
  notice: NoticeRow,
  actor: CommandActor,
  request: RequestContext,
  now: number,
): Promise<NoticeResult> {
  const { commandType, eventType } = NOTICE_OPERATIONS[operation];
  const payload = { noticeId: notice.id, status: notice.status };
  return recordOperation(
    trx,
    {
      workspaceId: notice.workspace_id,
      environment: notice.environment,
      commandType,
      eventType,
      actor,
      request,
      submissionId: null,
      commandPayload: payload,
      eventPayload: payload,
      at: now,
    },
    { notice: noticeView(notice) },
  );
}
