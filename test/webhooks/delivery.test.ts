import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dispatcher } from '../../src/webhooks/dispatcher.ts';
import { newId } from '../../src/shared/ids.ts';
import { generateWebhookSecret } from '../../src/provisioning/webhooks.ts';
import { createTestContext, DEFAULT_NOW, type TestContext } from '../helpers/app.ts';
import { dashboardToken, REVIEWER_USER_ID } from '../helpers/fixtures.ts';
import { STORE_KINDS } from '../helpers/stores.ts';
import { addSubmission, call, seedReviewFixture, type ReviewFixture, type ReviewOperation } from '../features/applications/helpers.ts';
import { deliverDue, testDispatcher } from './harness.ts';
import { Receiver, SENDERS, testDispatcherSettings } from './receiver.ts';

const EVERYTHING = '/everything';
const ACCEPTED_ONLY = '/accepted-only';
const DISABLED = '/disabled';
const SHIFTS_ONLY = '/shifts-only';
const RETRY_FIRST_DELAY_MS = 1_000;

const EVENT_TYPE: Record<ReviewOperation, string> = {
  'mark-under-review': 'application.submission.under_review',
  review: 'application.submission.review_updated',
  accept: 'application.submission.accepted',
  reject: 'application.submission.rejected',
};

const CASES = STORE_KINDS.flatMap((kind) => SENDERS.map(([where, sender]) => [kind, where, sender] as const));

