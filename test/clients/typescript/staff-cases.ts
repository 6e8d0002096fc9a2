import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { gatewayError, type OperationCase } from './cases.ts';

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
};
