import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dispatcher } from '../../src/webhooks/dispatcher.ts';
import { sweepTimedOutShifts } from '../../src/features/activity/shifts/sweep.ts';
import { newId } from '../../src/shared/ids.ts';
import { generateWebhookSecret } from '../../src/provisioning/webhooks.ts';
import { createTestContext, DEFAULT_NOW, type TestContext } from '../helpers/app.ts';
import { buildFixture, seed, type Fixture } from '../helpers/fixtures.ts';
import { STORE_KINDS } from '../helpers/stores.ts';
import { dataOf, errorCode, shiftClient, startBody, type ShiftClient } from '../features/activity/shifts/shift-client.ts';
import { deliverDue, testDispatcher } from './harness.ts';
import { Receiver, type Received } from './receiver.ts';

const TIMEOUT_SECONDS = 60;
const ALL = '/all';
const STARTS = '/starts';

describe.each(STORE_KINDS)('webhook delivery of shift events (%s)', (kind) => {
  let ctx: TestContext;
  let receiver: Receiver;
  let dispatcher: Dispatcher;
  let fixture: Fixture;
  let client: ShiftClient;
  let live: ShiftClient;

  beforeAll(async () => {
    receiver = await Receiver.start();
    ctx = await createTestContext(kind, { env: { SHIFT_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS) } });
    fixture = buildFixture();
    const allSecret = generateWebhookSecret();
    const startsSecret = generateWebhookSecret();
    fixture.workspace.webhooks = [
      { id: newId(), url: receiver.endpoint(ALL, allSecret), events: ['*'], secret: allSecret },
      { id: newId(), url: receiver.endpoint(STARTS, startsSecret), events: ['activity.shift.started'], secret: startsSecret },
    ];
    await seed(ctx, fixture);
    client = shiftClient(ctx, fixture.keys.test.secret);
    live = shiftClient(ctx, fixture.keys.live.secret);
    ({ dispatcher } = testDispatcher(ctx));
  });

  afterAll(async () => {
    await dispatcher?.stop(0);
    await receiver?.close();
    await ctx?.close();
  });

  const eventsAt = (path: string, type: string, shiftId: string): Received[] =>
    receiver
      .at(path)
      .filter((r) => r.payload?.type === type && (r.payload.data as { shift: { id: string } }).shift.id === shiftId);

  /** Sends what is due, then the one delivery of `type` for the shift at `path`. */
  async function delivered(path: string, type: string, shiftId: string): Promise<Record<string, unknown>> {
    await deliverDue(dispatcher);
    const got = eventsAt(path, type, shiftId);
    expect(got, `${type} of ${shiftId} at ${path}`).toHaveLength(1);
    expect(got[0]!.verified).toBe(true);
    expect(got[0]!.headers['webhook-id']).toBe(got[0]!.payload!.id);
    return got[0]!.payload!;
  }

  const staffOf = (name: 'alice' | 'bob') => ({
    id: fixture.ids.staff[name],
    displayName: fixture.staff[name].displayName,
    gameUserId: fixture.staff[name].gameUserId,
  });

  it('start and stop deliver activity.shift.started and .ended with the shift as GET shows it', async () => {
    ctx.clock.set(DEFAULT_NOW);
    const started = dataOf<{ shift: { id: string } }>(await client.start(startBody(fixture)));
    const shiftId = started.shift.id;
    const shown = dataOf<{ shift: unknown }>(await client.get(shiftId));
    const payload = await delivered(ALL, 'activity.shift.started', shiftId);
    expect(payload).toEqual({
      id: expect.any(String),
      type: 'activity.shift.started',
      createdAt: new Date(DEFAULT_NOW).toISOString(),
      workspaceId: fixture.ids.workspaceId,
      environment: 'test',
      data: { shift: shown.shift, staff: staffOf('alice') },
    });
    await delivered(STARTS, 'activity.shift.started', shiftId);

    // A repeated start returns the active shift: no event.
    dataOf(await client.start(startBody(fixture)));
    ctx.clock.advance(90_000 - 30_000);
    dataOf(await client.heartbeat(shiftId, { serverId: 'srv-1' }));
    ctx.clock.advance(30_000);
    const stopped = dataOf<{ shift: { endReason: string } }>(await client.stop(shiftId, { reason: 'player_left' }));
    expect(stopped.shift.endReason).toBe('player_left');
    const after = dataOf<{ shift: unknown }>(await client.get(shiftId));
    const ended = await delivered(ALL, 'activity.shift.ended', shiftId);
    expect(ended).toEqual({
      id: expect.any(String),
      type: 'activity.shift.ended',
      createdAt: new Date(DEFAULT_NOW + 90_000).toISOString(),
      workspaceId: fixture.ids.workspaceId,
      environment: 'test',
      data: { shift: after.shift, staff: staffOf('alice') },
    });
    expect(ended.id).not.toBe(payload.id);
    // One start event however often the start was repeated; heartbeats create none; /starts gets no ended event.
    const rows = await ctx.store.db.selectFrom('webhook_events').select(['type', 'body']).execute();
    const ofShift = rows.filter((r) => r.body.includes(shiftId)).map((r) => r.type).sort();
    expect(ofShift).toEqual(['activity.shift.ended', 'activity.shift.started']);
    expect(eventsAt(STARTS, 'activity.shift.ended', shiftId)).toEqual([]);
  });

  it('a heartbeat to a timed-out shift ends it on the spot with endReason heartbeat_timeout', async () => {
    ctx.clock.set(DEFAULT_NOW + 1_000_000);
    const shiftId = dataOf<{ shift: { id: string } }>(await live.start(startBody(fixture, { gameUserId: fixture.staff.bob.gameUserId }))).shift.id;
    ctx.clock.advance(TIMEOUT_SECONDS * 1000 + 1);
    const res = await live.heartbeat(shiftId, { serverId: 'srv-1' });
    expect(errorCode(res)).toBe('shift_not_active');
    const ended = await delivered(ALL, 'activity.shift.ended', shiftId);
    expect(ended).toMatchObject({ environment: 'live', data: { staff: staffOf('bob') } });
    expect((ended.data as { shift: Record<string, unknown> }).shift).toMatchObject({
      id: shiftId,
      status: 'completed',
      endReason: 'heartbeat_timeout',
      durationSeconds: 0,
    });
  });

  it('the timeout sweep records an ended event for each shift it completes', async () => {
    ctx.clock.set(DEFAULT_NOW + 2_000_000);
    const shiftId = dataOf<{ shift: { id: string } }>(await client.start(startBody(fixture))).shift.id;
    ctx.clock.advance(TIMEOUT_SECONDS * 1000 + 1);
    expect(await sweepTimedOutShifts({ write: (job) => ctx.store.write(job), clock: ctx.clock, config: ctx.config })).toBe(1);
    const ended = await delivered(ALL, 'activity.shift.ended', shiftId);
    expect((ended.data as { shift: Record<string, unknown> }).shift).toMatchObject({
      id: shiftId,
      endReason: 'heartbeat_timeout',
    });
    expect(ended.createdAt).toBe(new Date(DEFAULT_NOW + 2_000_000 + TIMEOUT_SECONDS * 1000 + 1).toISOString());
  });
});
