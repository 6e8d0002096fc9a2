/**
 * The webhook events as OpenAPI 3.1 describes what an API sends rather than serves: the document's `webhooks`,
 * one POST per event type, with the Standard Webhooks headers and a body schema built from the same schemas as
 * the API answers the event's data comes from (docs/WEBHOOKS.md, "Webhooks"). Generated clients type the bodies from it.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import {
  AcceptResultSchema,
  RejectResultSchema,
  ReviewUpdateResultSchema,
  UnderReviewResultSchema,
} from '../features/applications/review/schemas.ts';
import { IntakeResultSchema } from '../features/applications/intake/schemas.ts';
import { ShiftDetailSchema, StaffRefSchema } from '../features/activity/shifts/schemas.ts';
import { NoticeResultSchema } from '../features/time-off/schemas.ts';
import { ChangeResultSchema, SyncFailedSchema } from '../features/ranks/schemas.ts';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../webhooks/event-types.ts';
import { WEBHOOK_EXAMPLES } from './webhook-examples.ts';

/** The tag the webhook events are listed under. */
export const WEBHOOKS_TAG = {
  name: 'webhooks',
  description:
    'Events the gateway POSTs to the workspace\'s webhook endpoints (provisioning document, `webhooks`), signed as ' +
    'Standard Webhooks specifies. Not operations of this API: what an endpoint receives and how it answers.',
};

interface EventDoc {
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  readonly data: TSchema;
}

const SHIFT_DATA = Type.Object(
  {
    shift: ShiftDetailSchema,
    staff: { ...StaffRefSchema, description: 'The staff member whose shift it is.' },
  },
  { additionalProperties: false, description: 'The shift as `GET /v1/activity/shifts/{shiftId}` shows it then.' },
);

const EVENTS: Readonly<Record<WebhookEventType, EventDoc>> = {
  'application.submission.submitted': {
    operationId: 'applicationSubmissionSubmittedEvent',
    summary: 'A submission was taken in',
    description: 'Sent after `submitApplication` succeeds; `data` is its answer\'s `data`, `environment` the key\'s.',
    data: IntakeResultSchema,
  },
  'application.submission.under_review': {
    operationId: 'applicationSubmissionUnderReviewEvent',
    summary: 'A submission was marked under review',
    description: 'Sent after `markSubmissionUnderReview`; `data` is its answer\'s `data`, `environment` the submission\'s.',
    data: UnderReviewResultSchema,
  },
  'application.submission.review_updated': {
    operationId: 'applicationSubmissionReviewUpdatedEvent',
    summary: 'A submission\'s score or reviewer notes changed',
    description: 'Sent after `updateSubmissionReview`; `data` is its answer\'s `data`, `environment` the submission\'s.',
    data: ReviewUpdateResultSchema,
  },
  'application.submission.accepted': {
    operationId: 'applicationSubmissionAcceptedEvent',
    summary: 'A submission was accepted',
    description: 'Sent after `acceptSubmission`; `data` is its answer\'s `data`, `environment` the submission\'s.',
    data: AcceptResultSchema,
  },
  'application.submission.rejected': {
    operationId: 'applicationSubmissionRejectedEvent',
    summary: 'A submission was rejected',
    description: 'Sent after `rejectSubmission`; `data` is its answer\'s `data`, `environment` the submission\'s.',
    data: RejectResultSchema,
  },
  'activity.shift.started': {
    operationId: 'activityShiftStartedEvent',
    summary: 'A shift started',
    description: 'Sent when a start creates a shift (a start answered with `existing: true` sends none).',
    data: SHIFT_DATA,
  },
  'activity.shift.ended': {
    operationId: 'activityShiftEndedEvent',
    summary: 'A shift ended',
    description:
      'Sent when a shift is completed: by a stop, a game server\'s batch stop or the heartbeat timeout ' +
      '(`data.shift.endReason` tells which).',
    data: SHIFT_DATA,
  },
  'staff.inactivity_notice.requested': {
    operationId: 'staffInactivityNoticeRequestedEvent',
    summary: 'A staff member asked for an inactivity notice',
    description: 'Sent after `requestInactivityNotice`; `data` is its answer\'s `data`, `environment` the notice\'s (the key\'s).',
    data: NoticeResultSchema,
  },
  'staff.inactivity_notice.approved': {
    operationId: 'staffInactivityNoticeApprovedEvent',
    summary: 'An inactivity notice was approved',
    description: 'Sent after `approveInactivityNotice`; `data` is its answer\'s `data`, `environment` the notice\'s.',
    data: NoticeResultSchema,
  },
  'staff.inactivity_notice.denied': {
    operationId: 'staffInactivityNoticeDeniedEvent',
    summary: 'An inactivity notice was denied',
    description: 'Sent after `denyInactivityNotice`; `data` is its answer\'s `data`, `environment` the notice\'s.',
    data: NoticeResultSchema,
  },
  'staff.inactivity_notice.cancelled': {
    operationId: 'staffInactivityNoticeCancelledEvent',
    summary: 'An inactivity notice was cancelled, or its staff member came back early',
    description:
      'Sent after `cancelInactivityNotice`: `data.notice.status` is `cancelled`, or `approved` with `endsAt` moved to ' +
      'the cancellation (back early); `data` is its answer\'s `data`, `environment` the notice\'s.',
    data: NoticeResultSchema,
  },
  'staff.rank.changed': {
    operationId: 'staffRankChangedEvent',
    summary: 'A staff member\'s rank changed',
    description:
      'Sent after `changeStaffRank`, and when an acceptance gives the staff profile it creates its form\'s entry rank ' +
      '(`fromRank` null); `data` is the change\'s answer\'s `data`, `environment` `live`. The change\'s sync to the ' +
      'Roblox group is then under way (`sync.status` `pending`) or `not_configured`.',
    data: ChangeResultSchema,
  },
  'staff.rank.sync_failed': {
    operationId: 'staffRankSyncFailedEvent',
    summary: 'Roblox refused a rank change, or its sync gave up',
    description:
      'Sent when a rank change\'s sync ends `failed`: Open Cloud refused it (400, 401, 403, or 404 on assigning the ' +
      'role; `sync.lastError` has Roblox\'s `code` and `message`), it kept failing for 24 h, or the staff member was ' +
      'erased (`code` `erased`). `data` is `{ staff, change }`, `environment` `live`.',
    data: SyncFailedSchema,
  },
};

