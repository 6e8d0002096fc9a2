/**
 * The OpenAPI document's `webhooks` say what endpoints really receive: every event type is documented, and each
 * body a real receiver got (every type, on both stores) fits its type's schema with exactly the documented
 * properties, under the documented headers. The documented examples fit too, and a body that differs from what is
 * sent does not, so the check can fail.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../../clients/typescript/src/index.ts';
import type { Dispatcher } from '../../src/webhooks/dispatcher.ts';
import { WEBHOOK_EVENT_TYPES } from '../../src/webhooks/event-types.ts';
import { newId } from '../../src/shared/ids.ts';
import { generateWebhookSecret } from '../../src/provisioning/webhooks.ts';
import { createTestContext, DEFAULT_NOW, type TestContext } from '../helpers/app.ts';
import { dashboardToken, REVIEWER_USER_ID } from '../helpers/fixtures.ts';
import { STORE_KINDS } from '../helpers/stores.ts';
import { call, type ReviewOperation } from '../features/applications/helpers.ts';
import {
  freshGameUserId,
  intakeBody,
  provisionWebhooks,
  seedIntakeFixture,
  submit,
  type IntakeFixture,
} from '../features/applications/intake-helpers.ts';
import { dataOf, shiftClient, startBody } from '../features/activity/shifts/shift-client.ts';
import { ask, cancel, dataOf as noticeData, decide as decideNotice, noticeBody, type NoticeData } from '../features/time-off/helpers.ts';
import { deliverDue, testDispatcher } from './harness.ts';
import { Receiver, SILENT_LOG, type Received } from './receiver.ts';
import { RankSync } from '../../src/features/ranks/sync/sync.ts';
import { DEFAULT_RANK_SYNC_SETTINGS } from '../../src/features/ranks/sync/sync.ts';
import { systemTimer } from '../../src/webhooks/timer.ts';
import { seed } from '../helpers/fixtures.ts';
import { FakeOpenCloud } from '../features/ranks/fake-open-cloud.ts';

type Json = Record<string, unknown>;
interface WebhookOperation {
  operationId: string;
  tags: string[];
  parameters: Array<{ name: string; in: string; required: boolean; schema: Json }>;
  requestBody: { required: boolean; content: { 'application/json': { schema: Json; examples: Record<string, { value: Json }> } } };
  responses: Record<string, { description: string }>;
}

const ALL = '/all';

describe.each(STORE_KINDS)('the OpenAPI document\'s webhooks against real deliveries (%s)', (kind) => {
  let ctx: TestContext;
  let receiver: Receiver;
  let dispatcher: Dispatcher;
  let fixture: IntakeFixture;
  let webhooks: Record<string, { post: WebhookOperation }>;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const validators = new Map<string, ValidateFunction>();
  const validatorOf = (type: string): ValidateFunction => {
    let validate = validators.get(type);
    if (!validate) {
      validate = ajv.compile(webhooks[type]!.post.requestBody.content['application/json'].schema);
      validators.set(type, validate);
    }
    return validate;
  };

  beforeAll(async () => {
    receiver = await Receiver.start();
    ctx = await createTestContext(kind);
    fixture = await seedIntakeFixture(ctx);
    const secret = generateWebhookSecret();
    await provisionWebhooks(ctx, fixture, [{ id: newId(), url: receiver.endpoint(ALL, secret), events: ['*'], secret }]);
    ({ dispatcher } = testDispatcher(ctx));
    webhooks = (await ctx.inject({ method: 'GET', url: '/openapi.json' })).json<{ webhooks: typeof webhooks }>().webhooks;
  });

  afterAll(async () => {
    await dispatcher?.stop(0);
    await receiver?.close();
    await ctx?.close();
  });

  it('documents each event type once, as a signed POST with an example that fits its schema', () => {
    expect(Object.keys(webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    const operationIds = new Set<string>();
    for (const type of WEBHOOK_EVENT_TYPES) {
      const operation = webhooks[type]!.post;
      operationIds.add(operation.operationId);
      expect(operation.tags).toEqual(['webhooks']);
      expect(operation.parameters.map((p) => [p.name, p.in, p.required])).toEqual([
        ['webhook-id', 'header', true],
        ['webhook-timestamp', 'header', true],
        ['webhook-signature', 'header', true],
      ]);
      expect(Object.keys(operation.responses)).toEqual(['2XX', 'default']);
      const examples = Object.values(operation.requestBody.content['application/json'].examples);
      expect(examples.length).toBeGreaterThan(0);
      for (const { value } of examples) {
        expect(value.type).toBe(type);
        expect(validatorOf(type)(value), `${type} example: ${ajv.errorsText(validatorOf(type).errors)}`).toBe(true);
      }
    }
    expect(operationIds.size).toBe(WEBHOOK_EVENT_TYPES.length);
  });

  it('fits every body a receiver got, of every type, with exactly the documented properties and headers', async () => {
    ctx.clock.set(DEFAULT_NOW);
    const token = await dashboardToken(REVIEWER_USER_ID);
    const intake = async () => {
      const res = await submit(ctx.inject, fixture.keys.test.secret, fixture.form.id, intakeBody(freshGameUserId()));
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { data: { submission: { id: string } } }).data.submission.id;
    };
    const decide = async (operation: ReviewOperation, submissionId: string, body?: unknown) => {
      const res = await call(ctx.inject, operation, submissionId, { token, ...(body === undefined ? {} : { body }) });
      expect(res.statusCode, res.body).toBe(200);
    };
    const first = await intake();
    await decide('mark-under-review', first);
    await decide('review', first, { score: 42.5, reviewerNotes: 'Kind answers.' });
    await decide('accept', first, { createStaffProfile: true });
    await decide('reject', await intake(), { reviewNote: 'Not this time.' });
    const shifts = shiftClient(ctx, fixture.keys.live.secret);
    const { shift } = dataOf<{ shift: { id: string } }>(await shifts.start(startBody(fixture)));
    ctx.clock.advance(120_000);
    dataOf(await shifts.stop(shift.id, { reason: 'server_shutdown' }));
    // An inactivity notice asked for, approved; one denied; one cancelled.
    const chatUserId = fixture.staff.alice.chatUserId!;
    const asked = async (startInHours: number) =>
      noticeData<NoticeData>(await ask(ctx.inject, fixture.keys.live.secret, noticeBody(ctx.clock.now(), startInHours, 2), { chatUserId })).notice.id;
    noticeData(await decideNotice(ctx.inject, token, 'approve', await asked(10), { body: { note: 'Enjoy.' } }));
    noticeData(await decideNotice(ctx.inject, token, 'deny', await asked(20)));
    noticeData(await cancel(ctx.inject, fixture.keys.live.secret, await asked(30), { chatUserId }));
    // A rank change, and its sync refused by Roblox (a fake Open Cloud answering 403).
    const openCloud = await FakeOpenCloud.start();
    try {
      openCloud.answer = () => ({ status: 403, code: 'PERMISSION_DENIED', message: 'The key may not change this group.' });
      const ranks = ['Moderator', 'Trial Moderator', 'Senior Moderator'].map((name, i) => ({ name, roleId: String(i + 1), order: i + 1 }));
      await seed(ctx, { document: { workspaces: [{ ...fixture.workspace, roblox: { groupId: '42', apiKey: 'key' }, ranks }] } });
      const res = await ctx.inject({
        method: 'POST',
        url: `/v1/staff/${fixture.ids.staff.alice}/rank`,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': newId() },
        payload: JSON.stringify({ rank: 'Senior Moderator' }),
      });
      expect(res.statusCode, res.body).toBe(200);
      const sync = new RankSync({
        store: ctx.store,
        clock: ctx.clock,
        timer: systemTimer,
        log: SILENT_LOG,
        settings: { ...DEFAULT_RANK_SYNC_SETTINGS, baseUrl: openCloud.baseUrl },
      });
      expect(await sync.runOnce()).toBe(1);
    } finally {
      await openCloud.close();
    }

    await deliverDue(dispatcher);
    const received: Received[] = receiver.at(ALL);
    expect(new Set(received.map((r) => r.payload?.type))).toEqual(new Set(WEBHOOK_EVENT_TYPES));
    for (const got of received) {
      expect(got.verified).toBe(true);
      const body = got.payload!;
      const type = String(body.type);
      const operation = webhooks[type]!.post;
      const validate = validatorOf(type);
      expect(validate(body), `${type}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      const schema = operation.requestBody.content['application/json'].schema as { properties: Json; required: string[] };
      expect(Object.keys(body).sort()).toEqual(Object.keys(schema.properties).sort());
      expect([...schema.required].sort()).toEqual(Object.keys(schema.properties).sort());
      for (const parameter of operation.parameters) {
        const value = got.headers[parameter.name];
        expect(ajv.validate(parameter.schema, value), `${type} header ${parameter.name}: ${String(value)}`).toBe(true);
      }
      expect(got.headers['webhook-id']).toBe(body.id);
      // The TypeScript client's event type narrows on `type` to the documented data.
      const event = body as unknown as WebhookEvent;
      if (event.type === 'activity.shift.ended') expect(event.data.shift.endReason).toBe('server_shutdown');
      if (event.type === 'application.submission.accepted') expect(event.data.staffProfileCreated).toBe(true);
      if (type.startsWith('staff.inactivity_notice.') || type.startsWith('staff.rank.')) expect(body.environment).toBe('live');
      if (event.type === 'staff.rank.sync_failed') expect(event.data.change.sync.lastError?.code).toBe('PERMISSION_DENIED');
    }

    // What the schemas refuse: a body of another type, and a shift event without its staff member.
    const ended = received.find((r) => r.payload?.type === 'activity.shift.ended')!.payload!;
    expect(validatorOf('activity.shift.started')(ended)).toBe(false);
    const { staff: _staff, ...withoutStaff } = ended.data as Json;
    expect(validatorOf('activity.shift.ended')({ ...ended, data: withoutStaff })).toBe(false);
    const accepted = received.find((r) => r.payload?.type === 'application.submission.accepted')!.payload!;
    expect(validatorOf('application.submission.accepted')({ ...accepted, data: { ...(accepted.data as Json), status: 'rejected' } })).toBe(false);
    const approved = received.find((r) => r.payload?.type === 'staff.inactivity_notice.approved')!.payload!;
    const { notice } = approved.data as { notice: Json };
    expect(notice.decisionNote).toBe('Enjoy.');
    expect(validatorOf('staff.inactivity_notice.approved')({ ...approved, data: { ...(approved.data as Json), notice: { ...notice, status: 'paused' } } })).toBe(false);
  });
});
