/** Every event type a webhook endpoint can subscribe to (docs/WEBHOOKS.md, "Webhooks"); `*` subscribes to all of them. */
export const WEBHOOK_EVENT_TYPES = [
  'application.submission.submitted',
  'application.submission.under_review',
  'application.submission.review_updated',
  'application.submission.accepted',
  'application.submission.rejected',
  'activity.shift.started',
  'activity.shift.ended',
  'staff.inactivity_notice.requested',
  'staff.inactivity_notice.approved',
  'staff.inactivity_notice.denied',
  'staff.inactivity_notice.cancelled',
  'staff.rank.changed',
  'staff.rank.sync_failed',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const ALL_EVENTS = '*';

/** Whether an endpoint's subscription list (as stored: a JSON array) includes `type`. */
export function subscribes(events: readonly string[], type: string): boolean {
  return events.includes(ALL_EVENTS) || events.includes(type);
}
