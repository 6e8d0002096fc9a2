/** Example event bodies of the webhook events, as the OpenAPI document's `webhooks` show them. */
import * as review from '../features/applications/review/examples.ts';
import { intakeResponseExample } from '../features/applications/intake/examples.ts';
import { shiftDetailResponseExample } from '../features/activity/shifts/examples.ts';
import * as notices from '../features/time-off/examples.ts';
import * as ranks from '../features/ranks/examples.ts';
import type { WebhookEventType } from '../webhooks/event-types.ts';

const AT = '2026-03-11T12:00:00.000Z';

/** The body an endpoint receives for an event of `type` with `data` (the example's own ids and times). */
function body(type: WebhookEventType, id: string, data: unknown, createdAt = AT) {
  return { id, type, createdAt, workspaceId: review.WORKSPACE_ID, environment: 'live', data };
}

const ended = shiftDetailResponseExample.data.shift;
const { endedAt: _endedAt, durationSeconds: _duration, minutes: _minutes, endReason: _reason, ...active } = ended;
const started = { ...active, status: 'active', lastHeartbeatAt: active.startedAt, elapsedSeconds: 0 };

/** The event an API answer's `data` (with its `eventId`) was sent as. */
const fromAnswer = (type: WebhookEventType, answer: { data: { eventId: string } }) => body(type, answer.data.eventId, answer.data);

export const WEBHOOK_EXAMPLES: Record<WebhookEventType, unknown> = {
  'application.submission.submitted': fromAnswer('application.submission.submitted', intakeResponseExample),
  'application.submission.under_review': fromAnswer('application.submission.under_review', review.underReviewResponseExample),
  'application.submission.review_updated': fromAnswer('application.submission.review_updated', review.reviewUpdateResponseExample),
  'application.submission.accepted': fromAnswer('application.submission.accepted', review.acceptResponseExample),
  'application.submission.rejected': fromAnswer('application.submission.rejected', review.rejectResponseExample),
  'activity.shift.started': body(
    'activity.shift.started',
    '01950a3c-5a00-7c3e-9b1d-2f4a6c8e0b13',
    { shift: started, staff: started.staff },
    started.startedAt,
  ),
  'activity.shift.ended': body(
    'activity.shift.ended',
    '01950a3c-cc40-7d21-8e5f-3a6b9c0d1e24',
    { shift: ended, staff: ended.staff },
    '2026-03-11T12:15:00.000Z',
  ),
  'staff.inactivity_notice.requested': fromAnswer('staff.inactivity_notice.requested', notices.requestResponseExample),
  'staff.inactivity_notice.approved': fromAnswer('staff.inactivity_notice.approved', notices.approveResponseExample),
  'staff.inactivity_notice.denied': fromAnswer('staff.inactivity_notice.denied', notices.denyResponseExample),
  'staff.inactivity_notice.cancelled': fromAnswer('staff.inactivity_notice.cancelled', notices.cancelResponseExample),
  'staff.rank.changed': fromAnswer('staff.rank.changed', ranks.changeResponseExample),
  'staff.rank.sync_failed': body('staff.rank.sync_failed', '01936a4e-2b7c-7d3e-8f41-5a6b7c8d9e12', ranks.syncFailedExample),
};
