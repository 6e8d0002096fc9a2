import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dispatcher } from '../../../src/webhooks/dispatcher.ts';
import { retryAfterMs } from '../../../src/webhooks/destination.ts';
import { afterAttempt } from '../../../src/webhooks/retry.ts';
import { generateWebhookSecret } from '../../../src/provisioning/webhooks.ts';
import { newId } from '../../../src/shared/ids.ts';
import { createTestContext, type TestContext } from '../../helpers/app.ts';
import { buildFixture, dashboardToken, GUILD_ID, REVIEWER_USER_ID, seed, type Fixture } from '../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { deliverDue, testDispatcher } from '../../webhooks/harness.ts';
import { Receiver, testDispatcherSettings } from '../../webhooks/receiver.ts';
import { command, discordApplication, signedInteraction } from './helpers.ts';

/**
 * Channel posts: a webhook endpoint with `format: "discord"` gets embeds, through the same outbox, dispatcher and
 * retries as every webhook, sent to a real receiver; never a reason or a decision note.
 */

const REASON = 'Hospital visit, private';
const NOTE = 'Not this week, sorry';

describe.each(STORE_KINDS)('Discord channel posts (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: Fixture;
  let receiver: Receiver;
  let dispatcher: Dispatcher;
  const discord = discordApplication();
  const standardId = newId();

  beforeAll(async () => {
    receiver = await Receiver.start();
    ctx = await createTestContext(kind);
    fixture = buildFixture();
    const secret = generateWebhookSecret();
    const standardSecret = generateWebhookSecret();
    fixture.workspace.discord = { applicationId: discord.applicationId, publicKey: discord.publicKey };
    fixture.workspace.webhooks = [
      { id: newId(), url: receiver.endpoint('/discord', secret), events: ['*'], secret, format: 'discord' },
      { id: standardId, url: receiver.endpoint('/standard', standardSecret), events: ['*'], secret: standardSecret },
    ];
    await seed(ctx, fixture);
    ({ dispatcher } = testDispatcher(ctx, { settings: testDispatcherSettings({ retry: { firstDelayMs: 1_000, maxDelayMs: 10_000 } }) }));
  });
  afterAll(async () => {
    await dispatcher?.stop();
    await ctx?.close();
    await receiver?.close();
  });

  const posts = () => receiver.received.filter((r) => r.path === '/discord').map((r) => JSON.parse(r.body) as { embeds: Array<Record<string, unknown>>; allowed_mentions: unknown });

  it('a notice asked from Discord and denied with a note is posted as embeds with the name and dates, never the reason or the note', async () => {
    const alice = { guildId: GUILD_ID, userId: fixture.staff.alice.chatUserId! };
    const signed = signedInteraction(discord, command(alice, 'loa', { start: '2026-03-20', end: '2026-03-20', reason: REASON }, 'request'), ctx.clock.now());
    expect((await ctx.inject({ method: 'POST', url: signed.url, headers: signed.headers, payload: signed.payload })).statusCode).toBe(200);
    const notice = await ctx.store.db.selectFrom('inactivity_notices').select('id').where('origin', '=', 'api').executeTakeFirstOrThrow();
    const token = await dashboardToken(REVIEWER_USER_ID);
    const denied = await ctx.inject({
      method: 'POST',
      url: `/v1/staff/inactivity-notices/${notice.id}/deny`,
      headers: { authorization: `Bearer ${token}`, 'idempotency-key': newId(), 'content-type': 'application/json' },
      payload: { note: NOTE },
    });
    expect(denied.statusCode).toBe(200);
    await deliverDue(dispatcher);
    const sent = posts();
    expect(sent).toHaveLength(2);
    for (const post of sent) {
      expect(Object.keys(post).sort()).toEqual(['allowed_mentions', 'embeds']);
      expect(post.allowed_mentions).toEqual({ parse: [] });
      expect(post.embeds).toHaveLength(1);
    }
    expect(sent.map((post) => post.embeds[0]!.title)).toEqual(['Time off requested', 'Time off denied']);
    expect(sent[0]!.embeds[0]).toMatchObject({ description: 'Alice', fields: expect.arrayContaining([{ name: 'Status', value: 'pending', inline: true }]) });
    const all = JSON.stringify(sent);
    expect(all).not.toContain(REASON);
    expect(all).not.toContain(NOTE);
    // The standard endpoint still gets the Standard Webhooks body, with the reason as before.
    const standard = receiver.received.filter((r) => r.path === '/standard');
    expect(standard.every((r) => r.verified)).toBe(true);
    expect(standard[0]!.body).toContain(REASON);
  });

  it('a 429 is retried no sooner than its retry_after', async () => {
    receiver.behaviour = ({ path }) => (path === '/discord' ? { status: 429, body: '{"message":"You are being rate limited.","retry_after":120.5,"global":false}' } : 204);
    const alice = { guildId: GUILD_ID, userId: fixture.staff.alice.chatUserId! };
    const signed = signedInteraction(discord, command(alice, 'loa', { start: '2026-03-25', end: '2026-03-25', reason: 'r' }, 'request'), ctx.clock.now());
    await ctx.inject({ method: 'POST', url: signed.url, headers: signed.headers, payload: signed.payload });
    const before = ctx.clock.now();
    await deliverDue(dispatcher);
    const rows = await ctx.store.db
      .selectFrom('webhook_deliveries')
      .select(['status', 'next_attempt_at', 'last_status'])
      .where('status', '=', 'pending')
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.last_status).toBe(429);
    expect(Number(rows[0]!.next_attempt_at)).toBeGreaterThanOrEqual(before + 120_500);
    receiver.behaviour = () => 204;
  });

  it('the wait is the body\'s retry_after, else the Retry-After header (seconds or a date); retries never come sooner', () => {
    expect(retryAfterMs('{"retry_after": 2.25}', '60')).toBe(2250);
    expect(retryAfterMs('not json', '60')).toBe(60_000);
    expect(retryAfterMs(null, undefined)).toBeUndefined();
    expect(retryAfterMs(null, new Date(Date.now() + 30_000).toUTCString())).toBeGreaterThan(28_000);
    const step = afterAttempt({ firstDelayMs: 1_000, maxDelayMs: 10_000 }, { status: 429, number: 1, finishedAt: 0, expiresAt: 1e9, retryAfterMs: 300_000 }, () => 1);
    expect(step).toEqual({ outcome: 'pending', nextAttemptAt: 300_000 });
  });
});
