import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { gatewayError, type CaseContext, type OperationCase } from './cases.ts';

const DAY = 86_400_000;
const iso = (ms: number): string => new Date(ms).toISOString();

/** A notice `fromDay` days from now, `days` long. */
const dates = (fromDay: number, days: number) => {
  const start = Date.now() + fromDay * DAY;
  return { startsAt: iso(start), endsAt: iso(start + days * DAY) };
};

/** The case's staff member asks, through the bot's key, for a notice starting `fromDay` days from now. */
async function ask(ctx: CaseContext, fromDay = 1, days = 2) {
  const reply = await ctx.client.requestInactivityNotice(ctx.staffChat, { ...dates(fromDay, days), reason: 'Exams' });
  expect(reply.body.data.notice.status).toBe('pending');
  return reply.body.data.notice;
}

/** A success and an error case per operation of inactivity notices (docs/TIME-OFF.md). */
export const TIME_OFF_CASES: Record<string, OperationCase> = {
  requestInactivityNotice: {
    success: async (ctx) => {
      const body = { ...dates(1, 3), reason: '  Exams  ' };
      const first = await ctx.client.requestInactivityNotice(ctx.staffChat, body, { correlationId: 'loa-1' });
      expect(first.body.meta.correlationId).toBe('loa-1');
      expect(first.body.data.notice).toMatchObject({ status: 'pending', environment: 'test', reason: 'Exams', decidedAt: null });
      const again = await ctx.client.requestInactivityNotice(ctx.staffChat, body, { idempotencyKey: first.idempotencyKey });
      expect(again.replayed).toBe(true);
      expect(again.body.data).toEqual(first.body.data);
    },
    failure: async (ctx) => {
      const { startsAt } = dates(2, 0);
      const body = { startsAt, endsAt: iso(Date.parse(startsAt) - DAY), reason: 'Backwards' };
      const error = await gatewayError(ctx.client.requestInactivityNotice(ctx.staffChat, body), 400, 'validation_failed');
      expect(error.details?.issues?.map((issue) => ('path' in issue ? issue.path : issue.questionId))).toEqual(['body.endsAt']);
      const notice = await ask(ctx, 10);
      const overlap = await gatewayError(ctx.client.requestInactivityNotice(ctx.staffChat, { ...dates(11, 1), reason: 'More' }), 409, 'notice_overlap');
      expect(overlap.details?.noticeId).toBe(notice.id);
    },
  },
  listMyInactivityNotices: {
    success: async (ctx) => {
      const early = await ask(ctx, 1);
      const late = await ask(ctx, 5);
      const listed = (await ctx.client.listMyInactivityNotices(ctx.staffChat)).body.data.notices;
      expect(listed.map((n) => n.id)).toEqual([late.id, early.id]);
    },
    failure: async (ctx) => {
      const stranger = { ...ctx.staffChat, actingChatUserId: '404404' };
      await gatewayError(ctx.client.listMyInactivityNotices(stranger), 404, 'not_found');
    },
  },
  cancelInactivityNotice: {
    success: async (ctx) => {
      const notice = await ask(ctx);
      const reply = await ctx.client.cancelInactivityNotice(ctx.staffChat, notice.id);
      expect(reply.body.data.notice).toMatchObject({ id: notice.id, status: 'cancelled' });
      expect(reply.body.data.eventId).toEqual(expect.any(String));
    },
    failure: async (ctx) => {
      const notice = await ask(ctx);
      await ctx.client.cancelInactivityNotice(ctx.staffChat, notice.id);
      const error = await gatewayError(ctx.client.cancelInactivityNotice(ctx.staffChat, notice.id), 409, 'notice_finalized');
      expect(error.details?.status).toBe('cancelled');
      await gatewayError(ctx.client.cancelInactivityNotice(ctx.staffChat, randomUUID()), 404, 'not_found');
    },
  },
  listInactivityNotices: {
    success: async (ctx) => {
      const notice = await ask(ctx);
      const page = (await ctx.owner.listInactivityNotices({ environment: 'test', limit: 100 })).body.data;
      const item = page.notices.find((n) => n.id === notice.id);
      expect(item).toMatchObject({ status: 'pending', staff: { gameUserId: ctx.staff }, decidedBy: null });
      const none = await ctx.owner.listInactivityNotices({ environment: 'test', staffId: randomUUID() });
      expect(none.body.data).toEqual({ notices: [], nextCursor: null });
    },
    failure: async ({ owner, reviewer }) => {
      const denied = await gatewayError(reviewer.listInactivityNotices(), 403, 'permission_denied');
      expect(denied.details?.requiredPermission).toBe('notices.decide');
      await gatewayError(owner.listInactivityNotices({ status: 'maybe' }), 400, 'validation_failed');
    },
  },
  approveInactivityNotice: {
    success: async (ctx) => {
      const notice = await ask(ctx);
      const reply = await ctx.owner.approveInactivityNotice(notice.id, { note: ' Good luck. ' });
      expect(reply.body.data.notice).toMatchObject({ id: notice.id, status: 'approved', decisionNote: 'Good luck.' });
      expect(reply.body.data.notice.decidedAt).toEqual(expect.any(String));
    },
    failure: async (ctx) => {
      const notice = await ask(ctx);
      await ctx.owner.approveInactivityNotice(notice.id);
      const error = await gatewayError(ctx.owner.approveInactivityNotice(notice.id), 409, 'invalid_state_transition');
      expect(error.details?.status).toBe('approved');
    },
  },
  denyInactivityNotice: {
    success: async (ctx) => {
      const notice = await ask(ctx);
      const reply = await ctx.owner.denyInactivityNotice(notice.id);
      expect(reply.body.data.notice).toMatchObject({ id: notice.id, status: 'denied', decisionNote: null });
    },
    failure: async (ctx) => {
      await gatewayError(ctx.owner.denyInactivityNotice(randomUUID()), 404, 'not_found');
      const notice = await ask(ctx);
      await gatewayError(ctx.reviewer.denyInactivityNotice(notice.id), 403, 'permission_denied');
    },
  },
};
