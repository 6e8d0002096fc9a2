import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dispatcher } from '../../../src/webhooks/dispatcher.ts';
import { newId } from '../../../src/shared/ids.ts';
import { generateWebhookSecret } from '../../../src/provisioning/webhooks.ts';
import { createTestContext, DEFAULT_NOW, type TestContext } from '../../helpers/app.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { deliverDue, testDispatcher } from '../../webhooks/harness.ts';
import { Receiver } from '../../webhooks/receiver.ts';
import { freshGameUserId, intakeBody, provisionWebhooks, seedIntakeFixture, submit, type IntakeFixture } from './intake-helpers.ts';

const ALL = '/all';
const SUBMITTED = '/submitted';
const ACCEPTED = '/accepted';

describe.each(STORE_KINDS)('webhook delivery of application.submission.submitted (%s)', (kind) => {
  let ctx: TestContext;
  let receiver: Receiver;
  let dispatcher: Dispatcher;
  let fixture: IntakeFixture;

  beforeAll(async () => {
    receiver = await Receiver.start();
    ctx = await createTestContext(kind);
    const secrets = [generateWebhookSecret(), generateWebhookSecret(), generateWebhookSecret()] as const;
    fixture = await seedIntakeFixture(ctx);
    await provisionWebhooks(ctx, fixture, [
      { id: newId(), url: receiver.endpoint(ALL, secrets[0]), events: ['*'], secret: secrets[0] },
      { id: newId(), url: receiver.endpoint(SUBMITTED, secrets[1]), events: ['application.submission.submitted'], secret: secrets[1] },
      { id: newId(), url: receiver.endpoint(ACCEPTED, secrets[2]), events: ['application.submission.accepted'], secret: secrets[2] },
    ]);
    ({ dispatcher } = testDispatcher(ctx));
  });

  afterAll(async () => {
    await dispatcher?.stop(0);
    await receiver?.close();
    await ctx?.close();
  });

  it('is delivered with the response\'s data and the key\'s environment to the endpoints subscribed to it', async () => {
    ctx.clock.set(DEFAULT_NOW);
    const res = await submit(ctx.inject, fixture.keys.test.secret, fixture.form.id, intakeBody(freshGameUserId()));
    expect(res.statusCode).toBe(200);
    const data = res.json().data as { eventId: string };
    const outbox = await ctx.store.db.selectFrom('webhook_deliveries').select('event_id').where('event_id', '=', data.eventId).execute();
    expect(outbox).toHaveLength(2);

    await deliverDue(dispatcher);
    for (const path of [ALL, SUBMITTED]) {
      const got = receiver.at(path).filter((r) => r.payload?.id === data.eventId);
      expect(got, path).toHaveLength(1);
      expect(got[0]!.verified).toBe(true);
      expect(got[0]!.payload).toEqual({
        id: data.eventId,
        type: 'application.submission.submitted',
        createdAt: new Date(DEFAULT_NOW).toISOString(),
        workspaceId: fixture.ids.workspaceId,
        environment: 'test',
        data,
      });
    }
    expect(receiver.at(ACCEPTED).filter((r) => r.payload?.id === data.eventId)).toEqual([]);
  });

  it('a refused submission records no event', async () => {
    const before = await ctx.store.db.selectFrom('webhook_events').select('id').execute();
    const res = await submit(ctx.inject, fixture.keys.live.secret, fixture.closedForm.id, intakeBody(freshGameUserId()));
    expect(res.statusCode).toBe(409);
    expect(await ctx.store.db.selectFrom('webhook_events').select('id').execute()).toHaveLength(before.length);
  });
});
