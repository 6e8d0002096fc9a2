/**
 * Property: a staff member's week has the same figures in the roster, on their page, in the leaderboard and in
 * their own summary (minutes, requirement, progress), over random workspaces (time zones, requirements of the
 * workspace, departments and staff), random completed shifts, shifts under way and timed out, and approved and
 * pending notices, on both stores.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffDocument } from '../../../../src/provisioning/schema.ts';
import { newId } from '../../../../src/shared/ids.ts';
import { createTestContext, type TestContext } from '../../../helpers/app.ts';
import { bearer, buildFixture, dashboardToken, READONLY_USER_ID, seed } from '../../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../../helpers/stores.ts';
import { addHistory, chatHeaders, completedShift, insertActiveShift, notice } from '../reports/helpers.ts';
import { dataOf, memberGet, type RosterBody, type WeekFiguresBody } from './helpers.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const TIMEOUT_MS = 300_000;
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kathmandu', 'Pacific/Chatham'] as const;
/** Instants whose weeks hold DST changes of some zones above, and ordinary ones. */
const NOWS = ['2026-03-11T12:00:00Z', '2026-03-29T09:30:00Z', '2026-11-02T03:00:00Z', '2026-04-06T00:10:00Z'].map(Date.parse);

const requirement = fc.option(fc.integer({ min: 0, max: 900 }), { nil: null });

const staffSpec = fc.record({
  department: fc.constantFrom<'moderation' | 'support' | null>('moderation', 'support', null),
  override: fc.option(fc.integer({ min: 0, max: 900 }), { nil: undefined }),
  inactive: fc.boolean(),
  shifts: fc.array(fc.record({ ago: fc.integer({ min: 0, max: 10 * DAY }), minutes: fc.integer({ min: 0, max: 9 * 60 }) }), { maxLength: 5 }),
  notices: fc.array(
    fc.record({ from: fc.integer({ min: -9 * DAY, max: 5 * DAY }), hours: fc.integer({ min: 1, max: 6 * 24 }), approved: fc.boolean() }),
    { maxLength: 2 },
  ),
  active: fc.option(fc.record({ startedAgo: fc.integer({ min: 0, max: 20 * HOUR }), seenAgo: fc.integer({ min: 0, max: 2 * TIMEOUT_MS }) }), {
    nil: null,
  }),
});

const worldSpec = fc.record({
  zone: fc.constantFrom(...ZONES),
  now: fc.constantFrom(...NOWS),
  workspace: requirement,
  moderation: requirement,
  support: requirement,
  staff: fc.array(staffSpec, { minLength: 1, maxLength: 5 }),
});

interface Entry {
  staffId: string;
  totalMinutes: number;
  progressPercent: number;
}
interface Summary {
  currentWeekMinutes: number;
  weeklyRequiredMinutes: number;
  progressPercent: number;
}

describe.each(STORE_KINDS)('a week\'s figures agree across the roster, the leaderboard and the summary (%s)', (kind) => {
  let ctx: TestContext;
  let token: string;

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    token = await dashboardToken(READONLY_USER_ID, { expiresAt: Date.parse('2027-01-01T00:00:00Z') });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('for random workspaces, shifts and notices', async () => {
    await fc.assert(
      fc.asyncProperty(worldSpec, async (world) => {
        const now = world.now;
        ctx.clock.set(now);
        const fixture = buildFixture({ timezone: world.zone, weeklyRequiredMinutes: world.workspace });
        const departments = fixture.workspace.departments ?? [];
        if (departments[0]) departments[0].weeklyRequiredMinutes = world.moderation;
        if (departments[1]) departments[1].weeklyRequiredMinutes = world.support;
        const staff: StaffDocument[] = world.staff.map((spec, i) => ({
          id: newId(),
          displayName: `Staff ${i}`,
          gameUserId: String(70_000 + i),
          gameUsername: `staff_${i}`,
          chatUserId: String(80_000 + i),
          status: spec.inactive ? 'inactive' : 'active',
          ...(spec.department ? { departmentId: fixture.ids.departments[spec.department] } : {}),
          ...(spec.override !== undefined ? { weeklyRequiredMinutes: spec.override } : {}),
        }));
        fixture.workspace.staff = staff;
        const iso = (ms: number) => new Date(ms).toISOString();
        addHistory(fixture, {
          shifts: world.staff.flatMap((spec, i) =>
            spec.shifts.map(({ ago, minutes }) => {
              const start = now - ago;
              return completedShift(fixture, staff[i]?.id ?? '', iso(start), iso(Math.min(now, start + minutes * 60_000)), 'live');
            }),
          ),
          notices: world.staff.flatMap((spec, i) =>
            spec.notices.map(({ from, hours, approved }) =>
              notice(staff[i]?.id ?? '', iso(now + from), iso(now + from + hours * HOUR), approved ? 'approved' : 'pending'),
            ),
          ),
        });
        await seed(ctx, fixture);
        for (const [i, spec] of world.staff.entries()) {
          if (spec.active === null) continue;
          const seen = now - Math.min(spec.active.seenAgo, spec.active.startedAgo);
          await insertActiveShift(ctx, fixture, {
            staffId: staff[i]?.id ?? '',
            startedAt: iso(now - spec.active.startedAgo),
            lastHeartbeatAt: iso(seen),
            lastSeenAt: iso(seen),
            environment: 'live',
          });
        }

        const workspaceId = fixture.ids.workspaceId;
        const roster = dataOf<RosterBody>(await memberGet(ctx, token, '/v1/staff?status=all&limit=100', workspaceId)).staff;
        const board = dataOf<{ entries: Entry[] }>(
          await ctx.inject({ method: 'GET', url: '/v1/activity/leaderboard?includeInactive=true&limit=100', headers: bearer(fixture.keys.live.secret) }),
        ).entries;
        expect(roster).toHaveLength(staff.length);
        expect(board).toHaveLength(staff.length);
        for (const member of staff) {
          const item = roster.find((r) => r.id === member.id);
          const entry = board.find((e) => e.staffId === member.id);
          const summary = dataOf<Summary>(
            await ctx.inject({ method: 'GET', url: '/v1/activity/me/summary', headers: chatHeaders(fixture.keys.live, member.chatUserId) }),
          );
          const fromSummary: WeekFiguresBody = {
            totalMinutes: summary.currentWeekMinutes,
            requiredMinutes: summary.weeklyRequiredMinutes,
            progressPercent: summary.progressPercent,
          };
          expect(item?.week).toEqual(fromSummary);
          expect({ totalMinutes: entry?.totalMinutes, progressPercent: entry?.progressPercent }).toEqual({
            totalMinutes: fromSummary.totalMinutes,
            progressPercent: fromSummary.progressPercent,
          });
          const page = dataOf<{ week: WeekFiguresBody; weeks: { totalMinutes: number; requiredMinutes: number }[] }>(
            await memberGet(ctx, token, `/v1/staff/${member.id}`, workspaceId),
          );
          expect({ totalMinutes: page.week.totalMinutes, requiredMinutes: page.week.requiredMinutes, progressPercent: page.week.progressPercent }).toEqual(
            fromSummary,
          );
          expect(page.weeks[7]).toMatchObject({ totalMinutes: fromSummary.totalMinutes, requiredMinutes: fromSummary.requiredMinutes });
        }
      }),
      { numRuns: 12 },
    );
  }, 120_000);
});
