import { storedEnvironment } from '../../shared/actor.ts';
import type { Executor } from '../../db/types.ts';
import { newTimeOrderedId } from '../../shared/ids.ts';
import { enqueueWebhookEvent } from '../webhooks/outbox.ts';
import { noticeView } from './notice-view.ts';
import { insertNoticeCommand, insertNoticeEvent, type NoticeRow } from './repository.ts';
import { NOTICE_OPERATIONS, type NoticeOperation } from './rules.ts';
import type { NoticeResult } from './schemas.ts';

/** The request an operation belongs to, as recorded on its command. */
export interface RequestContext {
  readonly requestId: string;
  readonly idempotencyKey: string | null;
}

/** Who asked for an operation, as its command records them: a key's application, or a dashboard user. */
export interface CommandActor {
  readonly type: 'api_key' | 'user';
  readonly id: string;
}

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
  const commandId = newTimeOrderedId();
  const eventId = newTimeOrderedId();
  const payload = { noticeId: notice.id, status: notice.status };
  await insertNoticeCommand(trx, {
    id: commandId,
    workspaceId: notice.workspace_id,
    type: commandType,
    actorType: actor.type,
    actorId: actor.id,
    requestId: request.requestId,
    idempotencyKey: request.idempotencyKey,
    payload,
    createdAt: now,
  });
  await insertNoticeEvent(trx, { id: eventId, workspaceId: notice.workspace_id, commandId, type: eventType, payload, createdAt: now });
  const result: NoticeResult = { notice: noticeView(notice), commandId, eventId };
  await enqueueWebhookEvent(trx, {
    id: eventId,
    type: eventType,
    workspaceId: notice.workspace_id,
    environment: storedEnvironment(notice.environment),
    createdAt: now,
    data: { ...result },
  });
  return result;
}
