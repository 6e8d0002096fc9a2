import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { gatewayError, type CaseContext, type OperationCase } from './cases.ts';

/** The id of the case's fresh staff member, as the roster lists it. */
async function staffId(ctx: Pick<CaseContext, 'reviewer' | 'staff'>): Promise<string> {
  const listed = (await ctx.reviewer.listStaff({ environment: 'test', limit: 100 })).body.data.staff;
  return listed.find((s) => s.gameUserId === ctx.staff)?.id ?? '';
}

/** A success and an error case per operation of the console's staff side (docs/API.md, "Staff in the console"). */
export const STAFF_CASES: Record<string, OperationCase> = {
  listStaff: {
    success: async (ctx) => {
      const page = (await ctx.reviewer.listStaff({ environment: 'test', limit: 100 })).body.data;
      const item = page.staff.find((s) => s.gameUserId === ctx.staff);
      expect(item).toMatchObject({ status: 'active', week: { totalMinutes: 0 }, activeShift: null });
      const names = page.staff.map((s) => s.displayName);
      expect(names).toEqual([...names].sort());
    },
    failure: async ({ reviewer }) => {
      await gatewayError(reviewer.listStaff({ limit: 0 }), 400, 'validation_failed');
    },
  },
  getStaffMember: {
    success: async (ctx) => {
      const listed = (await ctx.reviewer.listStaff({ environment: 'test', limit: 100 })).body.data.staff;
      const id = listed.find((s) => s.gameUserId === ctx.staff)?.id ?? '';
      const page = (await ctx.reviewer.getStaffMember(id, { environment: 'test' })).body.data;
      expect(page.staff.id).toBe(id);
      expect(page.weeks).toHaveLength(8);
      expect(page.rankChanges).toEqual([]);
    },
    failure: async ({ reviewer }) => {
      await gatewayError(reviewer.getStaffMember(randomUUID()), 404, 'not_found');
    },
  },
  changeStaffRank: {
    success: async (ctx) => {
      const id = await staffId(ctx);
      const change = (await ctx.owner.changeStaffRank(id, { rank: 'Senior Moderator', reason: 'Six months' })).body.data.change;
      expect(change).toMatchObject({ staffId: id, toRank: 'Senior Moderator', reason: 'Six months', sync: { status: 'not_configured' } });
    },
    failure: async (ctx) => {
      // The reviewer may review applications but not change ranks.
      await gatewayError(ctx.reviewer.changeStaffRank(await staffId(ctx), { rank: 'Senior Moderator' }), 403, 'permission_denied');
    },
  },
  listStaffRankChanges: {
    success: async (ctx) => {
      const id = await staffId(ctx);
      await ctx.owner.changeStaffRank(id, { rank: 'Trial Moderator' });
      const changes = (await ctx.reviewer.listStaffRankChanges(id)).body.data.changes;
      expect(changes.map((change) => change.toRank)).toEqual(['Trial Moderator']);
    },
    failure: async ({ reviewer }) => {
      await gatewayError(reviewer.listStaffRankChanges(randomUUID()), 404, 'not_found');
    },
  },
};
