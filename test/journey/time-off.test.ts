import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createGatewayClient, type GatewayClient, type WebhookEvent } from '../../clients/typescript/src/index.ts';
import { loaCommand } from '../../clients/typescript/examples/chat-bot.ts';
import { webhookReceiver } from '../../clients/typescript/examples/webhook-receiver.ts';
import { TEST_JWT_SECRET } from '../helpers/app.ts';
import { startCli } from '../helpers/cli.ts';
import { buildFixture, dashboardToken, REVIEWER_USER_ID, UNIVERSE_ID } from '../helpers/fixtures.ts';
import { createTestDatabase, STORE_KINDS } from '../helpers/stores.ts';
import { provisionWithCli } from '../clients/application-centre.ts';
import { checkedTransport } from '../clients/typescript/gateway.ts';

/**
 * Time off from the chat bot to the leaderboard, through real processes on each store: a gateway process, the bot
 * (the TypeScript client with the bot's test key, and the example's `/loa`), a manager with the client and a
 * dashboard token, and the example webhook receiver, which verifies each delivery's Standard Webhooks signature.
 */

const NOTICE_EVENTS = [
  'staff.inactivity_notice.requested',
  'staff.inactivity_notice.approved',
  'staff.inactivity_notice.denied',
  'staff.inactivity_notice.cancelled',
] as const;
const MINUTE = 60_000;
const DAY = 86_400_000;
const EVENT_WAIT_MS = 20_000;