const HEADERS = [
  {
    name: 'webhook-id',
    description: 'The event id (`id` of the body), the same on every attempt: deduplicate on it.',
    schema: { type: 'string', format: 'uuid' },
    example: '5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a',
  },
  {
    name: 'webhook-timestamp',
    description: 'When this attempt was signed, in Unix seconds: refuse one too far from your clock (replays).',
    schema: { type: 'string', pattern: '^[0-9]+$' },
    example: '1773230400',
  },
  {
    name: 'webhook-signature',
    description:
      '`v1,` + base64 of HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the endpoint\'s ' +
      'secret (the bytes after `whsec_`, base64-decoded). Verify with any Standard Webhooks library before ' +
      'parsing the body.',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$' },
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
].map((header) => ({ ...header, in: 'header', required: true }));

/** The body of an event of `type`: the envelope every event shares around its `data`. */
export function webhookBodySchema(type: WebhookEventType): TSchema {
  return Type.Object(
    {
      id: Type.String({ format: 'uuid', description: 'The event id; equals the `webhook-id` header.' }),
      type: Type.Literal(type),
      createdAt: Type.String({ format: 'date-time', description: 'When the event was recorded.' }),
      workspaceId: Type.String({ format: 'uuid' }),
      environment: Type.Union([Type.Literal('test'), Type.Literal('live'), Type.Null()], {
        description: 'The environment the data belongs to (`null` for an event of no environment; none is so far).',
      }),
      data: EVENTS[type].data,
    },
    {
      description: 'Properties may be added to this body in later versions; a receiver should ignore those it does not know.',
    },
  );
}

const RESPONSES = {
  '2XX': { description: 'Acknowledged: any 2xx answer within 10 s ends the delivery. The answer\'s body is ignored.' },
  default: {
    description:
      'Anything else (another status, a redirect, no answer within 10 s) is a failed attempt: retried after growing ' +
      'delays for 24 h from the event, then marked failed.',
  },
};

/** The document's `webhooks`: each event type's POST to a subscribed endpoint. */
export function webhookDocument(): Record<string, unknown> {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => {
      const { operationId, summary, description } = EVENTS[type];
      const post = {
        operationId,
        summary,
        description: `${description} Subscribed to as \`${type}\` (or \`*\`).`,
        tags: [WEBHOOKS_TAG.name],
        // No OpenAPI security scheme says "signed body": the signature is the `webhook-signature` header.
        security: [],
        parameters: HEADERS,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: webhookBodySchema(type), examples: { event: { value: WEBHOOK_EXAMPLES[type] } } } },
        },
        responses: RESPONSES,
      };
      return [type, { post }];
    }),
  );
}