describe.each(CASES)('webhook delivery of submission events (%s, sent %s)', (kind, _where, sender) => {
  let ctx: TestContext;
  let fixture: ReviewFixture;
  let token: string;
  let receiver: Receiver;
  let dispatcher: Dispatcher;
  /** Every attempt's outcome as the dispatcher reported it (what a serving process counts for its metrics). */
  const outcomes: string[] = [];
  const outcomeCount = (outcome: string) => outcomes.filter((o) => o === outcome).length;
  const ids = { everything: newId(), acceptedOnly: newId(), disabled: newId(), shiftsOnly: newId() };

  beforeAll(async () => {
    receiver = await Receiver.start();
    ctx = await createTestContext(kind);
    const everythingSecret = generateWebhookSecret();
    const disabledSecret = generateWebhookSecret();
    fixture = await seedReviewFixture(ctx, (f) => {
      f.workspace.webhooks = [
        { id: ids.everything, url: receiver.endpoint(EVERYTHING, everythingSecret), events: ['*'], secret: everythingSecret },
        { id: ids.acceptedOnly, url: `${receiver.baseUrl}${ACCEPTED_ONLY}`, events: ['application.submission.accepted'] },
        { id: ids.disabled, url: receiver.endpoint(DISABLED, disabledSecret), events: ['*'], enabled: false, secret: disabledSecret },
        { id: ids.shiftsOnly, url: `${receiver.baseUrl}${SHIFTS_ONLY}`, events: ['activity.shift.started', 'activity.shift.ended'] },
      ];
    });
    const rows = await ctx.store.db.selectFrom('webhook_endpoints').select(['id', 'secret']).execute();
    const secretOf = (id: string) => rows.find((r) => r.id === id)!.secret;
    receiver.setSecret(ACCEPTED_ONLY, secretOf(ids.acceptedOnly));
    receiver.setSecret(SHIFTS_ONLY, secretOf(ids.shiftsOnly));
    token = await dashboardToken(REVIEWER_USER_ID);
    ({ dispatcher } = testDispatcher(ctx, {
      sender,
      onAttempt: (outcome) => outcomes.push(outcome),
      settings: testDispatcherSettings({ retry: { firstDelayMs: RETRY_FIRST_DELAY_MS, maxDelayMs: 10 * RETRY_FIRST_DELAY_MS } }),
    }));
  });

  afterAll(async () => {
    await dispatcher?.stop(0);
    await receiver?.close();
    await ctx?.close();
  });

  /** Events recorded so far: a test's failures go to its own events, never to a late delivery of an earlier one. */
  const eventIdsSoFar = async () =>
    new Set((await ctx.store.db.selectFrom('webhook_events').select('id').execute()).map((r) => r.id));

  const deliveriesOf = (eventId: string) =>
    ctx.store.db.selectFrom('webhook_deliveries').selectAll().where('event_id', '=', eventId).execute();

  it('delivers every submission event type, signed, with the decision response as data, in the submission\'s environment', async () => {
    const decided: Array<{ operation: ReviewOperation; environment: string; data: Record<string, unknown> }> = [];
    for (const [operation, environment] of [
      ['mark-under-review', 'live'],
      ['review', 'test'],
      ['accept', 'live'],
      ['reject', 'test'],
    ] as const) {
      const id = await addSubmission(ctx, fixture.workspace);
      // As an intake with a test key would have recorded it (provisioned submissions are live).
      await ctx.store.db.updateTable('submissions').set({ environment }).where('id', '=', id).execute();
      const body = operation === 'review' ? { score: 70 } : { reviewNote: `note for ${operation}` };
      const res = await call(ctx.inject, operation, id, { token, body });
      expect(res.statusCode).toBe(200);
      decided.push({ operation, environment, data: res.json().data });
    }
    expect(await deliverDue(dispatcher)).toBe(5);
    for (const { operation, environment, data } of decided) {
      const eventId = data.eventId as string;
      const got = receiver.at(EVERYTHING).filter((r) => r.headers['webhook-id'] === eventId);
      expect(got).toHaveLength(1);
      expect(got[0]!.verified).toBe(true);
      expect(got[0]!.headers['webhook-timestamp']).toMatch(/^\d+$/);
      expect(got[0]!.headers['webhook-signature']).toMatch(/^v1,/);
      expect(got[0]!.headers['content-type']).toBe('application/json');
      expect(got[0]!.payload).toEqual({
        id: eventId,
        type: EVENT_TYPE[operation],
        createdAt: new Date(DEFAULT_NOW).toISOString(),
        workspaceId: fixture.ids.workspaceId,
        environment,
        data,
      });
    }
    const accepted = decided.find((d) => d.operation === 'accept')!.data;
    expect(receiver.at(ACCEPTED_ONLY).map((r) => [r.verified, r.payload?.id])).toEqual([[true, accepted.eventId]]);
    const rows = await deliveriesOf(accepted.eventId as string);
    expect(rows.map((r) => r.status)).toEqual(['delivered', 'delivered']);
    const attempts = await ctx.store.db
      .selectFrom('webhook_attempts as a')
      .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
      .select(['a.status', 'a.response_excerpt', 'a.attempt'])
      .where('d.event_id', '=', accepted.eventId as string)
      .execute();
    expect(attempts.map((a) => [a.attempt, a.status, a.response_excerpt])).toEqual([
      [1, 204, null],
      [1, 204, null],
    ]);
  });

  it('a disabled endpoint and an endpoint not subscribed to the type receive nothing', async () => {
    const id = await addSubmission(ctx, fixture.workspace);
    const res = await call(ctx.inject, 'accept', id, { token, body: {} });
    const eventId = res.json().data.eventId as string;
    expect(await deliverDue(dispatcher)).toBe(2);
    expect(receiver.at(ACCEPTED_ONLY).filter((r) => r.payload?.id === eventId)).toHaveLength(1);
    const rows = await deliveriesOf(eventId);
    expect(rows.map((r) => r.endpoint_id).sort()).toEqual([ids.everything, ids.acceptedOnly].sort());
    expect(receiver.at(DISABLED)).toEqual([]);
    expect(receiver.at(SHIFTS_ONLY)).toEqual([]);
  });

  it('a receiver that fails, then recovers, gets the event again with the same webhook-id and body', async () => {
    const earlier = await eventIdsSoFar();
    let failures = 0;
    receiver.behaviour = ({ path, webhookId }) =>
      path === EVERYTHING && !earlier.has(webhookId) && failures++ < 1 ? 500 : 204;
    const retriedBefore = outcomeCount('pending');
    try {
      const id = await addSubmission(ctx, fixture.workspace);
      const res = await call(ctx.inject, 'reject', id, { token, body: {} });
      const eventId = res.json().data.eventId as string;
      const attemptsAt = () => receiver.at(EVERYTHING).filter((r) => r.headers['webhook-id'] === eventId);
      await deliverDue(dispatcher);
      const [failed] = (await deliveriesOf(eventId)).filter((r) => r.endpoint_id === ids.everything);
      expect(failed).toMatchObject({ status: 'pending', attempts: 1, last_status: 500 });
      // The first retry comes within the first delay (jittered down, never up).
      expect(Number(failed!.next_attempt_at) - DEFAULT_NOW).toBeGreaterThanOrEqual(RETRY_FIRST_DELAY_MS / 2);
      expect(Number(failed!.next_attempt_at) - DEFAULT_NOW).toBeLessThanOrEqual(RETRY_FIRST_DELAY_MS);
      expect(failed!.last_response!.length).toBeLessThanOrEqual(256);
      expect(attemptsAt()).toHaveLength(1);
      // Not due yet: nothing is sent before its time.
      expect(await deliverDue(dispatcher)).toBe(0);
      ctx.clock.advance(RETRY_FIRST_DELAY_MS);
      expect(await deliverDue(dispatcher)).toBe(1);
      expect(attemptsAt()).toHaveLength(2);
      const [first, second] = attemptsAt();
      expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
      expect(second!.body).toBe(first!.body);
      expect(second!.verified).toBe(true);
      const [row] = (await deliveriesOf(eventId)).filter((r) => r.endpoint_id === ids.everything);
      expect(row).toMatchObject({ status: 'delivered', attempts: 2, last_status: 204 });
      expect(outcomeCount('pending') - retriedBefore).toBe(1);
    } finally {
      receiver.behaviour = () => 204;
      ctx.clock.set(DEFAULT_NOW);
    }
  });

  it('records an answer whose body is not text: its excerpt keeps what is text, NUL and invalid bytes replaced', async () => {
    const earlier = await eventIdsSoFar();
    const body = Buffer.concat([Buffer.from('bad\u0000gateway '), Buffer.from([0xff, 0xfe]), Buffer.from(' é')]);
    receiver.behaviour = ({ path, webhookId }) => (path === EVERYTHING && !earlier.has(webhookId) ? { status: 502, body } : 204);
    try {
      const id = await addSubmission(ctx, fixture.workspace);
      const res = await call(ctx.inject, 'reject', id, { token, body: {} });
      const eventId = res.json().data.eventId as string;
      expect(await deliverDue(dispatcher)).toBe(1);
      const [row] = (await deliveriesOf(eventId)).filter((r) => r.endpoint_id === ids.everything);
      expect(row).toMatchObject({ status: 'pending', attempts: 1, last_status: 502, last_response: 'bad\ufffdgateway \ufffd\ufffd é' });
      const attempts = await ctx.store.db.selectFrom('webhook_attempts').select(['status', 'response_excerpt']).where('delivery_id', '=', row!.id).execute();
      expect(attempts).toEqual([{ status: 502, response_excerpt: 'bad\ufffdgateway \ufffd\ufffd é' }]);
    } finally {
      receiver.behaviour = () => 204;
      ctx.clock.set(DEFAULT_NOW);
    }
  });

  it('gives up 24 h after the event: the delivery is marked failed', async () => {
    const earlier = await eventIdsSoFar();
    receiver.behaviour = ({ path, webhookId }) => (path === EVERYTHING && !earlier.has(webhookId) ? 503 : 204);
    const failedBefore = outcomeCount('failed');
    try {
      const id = await addSubmission(ctx, fixture.workspace);
      const res = await call(ctx.inject, 'mark-under-review', id, { token, body: {} });
      const eventId = res.json().data.eventId as string;
      const row = async () => (await deliveriesOf(eventId)).find((r) => r.endpoint_id === ids.everything);
      await deliverDue(dispatcher);
      expect(await row()).toMatchObject({ status: 'pending', attempts: 1 });
      ctx.clock.advance(24 * 60 * 60 * 1000);
      await deliverDue(dispatcher);
      expect(await row()).toMatchObject({ status: 'failed', attempts: 2, last_status: 503 });
      expect(outcomeCount('failed') - failedBefore).toBe(1);
    } finally {
      receiver.behaviour = () => 204;
      ctx.clock.set(DEFAULT_NOW);
    }
  });
});