/** Progress as the gateway computes it: minutes / requirement × 100, two decimals half up; 100 with no requirement. */
const progress = (minutes: number, required: number): number =>
  required === 0 ? 100 : Math.round((minutes / required) * 100 * 100) / 100;

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe.each(STORE_KINDS)('time off from the chat bot to the leaderboard (%s)', (kind) => {
  it(
    'a staff member asks through the bot, a manager approves: the requirement falls and progress rises; back early, the part taken still counts; every step a signed event, in order',
    async () => {
      const database = await createTestDatabase(kind);
      cleanup.push(() => database.drop());

      // The example receiver, on a free port; it hands over each verified event once, in the order it arrived.
      const secret = `whsec_${randomBytes(32).toString('base64')}`;
      const received: Array<{ message: string; event: WebhookEvent }> = [];
      const receiver = webhookReceiver(secret, async (message, event) => void received.push({ message, event }));
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      cleanup.push(() => new Promise((resolve) => receiver.close(resolve)));
      const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/gateway-events`;

      // The workspace (weekly requirement 180 min in Alice's department), an hour-long completed test shift of
      // Alice's this week at most, and the four notice events to the receiver.
      const now = Date.now();
      const fixture = buildFixture();
      const monday = new Date(now);
      monday.setUTCHours(0, 0, 0, 0);
      const weekStart = monday.getTime() - ((monday.getUTCDay() + 6) % 7) * DAY;
      const span = Math.min(60 * MINUTE, Math.floor((now - weekStart) / 2));
      fixture.workspace.shifts = [
        {
          id: randomUUID(),
          staffId: fixture.ids.staff.alice,
          applicationId: fixture.ids.applicationId,
          environment: 'test',
          startedAt: new Date(now - 2 * span).toISOString(),
          endedAt: new Date(now - span).toISOString(),
          endReason: 'player_left',
          universeId: UNIVERSE_ID,
          placeId: '7',
          serverId: 'srv-journey',
        },
      ];
      fixture.workspace.webhooks = [{ id: randomUUID(), url: hook, events: [...NOTICE_EVENTS], secret }];
      await provisionWithCli(database, fixture.document);

      const server = await startCli(['serve', '--port', '0', '--database-url', database.url], {
        JWT_SECRET: TEST_JWT_SECRET,
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        WEBHOOK_POLL_INTERVAL_MS: '50',
      });
      cleanup.push(async () => expect(await server.stop('SIGTERM')).toBe(0));
      const baseUrl = server.baseUrl;
      const checked = checkedTransport(baseUrl);
      const bot: GatewayClient = createGatewayClient({ baseUrl, apiKey: fixture.keys.test.secret, fetch: checked });
      const manager = createGatewayClient({ baseUrl, token: await dashboardToken(REVIEWER_USER_ID, { expiresAt: now + 3_600_000 }), fetch: checked });
      const alice = { chatGuildId: fixture.guildId, actingChatUserId: fixture.staff.alice.chatUserId ?? '' };

      const week = async () => {
        const summary = (await bot.getActivitySummary(alice)).body.data;
        const board = (await bot.getActivityLeaderboard({ period: 'week', limit: 10 })).body.data.entries;
        const entry = board.find((e) => e.staffId === fixture.ids.staff.alice);
        if (!entry) throw new Error('Alice is not on the leaderboard');
        return { summary, entry };
      };
      const before = await week();
      expect(before.summary.weeklyRequiredMinutes).toBe(180);
      expect(before.summary.inactivityEffect).toBeNull();
      const worked = before.summary.currentWeekMinutes;
      expect(worked).toBe(Math.floor(span / MINUTE));
      expect(before.summary.progressPercent).toBe(progress(worked, 180));
      expect(before.entry.progressPercent).toBe(progress(worked, 180));
      const weekEnd = Date.parse(before.summary.currentWeekEnd);
      expect(Date.parse(before.summary.currentWeekStart)).toBe(weekStart);

      // 1. Alice asks, as the bot would, for the whole of this week off, and for the first two days of the next.
      const thisWeek = await bot.requestInactivityNotice(alice, {
        startsAt: new Date(weekStart).toISOString(),
        endsAt: new Date(weekEnd).toISOString(),
        reason: 'Family matters',
      });
      const asked = thisWeek.body.data.notice;
      expect(asked).toMatchObject({ status: 'pending', environment: 'test', decidedAt: null });
      const nextWeek = (
        await bot.requestInactivityNotice(alice, {
          startsAt: new Date(weekEnd).toISOString(),
          endsAt: new Date(weekEnd + 2 * DAY).toISOString(),
          reason: 'Moving house',
        })
      ).body.data;
      // A pending notice lowers nothing.
      expect((await week()).summary.weeklyRequiredMinutes).toBe(180);

      // 2. The manager lists the test environment's pending notices and decides: this week yes, next week no.
      const pending = (await manager.listInactivityNotices({ environment: 'test' })).body.data;
      expect(pending.notices.map((n) => [n.id, n.staff.gameUserId, n.status])).toEqual([
        [asked.id, fixture.staff.alice.gameUserId, 'pending'],
        [nextWeek.notice.id, fixture.staff.alice.gameUserId, 'pending'],
      ]);
      expect(pending.nextCursor).toBeNull();
      const approved = (await manager.approveInactivityNotice(asked.id, { note: 'Take care.' })).body.data;
      expect(approved.notice).toMatchObject({ status: 'approved', decisionNote: 'Take care.' });
      const denied = (await manager.denyInactivityNotice(nextWeek.notice.id)).body.data;
      expect(denied.notice.status).toBe('denied');
      const decided = (await manager.listInactivityNotices({ environment: 'test', status: 'approved,denied' })).body.data;
      expect(decided.notices.map((n) => [n.id, n.status, n.decidedBy])).toEqual([
        [asked.id, 'approved', REVIEWER_USER_ID],
        [nextWeek.notice.id, 'denied', REVIEWER_USER_ID],
      ]);

      // 3. The whole week is waived: no requirement, so full progress, on the summary and on the leaderboard.
      const away = await week();
      expect(away.summary.weeklyRequiredMinutes).toBe(0);
      expect(away.summary.inactivityEffect).toMatchObject({ noticeId: asked.id, waivedMinutes: 180, reason: 'Family matters' });
      expect(away.summary.progressPercent).toBe(100);
      expect(away.entry.progressPercent).toBe(100);
      expect(away.entry.progressPercent).not.toBe(before.entry.progressPercent);

      // 4. Alice comes back early through the bot's /loa: the notice under way ends now and stays approved.
      const back = await loaCommand(bot, { guildId: fixture.guildId, chatUserId: alice.actingChatUserId }, { action: 'cancel', noticeId: asked.id });
      expect(back).toMatch(/^Welcome back! /);
      const mine = (await bot.listMyInactivityNotices(alice)).body.data.notices;
      const ended = mine.find((n) => n.id === asked.id);
      expect(ended?.status).toBe('approved');
      const endedAt = Date.parse(ended?.endsAt ?? '');
      expect(endedAt).toBeGreaterThan(now);
      expect(endedAt).toBeLessThan(weekEnd);
      // The part taken still counts: requirement × taken / week, floored, is waived.
      const waived = Math.floor((180 * (endedAt - weekStart)) / (weekEnd - weekStart));
      const returned = await week();
      expect(returned.summary.inactivityEffect).toMatchObject({ noticeId: asked.id, waivedMinutes: waived });
      expect(returned.summary.weeklyRequiredMinutes).toBe(180 - waived);
      expect(returned.summary.progressPercent).toBe(progress(worked, 180 - waived));
      expect(returned.entry.progressPercent).toBe(progress(worked, 180 - waived));
      expect(await loaCommand(bot, { guildId: fixture.guildId, chatUserId: alice.actingChatUserId }, { action: 'cancel', noticeId: asked.id })).toBe(
        'That time off is already over; there is nothing to cancel.',
      );

      // 5. The receiver verified and got the five events, in order, each with its operation's answer as data.
      const deadline = Date.now() + EVENT_WAIT_MS;
      while (received.length < 5 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(received.map(({ event }) => event.type)).toEqual([
        'staff.inactivity_notice.requested',
        'staff.inactivity_notice.requested',
        'staff.inactivity_notice.approved',
        'staff.inactivity_notice.denied',
        'staff.inactivity_notice.cancelled',
      ]);
      const cancelledEvent = received[4]?.event;
      expect(received.map(({ event }) => event.id)).toEqual([
        thisWeek.body.data.eventId,
        nextWeek.eventId,
        approved.eventId,
        denied.eventId,
        cancelledEvent?.id,
      ]);
      expect(received[0]?.event.data).toEqual(thisWeek.body.data);
      expect(received[2]?.event.data).toEqual(approved);
      expect(cancelledEvent?.data).toMatchObject({ notice: { id: asked.id, status: 'approved', endsAt: ended?.endsAt } });
      for (const { event } of received) {
        expect(event).toMatchObject({ workspaceId: fixture.ids.workspaceId, environment: 'test' });
      }
      const times = received.map(({ event }) => Date.parse(event.createdAt));
      expect([...times].sort((a, b) => a - b)).toEqual(times);
      // The staff channel hears of time off without its reason or the manager's note.
      expect(received.map(({ message }) => message.split(':')[0])).toEqual([
        'Time off asked for',
        'Time off asked for',
        'Time off approved',
        'Time off denied',
        'Back early from time off',
      ]);
      for (const { message } of received) expect(message).not.toMatch(/Family matters|Moving house|Take care/);

      // A body the gateway did not sign is refused, and nothing more is announced.
      const forged = await fetch(new Request(hook, { method: 'POST', body: JSON.stringify(received[0]?.event) }));
      expect(forged.status).toBe(400);
      expect(received).toHaveLength(5);
    },
    120_000,
  );
});
