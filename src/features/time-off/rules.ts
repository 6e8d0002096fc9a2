import type { WebhookEventType } from '../../webhooks/event-types.ts';
import { DAY_MS } from '../../shared/clock.ts';

/** A notice's statuses (docs/API.md, "Inactivity notices"); only `approved` lowers a requirement. */
export const NOTICE_STATUSES = ['pending', 'approved', 'denied', 'cancelled'] as const;
export type NoticeStatus = (typeof NOTICE_STATUSES)[number];

/** Statuses a new request may not overlap (of the same staff member and environment). */
export const OPEN_STATUSES: readonly NoticeStatus[] = ['pending', 'approved'];

/** The longest a reason or a decision note may be, in characters after trimming. */
export const REASON_MAX = 500;
export const NOTE_MAX = 1000;
/** How far before now a notice may start. */
export const MAX_BACKDATE_MS = 7 * DAY_MS;
/** How many of their own notices a staff member's list shows. */
export const OWN_LIST_LIMIT = 20;

export type NoticeOperation = 'request' | 'cancel' | 'approve' | 'deny';

/** The command each operation records and the event it emits (delivered by webhooks with the answer's data). */
export const NOTICE_OPERATIONS: Readonly<Record<NoticeOperation, { commandType: string; eventType: WebhookEventType }>> = {
  request: { commandType: 'staff.inactivity_notice.request', eventType: 'staff.inactivity_notice.requested' },
  cancel: { commandType: 'staff.inactivity_notice.cancel', eventType: 'staff.inactivity_notice.cancelled' },
  approve: { commandType: 'staff.inactivity_notice.approve', eventType: 'staff.inactivity_notice.approved' },
  deny: { commandType: 'staff.inactivity_notice.deny', eventType: 'staff.inactivity_notice.denied' },
};

/** Characters (code points) of a text, as answers count them. */
export function characters(text: string): number {
  return [...text].length;
}
