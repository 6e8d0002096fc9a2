import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffDocument } from '../../../../src/provisioning/schema.ts';
import { createTestContext, type TestContext } from '../../../helpers/app.ts';
import {
  bearer,
  buildFixture,
  dashboardToken,
  READONLY_USER_ID,
  seed,
  type Fixture,
  type WorkspaceFixture,
} from '../../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../../helpers/stores.ts';
import { addHistory, completedShift, insertActiveShift, notice, orderedId } from '../reports/helpers.ts';
import { dataOf, errorOf, memberGet, wholeRoster, type RosterBody } from './helpers.ts';

// Wednesday 2026-03-11 12:00 UTC; the workspace is on UTC. Week: 2026-03-09 .. 2026-03-16.
const NOW = Date.parse('2026-03-11T12:00:00Z');
const BOTH_USER_ID = 'user-in-both';
const STRANGER_USER_ID = 'user-of-no-workspace';

/** Compares by Unicode code points (JavaScript's `<` compares UTF-16 code units). */
function byCodePoints(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0) ?? 0);
  const y = Array.from(b, (c) => c.codePointAt(0) ?? 0);
  for (let i = 0; i < Math.min(x.length, y.length); i += 1) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

describe.each(STORE_KINDS)('GET /v1/staff, the roster (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: Fixture & { readonly second: WorkspaceFixture };
  let token: string;
  let aliceShift: string;
  const extra = (n: number, name: string, more: Partial<StaffDocument> = {}): StaffDocument => ({
    id: orderedId(0xb0, n),
    displayName: name,
    gameUserId: String(9000 + n),
    gameUsername: name.toLowerCase(),
    status: 'active',
    ...more,
  });

  beforeAll(async () => {
    ctx = await createTestContext(kind, { now: NOW });
    fixture = buildFixture({ secondWorkspace: true });
    const { alice, bob, carol } = fixture.ids.staff;
    fixture.workspace.members?.push({ userId: BOTH_USER_ID, permissions: [] });
    fixture.second.workspace.members?.push({ userId: BOTH_USER_ID, permissions: [] });
    addHistory(fixture, {
      // Names that order differently by code points than by a language's collation: "Zoë" < "zed" < "Émile".
      staff: [
        extra(1, 'Émile', { rank: 'Helper' }),
        extra(2, 'zed'),
        extra(3, 'Zoë', { departmentId: fixture.ids.departments.support }),
        extra(4, 'Bob'),
      ],
      shifts: [
        // Alice: 60 + 30.5 minutes this week (90 whole), 120 last week.
        completedShift(fixture, alice, '2026-03-10T10:00:00Z', '2026-03-10T11:00:00Z', 'live'),
        completedShift(fixture, alice, '2026-03-09T09:00:00Z', '2026-03-09T09:30:30Z', 'live'),
        completedShift(fixture, alice, '2026-03-03T10:00:00Z', '2026-03-03T12:00:00Z', 'live'),
        // Bob: one hour across the week's start (60 minutes in it), and test work the live roster never counts.
        completedShift(fixture, bob, '2026-03-08T23:00:00Z', '2026-03-09T01:00:00Z', 'live'),
        completedShift(fixture, bob, '2026-03-10T08:00:00Z', '2026-03-10T12:00:00Z', 'test'),
        completedShift(fixture, carol, '2026-03-10T08:00:00Z', '2026-03-10T09:00:00Z', 'live'),
      ],
      notices: [
        // Alice: two days of the week off (180 × 2/7 = 51 minutes waived); a pending one changes nothing.
        notice(alice, '2026-03-12T00:00:00Z', '2026-03-14T00:00:00Z', 'approved', 'private reason'),
        notice(alice, '2026-03-14T00:00:00Z', '2026-03-15T00:00:00Z', 'pending', 'private reason'),
      ],
    });
    await seed(ctx, fixture);
    // Alice is on shift (live); Bob's live shift timed out (counts 60 minutes, not on duty); Zoë's is a test one.
    aliceShift = await insertActiveShift(ctx, fixture, {
      staffId: alice,
      startedAt: '2026-03-11T11:40:00Z',
      lastSeenAt: '2026-03-11T11:59:30Z',
      environment: 'live',
    });
    await insertActiveShift(ctx, fixture, {
      staffId: bob,
      startedAt: '2026-03-11T09:00:00Z',
      lastHeartbeatAt: '2026-03-11T10:00:00Z',
      lastSeenAt: '2026-03-11T10:00:00Z',
      environment: 'live',
    });
    await insertActiveShift(ctx, fixture, { staffId: orderedId(0xb0, 3), startedAt: '2026-03-11T11:00:00Z', lastSeenAt: '2026-03-11T11:59:00Z' });
    token = await dashboardToken(READONLY_USER_ID);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const roster = async (query = '', credential = token, workspaceId?: string) =>
    dataOf<RosterBody>(await memberGet(ctx, credential, `/v1/staff${query}`, workspaceId));

  it('lists the active staff by display name then id, compared by code points, to any member', async () => {
    const { staff, nextCursor } = await roster();
    expect(nextCursor).toBeNull();
    const names = staff.map((s) => s.displayName);
    expect(names).toEqual(['Alice', 'Bob', 'Bob', 'Zoë', 'zed', 'Émile']);
    const expected = [...staff].sort((a, b) => byCodePoints(a.displayName, b.displayName) || byCodePoints(a.id, b.id));
    expect(staff.map((s) => s.id)).toEqual(expected.map((s) => s.id));
    const alice = staff[0];
    expect(alice).toEqual({
      id: fixture.ids.staff.alice,
      displayName: 'Alice',
      gameUserId: fixture.staff.alice.gameUserId,
      gameUsername: 'alice',
      chatUserId: fixture.staff.alice.chatUserId,
      departmentId: fixture.ids.departments.moderation,
      rank: 'Moderator',
      status: 'active',
      // 180 required less 51 waived; 90 / 129 = 69.77 %.
      week: { totalMinutes: 90, requiredMinutes: 129, progressPercent: 69.77 },
      activeShift: { id: aliceShift, startedAt: '2026-03-11T11:40:00.000Z' },
    });
    const bob = staff.find((s) => s.id === fixture.ids.staff.bob);
    // Own requirement 60; 60 minutes across the week start plus the timed-out shift's 60 to its last heartbeat.
    expect(bob?.week).toEqual({ totalMinutes: 120, requiredMinutes: 60, progressPercent: 200 });
    expect(bob?.activeShift).toBeNull();
    expect(staff.find((s) => s.displayName === 'Zoë')?.activeShift).toBeNull();
    expect(staff.find((s) => s.displayName === 'zed')).toMatchObject({ chatUserId: null, departmentId: null, rank: null });
  });

  it('reads the test environment when asked: its shifts, its shift under way', async () => {
    const { staff } = await roster('?environment=test');
    const bob = staff.find((s) => s.id === fixture.ids.staff.bob);
    expect(bob?.week).toEqual({ totalMinutes: 240, requiredMinutes: 60, progressPercent: 400 });
    expect(staff.find((s) => s.displayName === 'Zoë')?.activeShift).toMatchObject({ startedAt: '2026-03-11T11:00:00.000Z' });
    // Alice's notice is live: the test requirement is not lowered.
    expect(staff[0]?.week).toEqual({ totalMinutes: 0, requiredMinutes: 180, progressPercent: 0 });
    expect(staff[0]?.activeShift).toBeNull();
  });

  it('gives each week exactly as the leaderboard entry (with a member token and a live key alike)', async () => {
    const { staff } = await roster();
    for (const credential of [token, fixture.keys.live.secret]) {
      const res = await memberGet(ctx, credential, '/v1/activity/leaderboard?limit=100');
      const entries = dataOf<{ entries: { staffId: string; totalMinutes: number; progressPercent: number }[] }>(res).entries;
      expect(entries).toHaveLength(staff.length);
      for (const item of staff) {
        const entry = entries.find((e) => e.staffId === item.id);
        expect({ totalMinutes: entry?.totalMinutes, progressPercent: entry?.progressPercent }).toEqual({
          totalMinutes: item.week.totalMinutes,
          progressPercent: item.week.progressPercent,
        });
      }
    }
  });

  it('filters by status, department and exact rank', async () => {
    expect((await roster('?status=inactive')).staff.map((s) => s.displayName)).toEqual(['Carol']);
    const all = await roster('?status=all');
    expect(all.staff.map((s) => s.displayName)).toEqual(['Alice', 'Bob', 'Bob', 'Carol', 'Zoë', 'zed', 'Émile']);
    expect(all.staff.find((s) => s.displayName === 'Carol')).toMatchObject({ status: 'inactive', week: { totalMinutes: 60 } });
    const support = fixture.ids.departments.support;
    expect((await roster(`?status=all&departmentId=${support.toUpperCase()}`)).staff.map((s) => s.displayName)).toEqual(['Carol', 'Zoë']);
    expect((await roster('?rank=Helper')).staff.map((s) => s.displayName)).toEqual(['Émile']);
    expect((await roster('?rank=helper')).staff).toEqual([]);
    expect((await roster(`?departmentId=${orderedId(0xdead, 1)}`)).staff).toEqual([]);
  });

  it('pages by display name and id without repeating or skipping anyone, ties included', async () => {
    const { staff: whole } = await roster('?status=all');
    for (const limit of [1, 2, 3]) {
      const { staff, pages } = await wholeRoster(ctx, token, `status=all&limit=${limit}`);
      expect(staff.map((s) => s.id)).toEqual(whole.map((s) => s.id));
      expect(pages).toBe(Math.ceil(whole.length / limit));
    }
    const first = await roster('?limit=2');
    expect(first.nextCursor).toEqual({ cursorDisplayName: 'Bob', cursorId: first.staff[1]?.id });
    // A cursor is a place in the order: upper-case ids are read as the same place.
    const cursor = first.nextCursor;
    const next = await roster(`?limit=2&cursorDisplayName=Bob&cursorId=${cursor?.cursorId.toUpperCase()}`);
    expect(next.staff.map((s) => s.displayName)).toEqual(['Bob', 'Zoë']);
    expect((await roster('?limit=50')).staff).toHaveLength(6);
  });

  it.each([
    ['?limit=0', 'querystring/limit'],
    ['?limit=101', 'querystring/limit'],
    ['?limit=1.5', 'querystring/limit'],
    ['?limit=ten', 'querystring/limit'],
    ['?status=retired', 'querystring/status'],
    ['?departmentId=moderation', 'querystring/departmentId'],
    ['?environment=staging', 'querystring/environment'],
    ['?cursorDisplayName=Bob&cursorId=not-a-uuid', 'querystring/cursorId'],
    ['?cursorDisplayName=Bob', 'querystring.cursorId'],
    [`?cursorId=${orderedId(1, 1)}`, 'querystring.cursorDisplayName'],
  ])('%s is 400 validation_failed naming the parameter', async (query, path) => {
    const res = await memberGet(ctx, token, `/v1/staff${query}`);
    expect(res.statusCode, res.body).toBe(400);
    const error = errorOf(res);
    expect(error.code).toBe('validation_failed');
    expect(JSON.stringify(error.details?.issues)).toContain(path.split(/[/.]/).pop());
  });

  it('needs a member\'s dashboard token: an API key is 401, a member of no workspace 403', async () => {
    expect((await ctx.inject({ method: 'GET', url: '/v1/staff' })).statusCode).toBe(401);
    const keyed = await ctx.inject({ method: 'GET', url: '/v1/staff', headers: bearer(fixture.keys.live.secret) });
    expect(keyed.statusCode).toBe(401);
    const stranger = await memberGet(ctx, await dashboardToken(STRANGER_USER_ID), '/v1/staff');
    expect(stranger.statusCode).toBe(403);
    expect(errorOf(stranger).code).toBe('workspace_access_denied');
    // Naming a workspace the caller is not a member of.
    const other = await memberGet(ctx, token, '/v1/staff', fixture.second.ids.workspaceId);
    expect([other.statusCode, errorOf(other).code]).toEqual([403, 'workspace_access_denied']);
  });

  it('a member of several workspaces names one (400 without), and sees only that one', async () => {
    const both = await dashboardToken(BOTH_USER_ID);
    const unnamed = await memberGet(ctx, both, '/v1/staff');
    expect([unnamed.statusCode, errorOf(unnamed).code]).toEqual([400, 'validation_failed']);
    const second = await roster('', both, fixture.second.ids.workspaceId);
    expect(second.staff.map((s) => s.id)).toEqual([fixture.second.ids.staff.alice, fixture.second.ids.staff.bob]);
    const first = await roster('', both, fixture.ids.workspaceId);
    expect(first.staff).toHaveLength(6);
  });
});
